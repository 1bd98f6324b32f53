package markdown

import (
	"slices"
	"sort"
	"unsafe"

	"github.com/rivo/uniseg"

	"github.com/quire-sh/quire/render"
)

// wrap lays pieces out into lines of at most width columns. Break
// opportunities follow Unicode line breaking (UAX #14: spaces, hyphens,
// between CJK ideographs); pieces marked keep (URLs) are only broken when
// they are wider than a whole line. Spaces at the end of a line are
// dropped. Widths are the renderer's (render.StringWidth).
func wrap(ps []piece, width int) [][]render.Span {
	return wrapped(ps, width).out
}

// wrapLines is wrap with each line saying how it continues the one
// before (render.Copy.Join), so a copy joins what the wrap cut.
func wrapLines(ps []piece, width int) []render.Line {
	f := wrapped(ps, width)
	return f.lines(0, len(f.out))
}

func wrapped(ps []piece, width int) *flow {
	f := newFlow(width)
	if len(ps) == 0 {
		return f
	}
	f.add(ps)
	f.finish()
	return f
}

// flow is the greedy wrapper: text is added to it as pieces and placed
// segment by segment (UAX #14), each on the current line if it fits or
// on a new one. Placing can stop at any segment boundary and go on later
// with more text, which is how a stream keeps an open paragraph's wrapped
// lines instead of wrapping it again on every chunk (see open_para.go):
// lines already emitted never change, and a segment is placed only once
// the text after it shows where it ends.
type flow struct {
	width  int
	ps     []piece
	starts []int // byte offset of each piece in buf
	buf    []byte
	out    [][]render.Span
	joins  []render.Join // how each line of out continues the one before
	join   render.Join   // how the line being filled continues

	placed   int // bytes of buf placed: a segment boundary
	segStart int // start of the segment being merged (inside a URL)
	state    int // uniseg state after placed
	keepIdx  int // first piece that may hold a segment end

	lineStart, lineEnd int // bytes of the current line's visible content
	lineW              int // its width
	hasLine            bool
	spaceW             int // width of spaces after lineEnd not yet placed
	// inWord is set while the current line ends inside a word too wide
	// for a line that placeLong placed part of: the next segment goes on
	// cutting it.
	inWord bool
	// owned is set when strings alias buf's bytes (a plain paragraph's,
	// see addOwned): bytes before len(buf) are then never written again,
	// and compact copies the text it keeps to new storage.
	owned bool
	// spare, when set, is storage emitted lines take their spans from
	// (appended to it) instead of slices of their own: a frame's lines
	// that the next frame replaces (paraFlow.display) reuse it.
	spare *[]render.Span
}

func newFlow(width int) *flow {
	return &flow{width: max(width, 1), state: -1}
}

// add appends pieces after the text so far.
func (f *flow) add(ps []piece) {
	if len(f.ps) == 0 && !f.owned && f.ps != nil {
		// The flow's storage again: nothing refers to its text.
		f.buf = f.buf[:0]
	} else if len(f.ps) == 0 {
		n := 0
		for _, p := range ps {
			n += len(p.text)
		}
		f.buf = make([]byte, 0, n)
		f.ps = make([]piece, 0, len(ps))
		f.starts = make([]int, 0, len(ps))
	}
	for _, p := range ps {
		f.ps = append(f.ps, p)
		f.starts = append(f.starts, len(f.buf))
		f.buf = append(f.buf, p.text...)
	}
}

// compact drops the text before the current line when it is most of
// the flow, so that a long paragraph's flow holds about one line, not
// the paragraph: that text is in emitted lines for good. Offsets into
// the text shift by the bytes dropped; it returns how many pieces went,
// so that a caller holding piece indexes can shift them too.
func (f *flow) compact() int {
	keep := f.placed // the first byte still needed: the current line's, or the segment's being merged
	if f.hasLine {
		keep = min(keep, f.lineStart)
	}
	keep = min(keep, f.segStart)
	if keep < compactMin || keep < len(f.buf)/2 {
		return 0
	}
	// Pieces wholly before keep go.
	d := sort.Search(len(f.starts), func(i int) bool { return f.starts[i]+len(f.ps[i].text) > keep })
	if d == 0 {
		return 0
	}
	shift := f.starts[d]
	if d == len(f.starts) {
		shift = len(f.buf)
	}
	buf := f.buf[:0]
	if f.owned {
		buf = make([]byte, 0, max(2*(len(f.buf)-shift), 2*compactMin))
	}
	f.buf = append(buf, f.buf[shift:]...)
	f.ps = append(f.ps[:0], f.ps[d:]...)
	f.starts = append(f.starts[:0], f.starts[d:]...)
	for i := range f.starts {
		f.starts[i] -= shift
	}
	f.placed -= shift
	f.segStart -= shift
	f.lineStart -= shift
	f.lineEnd -= shift
	f.keepIdx = max(f.keepIdx-d, 0)
	return d
}

// compactMin is the text compact leaves in place: copying less on every
// line would cost more than it saves.
const compactMin = 4 << 10

// truncate drops the pieces from piece n on, which must not have been
// placed.
func (f *flow) truncate(n int) {
	if n < len(f.ps) {
		f.buf = f.buf[:f.starts[n]]
		f.ps, f.starts = f.ps[:n], f.starts[:n]
	}
}

// split makes byte offset at (inside the text added) a piece boundary and
// returns the index of the piece that starts there.
func (f *flow) split(at int) int {
	i := sort.Search(len(f.starts), func(i int) bool { return f.starts[i] >= at })
	if i < len(f.starts) && f.starts[i] == at {
		return i
	}
	i-- // piece i holds at
	p := f.ps[i]
	k := at - f.starts[i]
	head, tail := p, p
	head.text, tail.text = p.text[:k], p.text[k:]
	f.ps = slices.Insert(f.ps, i+1, tail)
	f.ps[i] = head
	f.starts = slices.Insert(f.starts, i+1, at)
	return i + 1
}

// place places the segments that end at or before upTo, merging those
// that end inside a keep piece (no break inside a URL). Text after upTo
// serves as look-ahead only.
func (f *flow) place(upTo int) {
	for f.placed < len(f.buf) {
		n, state := nextLineSegment(f.buf[f.placed:], f.state)
		end := f.placed + n
		if end > upTo {
			return
		}
		f.state, f.placed = state, end
		if end < len(f.buf) && f.buf[end-1] != '\n' {
			for f.keepIdx < len(f.ps) && f.starts[f.keepIdx]+len(f.ps[f.keepIdx].text) <= end {
				f.keepIdx++
			}
			if f.keepIdx < len(f.ps) && f.ps[f.keepIdx].keep && f.starts[f.keepIdx] < end {
				continue // no break inside a URL
			}
		}
		f.placeSegment(f.segStart, end)
		f.segStart = end
	}
}

// placeLong places what it can of an unfinished segment that starts at
// f.placed and runs to the end of the text so far, when it is a word too
// wide for a line: such a word starts a line of its own and is cut at
// grapheme boundaries, so its graphemes land where they land however it
// ends. Every grapheme but the last (which more text may still extend)
// is placed, the word's last line left open (inWord) for the rest of it.
// It returns where placing stopped.
func (f *flow) placeLong() int {
	a := f.placed
	if f.segStart != a || !f.inWord && bytesWidth(f.buf[a:]) <= 2*f.width {
		return a
	}
	if !f.inWord {
		if f.hasLine && f.lineW > 0 {
			f.newLine(a)
		} else {
			f.startLine(a)
		}
		f.inWord = true
	}
	f.cutWord(a, len(f.buf), true)
	f.placed, f.segStart, f.state = f.lineEnd, f.lineEnd, -1
	return f.placed
}

// cutWord places the graphemes of [a, e) on the current line and the ones
// after it, cutting where the line is full; with open set, it leaves the
// last grapheme (the text's unfinished end) unplaced.
func (f *flow) cutWord(a, e int, open bool) {
	state := -1
	rest := f.buf[a:e]
	pos := a
	for len(rest) > 0 {
		var c []byte
		var cw int
		c, rest, cw, state = uniseg.FirstGraphemeCluster(rest, state)
		if open && len(rest) == 0 {
			return
		}
		if f.lineW > 0 && f.lineW+cw > f.width {
			f.emit()
			f.join = render.JoinNone
			f.startLine(pos)
		}
		pos += len(c)
		f.lineEnd = pos
		f.lineW += cw
	}
}

// finish places everything, the end of the text ending the last segment,
// and emits the last line.
func (f *flow) finish() {
	f.place(len(f.buf))
	if f.hasLine {
		f.emit()
	}
}

// placeSegment puts the segment [a, b) (a word, its trailing spaces,
// maybe a hard break) on the current line or a new one.
func (f *flow) placeSegment(a, b int) {
	hard := b > a && f.buf[b-1] == '\n'
	if hard {
		b--
	}
	e := b
	for e > a && f.buf[e-1] == ' ' {
		e--
	}
	spaces := b - e
	if f.inWord {
		f.inWord = false
		if e > a {
			f.cutWord(a, e, false)
		}
		f.spaceW = spaces
	} else if e > a {
		ww := bytesWidth(f.buf[a:e])
		switch {
		case !f.hasLine || f.lineW == 0:
			f.startLine(a)
			f.placeWord(a, e, ww)
		case f.lineW+f.spaceW+ww <= f.width:
			f.lineEnd = e
			f.lineW += f.spaceW + ww
		default:
			f.newLine(a)
			f.placeWord(a, e, ww)
		}
		f.spaceW = spaces
	} else if f.hasLine && f.lineW > 0 {
		f.spaceW += spaces
	}
	if hard {
		f.emit()
		f.join = render.JoinNewline
		f.hasLine = true // the line after a hard break exists even if empty
		f.lineStart, f.lineEnd = b+1, b+1
	}
}

// startLine starts an empty current line at a.
func (f *flow) startLine(a int) {
	f.hasLine = true
	f.lineStart, f.lineEnd, f.lineW = a, a, 0
}

// newLine closes the current line at a break opportunity and starts an
// empty one at a; a copy joins the two with a space when spaces made the
// break, with nothing otherwise (a break between ideographs drops
// nothing).
func (f *flow) newLine(a int) {
	next := render.JoinNone
	if f.spaceW > 0 {
		next = render.JoinSpace
	}
	f.emit()
	f.join = next
	f.startLine(a)
}

// placeWord puts the word [a, e) at the start of an empty line, cutting
// it at grapheme boundaries when it is wider than the line.
func (f *flow) placeWord(a, e, ww int) {
	if ww <= f.width {
		f.lineEnd = e
		f.lineW = ww
		return
	}
	f.cutWord(a, e, false)
}

// textWidth is render.StringWidth with a fast path for printable ASCII.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return render.StringWidth(s)
		}
	}
	return len(s)
}

// bytesWidth is textWidth of b, without a copy for printable ASCII.
func bytesWidth(b []byte) int {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f {
			return render.StringWidth(string(b))
		}
	}
	return len(b)
}

// emit closes the current line: its bytes become spans split at piece
// boundaries.
func (f *flow) emit() {
	f.out = append(f.out, f.spans(f.lineStart, f.lineEnd))
	f.joins = append(f.joins, f.join)
	f.hasLine = false
	f.lineW, f.spaceW = 0, 0
}

func (f *flow) spans(a, b int) []render.Span {
	if a >= b {
		return nil
	}
	i := sort.Search(len(f.starts), func(i int) bool { return f.starts[i] > a }) - 1
	n := 0 // style changes between the pieces the line overlaps: at most n+1 spans
	for j := i + 1; j < len(f.ps) && f.starts[j] < b; j++ {
		if f.ps[j].style != f.ps[j-1].style || f.ps[j].link != f.ps[j-1].link {
			n++
		}
	}
	var out []render.Span
	if f.spare != nil {
		*f.spare = slices.Grow(*f.spare, n+1)
		k := len(*f.spare)
		out = (*f.spare)[k : k : k+n+1]
	} else {
		out = make([]render.Span, 0, n+1)
	}
	// A run of pieces in one style becomes one span over their bytes
	// (adjacent in buf); a span within one piece is a slice of its text.
	runStart, runEnd, runPieces := 0, 0, 0
	end := func() {
		switch {
		case runPieces > 1 && f.owned:
			out[len(out)-1].Text = unsafe.String(&f.buf[runStart], runEnd-runStart) // bytes never written again
		case runPieces > 1:
			out[len(out)-1].Text = string(f.buf[runStart:runEnd])
		}
	}
	for ; i < len(f.ps) && f.starts[i] < b; i++ {
		p := f.ps[i]
		if p.hard {
			continue
		}
		s, e := max(a, f.starts[i]), min(b, f.starts[i]+len(p.text))
		if s >= e {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Style == p.style && out[n-1].Link == p.link && s == runEnd {
			runEnd = e
			runPieces++
			continue
		}
		end()
		out = append(out, render.Span{Text: p.text[s-f.starts[i] : e-f.starts[i]], Style: p.style, Link: p.link})
		runStart, runEnd, runPieces = s, e, 1
	}
	end()
	if f.spare != nil {
		*f.spare = (*f.spare)[:len(*f.spare)+len(out)]
		out = out[:len(out):len(out)]
	}
	return out
}

// lines returns emitted lines [from, to) as render lines.
func (f *flow) lines(from, to int) []render.Line {
	return f.appendLines(make([]render.Line, 0, to-from), from, to)
}

// appendLines appends emitted lines [from, to) to dst as render lines.
func (f *flow) appendLines(dst []render.Line, from, to int) []render.Line {
	for i := from; i < to; i++ {
		dst = append(dst, render.Line{Spans: f.out[i], Copy: render.Copy{Join: f.joins[i]}})
	}
	return dst
}

package markdown

import (
	"sort"
	"strings"

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
	w := wrapped(ps, width)
	out := make([]render.Line, len(w.out))
	for i, s := range w.out {
		out[i] = render.Line{Spans: s, Copy: render.Copy{Join: w.joins[i]}}
	}
	return out
}

func wrapped(ps []piece, width int) *wrapper {
	if len(ps) == 0 {
		return &wrapper{}
	}
	width = max(width, 1)
	w := &wrapper{ps: ps, width: width}
	var b strings.Builder
	w.starts = make([]int, len(ps))
	for i, p := range ps {
		w.starts[i] = b.Len()
		b.WriteString(p.text)
	}
	w.buf = b.String()
	w.run()
	return w
}

type wrapper struct {
	ps     []piece
	starts []int
	buf    string
	width  int
	out    [][]render.Span
	joins  []render.Join // how each line of out continues the one before
	join   render.Join   // how the line being filled continues

	lineStart, lineEnd int // bytes of the current line's visible content
	lineW              int // its width
	hasLine            bool
	spaceW             int // width of spaces after lineEnd not yet placed
}

// run walks the text by line-break opportunities (UAX #14 segments),
// merging the segments that end inside a keep piece.
func (w *wrapper) run() {
	state := -1
	rest := w.buf
	pos := 0
	segStart := 0
	keepIdx := 0
	for len(rest) > 0 {
		var seg string
		seg, rest, _, state = uniseg.FirstLineSegmentInString(rest, state)
		end := pos + len(seg)
		pos = end
		if len(rest) > 0 && w.buf[end-1] != '\n' {
			for keepIdx < len(w.ps) && w.starts[keepIdx]+len(w.ps[keepIdx].text) <= end {
				keepIdx++
			}
			if keepIdx < len(w.ps) && w.ps[keepIdx].keep && w.starts[keepIdx] < end {
				continue // no break inside a URL
			}
		}
		w.place(segStart, end)
		segStart = end
	}
	if w.hasLine {
		w.emit()
	}
}

// place puts the segment [a, b) (a word, its trailing spaces, maybe a
// hard break) on the current line or a new one.
func (w *wrapper) place(a, b int) {
	hard := b > a && w.buf[b-1] == '\n'
	if hard {
		b--
	}
	e := b
	for e > a && w.buf[e-1] == ' ' {
		e--
	}
	spaces := b - e
	if e > a {
		ww := textWidth(w.buf[a:e])
		switch {
		case !w.hasLine || w.lineW == 0:
			w.hasLine = true
			w.lineStart, w.lineEnd, w.lineW = a, a, 0
			w.placeWord(a, e, ww)
		case w.lineW+w.spaceW+ww <= w.width:
			w.lineEnd = e
			w.lineW += w.spaceW + ww
		default:
			next := render.JoinNone // a break between ideographs drops nothing
			if w.spaceW > 0 {
				next = render.JoinSpace
			}
			w.emit()
			w.join = next
			w.hasLine = true
			w.lineStart, w.lineEnd, w.lineW = a, a, 0
			w.placeWord(a, e, ww)
		}
		w.spaceW = spaces
	} else if w.hasLine && w.lineW > 0 {
		w.spaceW += spaces
	}
	if hard {
		w.emit()
		w.join = render.JoinNewline
		w.hasLine = true // the line after a hard break exists even if empty
		w.lineStart, w.lineEnd = b+1, b+1
	}
}

// placeWord puts the word [a, e) at the start of an empty line, cutting
// it at grapheme boundaries when it is wider than the line.
func (w *wrapper) placeWord(a, e, ww int) {
	if ww <= w.width {
		w.lineEnd = e
		w.lineW = ww
		return
	}
	state := -1
	rest := w.buf[a:e]
	pos := a
	for len(rest) > 0 {
		var c string
		var cw int
		c, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if w.lineW > 0 && w.lineW+cw > w.width {
			w.emit()
			w.join = render.JoinNone
			w.hasLine = true
			w.lineStart, w.lineEnd, w.lineW = pos, pos, 0
		}
		pos += len(c)
		w.lineEnd = pos
		w.lineW += cw
	}
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

// emit closes the current line: its bytes become spans split at piece
// boundaries.
func (w *wrapper) emit() {
	w.out = append(w.out, w.spans(w.lineStart, w.lineEnd))
	w.joins = append(w.joins, w.join)
	w.hasLine = false
	w.lineW, w.spaceW = 0, 0
}

func (w *wrapper) spans(a, b int) []render.Span {
	if a >= b {
		return nil
	}
	i := sort.Search(len(w.starts), func(i int) bool { return w.starts[i] > a }) - 1
	var out []render.Span
	for ; i < len(w.ps) && w.starts[i] < b; i++ {
		p := w.ps[i]
		if p.hard {
			continue
		}
		s, e := max(a, w.starts[i]), min(b, w.starts[i]+len(p.text))
		if s >= e {
			continue
		}
		t := w.buf[s:e]
		if n := len(out); n > 0 && out[n-1].Style == p.style && out[n-1].Link == p.link {
			out[n-1].Text += t
			continue
		}
		out = append(out, render.Span{Text: t, Style: p.style, Link: p.link})
	}
	return out
}

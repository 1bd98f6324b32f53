package markdown

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	"github.com/quire-sh/quire/render"
)

// A paragraph over the inline budget (a plainBlock) shows its text as it
// is: its lines joined by a space, blanks around the joins dropped,
// control characters made visible. None of that looks further back than
// the last blank, so the text such a paragraph shows grows by exactly
// what each chunk adds: a plain paragraph's flow takes in only the new
// text (the text up to its last character that is not a blank and ends
// a character), places the segments that text completes, and draws the
// line being filled as one span. A chunk then costs time proportional to
// the chunk, however long the paragraph or its line.

// startPlain sets pf, set up by start from openPlain, to go on from its
// cut (the start of the last word), which is where its text stands.
func (pf *paraFlow) startPlain() {
	pf.f.truncate(pf.kept)
	pf.f.owned = true
	pf.stable = pf.q
}

// addOwned appends text, which render.Sanitize leaves as it is, to f as
// a piece in style whose text is f.buf's own bytes: f.owned is set, so
// those bytes never change (see owned), and a line drawn from them takes
// a string of them without a copy. The only other writes to f.buf's
// storage are past its length, by a copy of f (display) that is gone
// before the next addOwned.
func (f *flow) addOwned(text []byte, style render.Style) {
	if len(text) == 0 {
		return
	}
	at := len(f.buf)
	if at+len(text) > cap(f.buf) {
		// Doubling (append grows long storage by a quarter), to at
		// least what compact keeps the flow under.
		f.buf = append(make([]byte, 0, max(2*cap(f.buf), at+len(text), 2*compactMin)), f.buf...)
	}
	f.buf = append(f.buf, text...)
	f.ps = append(f.ps, piece{text: unsafe.String(&f.buf[at], len(text)), style: style})
	f.starts = append(f.starts, at)
}

// ownedString returns f.buf[a:] as a string without a copy; f.owned must
// be set.
func (f *flow) ownedString(a int) string {
	if a >= len(f.buf) {
		return ""
	}
	return unsafe.String(&f.buf[a], len(f.buf)-a)
}

// advancePlain takes the text of a plain paragraph up to shown in.
func (pf *paraFlow) advancePlain(s *Stream, shown int, base render.Style) {
	f := pf.f
	e := plainEnd(s.src, pf.stable, shown)
	if e > pf.stable {
		pf.text = appendJoined(pf.text[:0], s.src[pf.stable:e])
		pf.kept -= f.compact()
		text := pf.text
		// A look at the bytes, not a copy of them.
		if render.NeedsSanitize(unsafe.String(unsafe.SliceData(text), len(text))) {
			text = []byte(render.Sanitize(string(text)))
		}
		f.addOwned(text, base)
		pf.kept = len(f.ps)
		pf.stable = e
		// The last segment's end is not known until more text comes.
		f.place(len(f.buf) - 1)
		f.placeLong()
	}
	pf.q, pf.lastEnd = pf.stable, shown
	// What follows the flow's text: blanks, which show as nothing while
	// they end the text, and an unfinished character, which shows as
	// its bytes do on their own (render.Sanitize) until it is whole.
	pf.partial = piece{}
	if bytes.ContainsFunc(s.src[e:shown], func(r rune) bool { return r != ' ' && r != '\t' && r != '\r' && r != '\n' }) {
		pf.text = appendJoined(pf.text[:0], s.src[e:shown])
		pf.partial = piece{text: cleanText(string(pf.text)), style: base}
	}
}

// plainEnd returns where the text of a plain paragraph that ends at
// shown stands for good, at or after from: before its trailing blanks
// and line breaks, and before a character whose last bytes have not
// come yet.
func plainEnd(src []byte, from, shown int) int {
	e := shown
	for i := e - 1; i >= max(from, e-utf8.UTFMax+1); i-- {
		if utf8.RuneStart(src[i]) {
			if !utf8.FullRune(src[i:e]) {
				e = i
			}
			break
		}
	}
	for e > from {
		switch src[e-1] {
		case ' ', '\t', '\r', '\n':
			e--
			continue
		}
		break
	}
	return e
}

// appendJoined appends to out the text that b adds to a plain paragraph
// (see plainText) whose text so far ends where b starts: blanks inside a
// line are kept (tabs as spaces), a line break with the blanks around it
// becomes one space. b ends with a character that is not a blank, and
// starts with one only where the text before it ends with one that is
// not (the paragraph's leading blanks are not in it).
func appendJoined(out, b []byte) []byte {
	for {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return appendTabsAsSpaces(out, b)
		}
		end := nl
		for end > 0 && (b[end-1] == ' ' || b[end-1] == '\t' || b[end-1] == '\r') {
			end--
		}
		out = append(appendTabsAsSpaces(out, b[:end]), ' ')
		b = b[nl+1:]
		p := 0
		for p < len(b) && (b[p] == ' ' || b[p] == '\t') {
			p++
		}
		b = b[p:]
	}
}

func appendTabsAsSpaces(out, b []byte) []byte {
	at := len(out)
	out = append(out, b...)
	if bytes.IndexByte(b, '\t') >= 0 {
		for k, c := range out[at:] {
			if c == '\t' {
				out[at+k] = ' '
			}
		}
	}
	return out
}

// plainLine returns the line a plain paragraph's flow is filling, with
// its last segment placed, when that segment fits on it: one span over
// the flow's text, as emit would make it. ok is false when the segment
// does not fit (or is part of a word being cut), or an unfinished
// character follows the text: then the flow places it as it does at the
// end of the text.
func (pf *paraFlow) plainLine(spare *[]render.Span) (l render.Line, ok bool) {
	f := pf.f
	if pf.partial.text != "" || f.inWord || f.segStart != f.placed || f.placed >= len(f.buf) || len(f.ps) == 0 {
		return l, false
	}
	tail := f.buf[f.placed:]
	w := bytesWidth(tail)
	start := f.placed
	switch {
	case f.hasLine && f.lineW > 0:
		if f.lineW+f.spaceW+w > f.width {
			return l, false
		}
		start = f.lineStart
	case w > f.width:
		return l, false
	}
	*spare = append(*spare, render.Span{Text: f.ownedString(start), Style: f.ps[len(f.ps)-1].style})
	n := len(*spare)
	return render.Line{Spans: (*spare)[n-1 : n : n], Copy: render.Copy{Join: f.join}}, true
}

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
	if len(ps) == 0 {
		return nil
	}
	width = max(width, 1)
	w := wrapper{ps: ps, width: width}
	var b strings.Builder
	w.starts = make([]int, len(ps))
	for i, p := range ps {
		w.starts[i] = b.Len()
		b.WriteString(p.text)
	}
	w.buf = b.String()
	w.run()
	return w.out
}

type cluster struct{ pos, end, width int }

type wrapper struct {
	ps     []piece
	starts []int
	buf    string
	width  int
	out    [][]render.Span

	lineStart, lineEnd int // bytes of the current line's visible content
	lineW              int // its width
	hasLine            bool
	spaceW             int // width of spaces after lineEnd not yet placed
	seg                []cluster
}

func (w *wrapper) run() {
	state := -1
	rest := w.buf
	pos := 0
	keepIdx := 0
	for len(rest) > 0 {
		var c string
		var bounds int
		c, rest, bounds, state = uniseg.StepString(rest, state)
		end := pos + len(c)
		cw := bounds >> uniseg.ShiftWidth
		if c == "\n" {
			w.flushSegment()
			w.emit()
			w.hasLine = true // the next line exists even if empty
			w.lineStart, w.lineEnd, w.lineW, w.spaceW = end, end, 0, 0
			pos = end
			continue
		}
		w.seg = append(w.seg, cluster{pos, end, cw})
		lb := bounds & uniseg.MaskLine
		if len(rest) == 0 || lb == uniseg.LineMustBreak || lb == uniseg.LineCanBreak {
			for keepIdx < len(w.ps) && w.starts[keepIdx]+len(w.ps[keepIdx].text) <= end {
				keepIdx++
			}
			inKeep := keepIdx < len(w.ps) && w.ps[keepIdx].keep && w.starts[keepIdx] < end
			if len(rest) == 0 || !inKeep {
				w.flushSegment()
			}
		}
		pos = end
	}
	w.flushSegment()
	if w.hasLine {
		w.emit()
	}
}

// flushSegment places the pending segment (a word and its trailing
// spaces) on the current line or a new one.
func (w *wrapper) flushSegment() {
	if len(w.seg) == 0 {
		return
	}
	seg := w.seg
	w.seg = w.seg[:0]
	// Split off trailing spaces.
	n := len(seg)
	spaces := 0
	for n > 0 && w.buf[seg[n-1].pos:seg[n-1].end] == " " {
		spaces += seg[n-1].width
		n--
	}
	word := seg[:n]
	ww := 0
	for _, c := range word {
		ww += c.width
	}
	if len(word) == 0 {
		if w.hasLine && w.lineW > 0 {
			w.spaceW += spaces
		}
		if !w.hasLine {
			w.hasLine = true
			w.lineStart, w.lineEnd = seg[n].end, seg[n].end
		}
		return
	}
	switch {
	case !w.hasLine || w.lineW == 0:
		w.hasLine = true
		w.lineStart, w.lineEnd, w.lineW = word[0].pos, word[0].pos, 0
		w.placeWord(word, ww)
	case w.lineW+w.spaceW+ww <= w.width:
		w.lineEnd = word[len(word)-1].end
		w.lineW += w.spaceW + ww
	default:
		w.emit()
		w.hasLine = true
		w.lineStart, w.lineEnd, w.lineW = word[0].pos, word[0].pos, 0
		w.placeWord(word, ww)
	}
	w.spaceW = spaces
}

// placeWord puts a word at the start of an empty line, cutting it at
// grapheme boundaries when it is wider than the line.
func (w *wrapper) placeWord(word []cluster, ww int) {
	if ww <= w.width {
		w.lineEnd = word[len(word)-1].end
		w.lineW = ww
		return
	}
	for _, c := range word {
		if w.lineW > 0 && w.lineW+c.width > w.width {
			w.emit()
			w.hasLine = true
			w.lineStart, w.lineEnd, w.lineW = c.pos, c.pos, 0
		}
		w.lineEnd = c.end
		w.lineW += c.width
	}
}

// emit closes the current line: its bytes become spans split at piece
// boundaries.
func (w *wrapper) emit() {
	w.out = append(w.out, w.spans(w.lineStart, w.lineEnd))
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

package scrollback

import "github.com/quire-sh/quire/render"

// Draw lays out the viewport and paints it into buf with its top-left
// corner at (x, y), over Width()×Height() cells; it returns the frame it
// painted (for the status line and mouse hit-testing).
func (t *Transcript) Draw(buf *render.Buffer, x, y int) *Frame {
	f := t.Frame()
	PaintFrame(buf, x, y, t.width, f, &t.theme, &t.pg.scratch.paint)
	return f
}

// PaintScratch is reusable storage for PaintFrame; the zero value is ready.
// It also remembers the cells each row was painted as, with the line that
// made them: a row whose line was painted last frame, on the same row or
// on one nearby (the transcript scrolled by a line or two as an answer
// streams), is copied, not drawn cluster by cluster again.
type PaintScratch struct {
	line      render.Line
	prev, cur []paintedRow
}

// paintedRow is one row as PaintFrame painted it: the spans it drew from
// column x over w columns of a buffer bufW wide (whose edge may clip
// them), and the cells that made.
type paintedRow struct {
	x, w  int
	bufW  int
	spans []render.Span
	cells []render.Cell
	taken bool // its cells moved to a row of this frame
}

// paintReach is how many rows a line may have moved since the last frame
// and still be found.
const paintReach = 3

// same reports whether painting l from column x over w columns makes the
// cells p holds: the drawing is a function of these alone.
func (p *paintedRow) same(x, w, bufW int, l render.Line) bool {
	if p.taken || p.x != x || p.w != w || p.bufW != bufW || len(p.spans) != len(l.Spans) || len(p.cells) == 0 {
		return false
	}
	for i := range p.spans {
		if p.spans[i] != l.Spans[i] {
			return false
		}
	}
	return true
}

// PaintFrame paints f into the w-column region of buf at (x, y): every
// row of the frame, blanked past its text, with search matches restyled
// in the theme's Match and CurrentMatch styles and the margin row above
// the focused block drawn as a rule. It is a pure function of its
// arguments; scratch (may be nil) avoids allocating per frame and
// drawing again a line it painted last frame, with the same result.
func PaintFrame(buf *render.Buffer, x, y, w int, f *Frame, th *Theme, scratch *PaintScratch) {
	if scratch == nil {
		scratch = &PaintScratch{}
	}
	scratch.begin(len(f.Lines))
	m := 0
	for r := range f.Lines {
		line := f.Lines[r]
		first := m
		for m < len(f.Matches) && f.Matches[m].Row == r {
			m++
		}
		if m > first {
			highlight(&scratch.line, line, f.Matches[first:m], th)
			line = scratch.line
		}
		if r == f.focusMargin && r >= f.Sticky {
			line = render.Line{Spans: []render.Span{{Text: rule(w), Style: th.Muted}}}
		}
		scratch.paint(buf, x, y+r, w, r, line)
	}
}

// begin starts a frame of n rows: the rows painted last frame are the
// ones to copy from.
func (s *PaintScratch) begin(n int) {
	s.prev, s.cur = s.cur, s.prev
	for len(s.cur) < n {
		s.cur = append(s.cur, paintedRow{})
	}
	s.cur = s.cur[:n]
	for i := range s.prev {
		s.prev[i].taken = false
	}
}

// paint draws line at (x, y), the frame's row r, blanked to w columns,
// copying the cells of a row the last frame painted from the same line.
func (s *PaintScratch) paint(buf *render.Buffer, x, y, w, r int, line render.Line) {
	bufW, _ := buf.Size()
	d := &s.cur[r]
	for k := max(r-paintReach, 0); k <= r+paintReach && k < len(s.prev); k++ {
		if p := &s.prev[k]; p.same(x, w, bufW, line) {
			buf.SetCells(x, y, p.cells)
			// The row takes the line's memory; the old row keeps the
			// row's, marked taken, so no other row copies from it.
			*d, *p = *p, *d
			p.taken = true
			return
		}
	}
	n := clippedSetLine(buf, x, y, w, line)
	if n < w {
		buf.Fill(x+n, y, w-n, 1, render.Style{})
	}
	d.x, d.w, d.bufW, d.taken = x, w, bufW, false
	d.spans = append(d.spans[:0], line.Spans...)
	d.cells = buf.AppendCells(d.cells[:0], x, y, w)
}

// clippedSetLine draws l at (x, y) but no further right than x+w.
func clippedSetLine(buf *render.Buffer, x, y, w int, l render.Line) int {
	n := 0
	for i := range l.Spans {
		if n >= w {
			break
		}
		sp := &l.Spans[i]
		text := sp.Text
		// A string is never wider than its length in bytes, so only a
		// span that might reach the edge is measured.
		if n+len(text) > w && n+render.StringWidth(text) > w {
			text = text[:columnToByte(text, w-n)]
		}
		n += buf.SetString(x+n, y, text, sp.Style, sp.Link)
	}
	return n
}

func rule(w int) string {
	b := make([]byte, 0, w*3)
	for range w {
		b = append(b, "─"...)
	}
	return string(b)
}

// highlight rebuilds l into dst with the cells of each match restyled.
func highlight(dst *render.Line, l render.Line, ms []Match, th *Theme) {
	dst.Spans = dst.Spans[:0]
	col := 0
	mi := 0
	for _, sp := range l.Spans {
		text := sp.Text
		for text != "" {
			// Skip matches that end before this point.
			for mi < len(ms) && ms[mi].Col+ms[mi].Width <= col {
				mi++
			}
			sw := render.StringWidth(text)
			if mi == len(ms) || ms[mi].Col >= col+sw {
				dst.Spans = append(dst.Spans, render.Span{Text: text, Style: sp.Style, Link: sp.Link})
				col += sw
				break
			}
			mt := ms[mi]
			if mt.Col > col { // plain text before the match
				cut := columnToByte(text, mt.Col-col)
				dst.Spans = append(dst.Spans, render.Span{Text: text[:cut], Style: sp.Style, Link: sp.Link})
				col += render.StringWidth(text[:cut])
				text = text[cut:]
				continue
			}
			cut := columnToByte(text, mt.Col+mt.Width-col)
			if cut == 0 {
				cut = len(text)
			}
			over := th.Match
			if mt.Current {
				over = th.CurrentMatch
			}
			dst.Spans = append(dst.Spans, render.Span{Text: text[:cut], Style: overlay(sp.Style, over), Link: sp.Link})
			col += render.StringWidth(text[:cut])
			text = text[cut:]
		}
	}
}

// overlay puts a highlight over a style: its attributes add, its colours
// replace where set.
func overlay(base, over render.Style) render.Style {
	base.Attrs |= over.Attrs
	if over.Fg != render.DefaultColor {
		base.Fg = over.Fg
	}
	if over.Bg != render.DefaultColor {
		base.Bg = over.Bg
	}
	return base
}

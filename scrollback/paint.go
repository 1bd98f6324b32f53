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
type PaintScratch struct {
	line render.Line
}

// PaintFrame paints f into the w-column region of buf at (x, y): every
// row of the frame, blanked past its text, with search matches restyled
// in the theme's Match and CurrentMatch styles and the margin row above
// the focused block drawn as a rule. It is a pure function of its
// arguments; scratch (may be nil) avoids allocating per frame.
func PaintFrame(buf *render.Buffer, x, y, w int, f *Frame, th *Theme, scratch *PaintScratch) {
	if scratch == nil {
		scratch = &PaintScratch{}
	}
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
		n := clippedSetLine(buf, x, y+r, w, line)
		if n < w {
			buf.Fill(x+n, y+r, w-n, 1, render.Style{})
		}
	}
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

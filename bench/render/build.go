package renderbench

import (
	"strings"

	"github.com/rivo/uniseg"

	"github.com/quire-sh/quire/render"
)

// builder accumulates a workload's style, link and row tables while its
// frames are generated.
type builder struct {
	w      *Workload
	styles map[render.Style]uint16
	links  map[string]uint16
}

func newBuilder(name string, mode Mode, note string) *builder {
	b := &builder{
		w:      &Workload{Name: name, Mode: mode, Note: note},
		styles: map[render.Style]uint16{},
		links:  map[string]uint16{},
	}
	b.style(render.Style{})
	b.link("")
	return b
}

func (b *builder) style(s render.Style) uint16 {
	if id, ok := b.styles[s]; ok {
		return id
	}
	id := uint16(len(b.w.Styles))
	b.styles[s] = id
	b.w.Styles = append(b.w.Styles, s)
	return id
}

func (b *builder) link(url string) uint16 {
	if id, ok := b.links[url]; ok {
		return id
	}
	id := uint16(len(b.w.Links))
	b.links[url] = id
	b.w.Links = append(b.w.Links, url)
	return id
}

// row lays spans out into exactly width cells, the way a producer that
// measures with render.StringWidth would: one cell per grapheme cluster,
// two for a wide one, clipped at the right edge (a wide cluster that does
// not fit becomes a blank), and the rest padded with blanks in pad.
func (b *builder) row(width int, pad render.Style, spans ...render.Span) *Row {
	cells := make([]Cell, 0, width)
	for _, sp := range spans {
		st, ln := b.style(sp.Style), b.link(sp.Link)
		text := render.Sanitize(sp.Text)
		state := -1
		for len(text) > 0 && len(cells) < width {
			var g string
			var gw int
			g, text, gw, state = uniseg.FirstGraphemeClusterInString(text, state)
			gw = min(max(gw, 1), 2)
			if len(cells)+gw > width {
				cells = append(cells, Cell{Grapheme: " ", Width: 1, Style: st})
				break
			}
			cells = append(cells, Cell{Grapheme: g, Width: uint8(gw), Style: st, Link: ln})
			if gw == 2 {
				cells = append(cells, Cell{Style: st, Link: ln})
			}
		}
	}
	padID := b.style(pad)
	for len(cells) < width {
		cells = append(cells, Cell{Grapheme: " ", Width: 1, Style: padID})
	}
	r := &Row{ID: len(b.w.Rows), Cells: cells, Line: b.line(cells)}
	b.w.Rows = append(b.w.Rows, r)
	return r
}

// line is the span form of cells: one span per run of equal style and link.
func (b *builder) line(cells []Cell) render.Line {
	var spans []render.Span
	var text strings.Builder
	flush := func(c Cell) {
		if text.Len() > 0 {
			spans = append(spans, render.Span{Text: text.String(), Style: b.w.Styles[c.Style], Link: b.w.Links[c.Link]})
			text.Reset()
		}
	}
	end := len(cells)
	for end > 0 && cells[end-1] == (Cell{Grapheme: " ", Width: 1}) {
		end--
	}
	var run Cell
	for i, c := range cells[:end] {
		if c.Width == 0 {
			continue
		}
		if i > 0 && (c.Style != run.Style || c.Link != run.Link) {
			flush(run)
		}
		run = c
		text.WriteString(c.Grapheme)
	}
	flush(run)
	return render.Line{Spans: spans}
}

// blank is a row of default blanks.
func (b *builder) blank(width int) *Row { return b.row(width, render.Style{}) }

func (b *builder) frame(width, height int, rows []*Row) Frame {
	return Frame{Width: width, Height: height, Rows: rows}
}

func (b *builder) done() *Workload { return b.w }

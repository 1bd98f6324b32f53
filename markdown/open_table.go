package markdown

import (
	"bytes"
	"slices"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/quire-sh/quire/render"
)

// openTable continues a top-level table row by row. A new row is parsed
// behind the table's header and delimiter lines alone: whether a line is
// a row, and what its cells hold, depends on nothing else (goldmark makes
// every line of the table's paragraph after the delimiter row a row, and
// parses each cell on its own).
//
// The columns keep their widths until a row widens one. Then the whole
// table is laid out again, but at most once per doubling of its rows
// once it has more than relayoutFree of them (so O(log n) times in all);
// in between, new rows are drawn in the old widths, a cell that no longer
// fits wrapping inside its column (doc.go: a frame may differ so).
type openTable struct {
	ctx     []byte // header and delimiter lines, newlines included
	rowsEnd int    // source offset after the last complete row
	g       *grid
	records bool
	widths  []int           // widths the lines are drawn with (grid layout)
	laid    int             // body rows at the last full layout
	top     int             // index in s.lines of the table's first line
	fixed   int             // s.lines[:fixed] stay: up to the last complete row
	pending map[string]bool // labels cells looked up and found nowhere
}

// relayoutFree is how many body rows a table may have and still be laid
// out again every time its widths change.
const relayoutFree = 64

func newOpenTable(s *Stream, t *tailRender, tb *east.Table, top int, blocks []ast.Node) openBlock {
	header := tb.FirstChild()
	if header == nil || header.Kind() != east.KindTableHeader || header.Pos() < 0 {
		return nil
	}
	hls := lineStart(t.buf, header.Pos())
	dls := lineEndAfter(t.buf, hls)
	if !lineComplete(t.buf, hls) || !lineComplete(t.buf, dls) {
		return nil
	}
	end := lineEndAfter(t.buf, dls)
	o := &openTable{ctx: clone(t.buf[hls:end]), g: newGrid(tb), top: top, pending: map[string]bool{}}
	for _, b := range blocks { // the table, and the text above it
		o.note(s, t.pc.labels(b))
	}
	o.g.add(t.r.tableCells(header))
	rowsEnd := end
	for row := header.NextSibling(); row != nil; row = row.NextSibling() {
		ls := lineStart(t.buf, row.Pos())
		if !lineComplete(t.buf, ls) {
			break
		}
		o.g.add(t.r.tableCells(row))
		rowsEnd = lineEndAfter(t.buf, ls)
	}
	o.rowsEnd = absStart(t, rowsEnd)
	o.records = o.g.records(s.opts.Width)
	o.laid = len(o.g.rows) - 1
	o.fixed = -1 // the first extend lays out the whole table
	if !o.extend(s, s.shown) {
		return nil
	}
	return o
}

// drawFixed appends the table's lines up to its last complete row.
func (o *openTable) drawFixed(r *renderer, out []render.Line, width int) []render.Line {
	g := o.g
	if o.records {
		for i, row := range g.rows[1:] {
			out = r.recordRow(out, g, row, i > 0, width)
		}
		return out
	}
	out = append(out, r.gridRule(g, o.widths, width, "┌", "┬", "┐"))
	for i, row := range g.rows {
		out = o.drawRow(r, out, i, row, width)
	}
	return out
}

// drawRow appends row i (0 is the header) as the whole table draws it.
func (o *openTable) drawRow(r *renderer, out []render.Line, i int, row []tableCell, width int) []render.Line {
	if o.records {
		if i == 0 {
			return out
		}
		return r.recordRow(out, o.g, row, i > 1, width)
	}
	if i == 1 && o.g.header {
		out = append(out, r.gridRule(o.g, o.widths, width, "├", "┼", "┤"))
	}
	return r.gridRow(out, o.g, row, o.widths, width)
}

func (o *openTable) extend(s *Stream, shown int) bool {
	width := s.opts.Width
	start := o.rowsEnd
	text := s.src[start:shown]
	// A blank line ends the table: its rows before it are laid out, and
	// the table freezes with the blank line.
	closed := -1
	if b := blankLineAt(text); b >= 0 {
		closed = start + b + bytes.IndexByte(text[b:], '\n') + 1
		text = text[:b]
	}
	buf := make([]byte, 0, len(o.ctx)+len(text))
	buf = capNesting(append(append(buf, o.ctx...), text...))
	abs := func(p int) int { return start + p - len(o.ctx) }
	pc := &s.ctx.open
	doc := pc.parse(s.parser, buf, s.state.refs)
	tb, ok := doc.FirstChild().(*east.Table)
	if !ok || !slices.Equal(tb.Alignments, o.g.align) || tb.FirstChild() == nil {
		return false // no longer a table: a setext underline, say
	}
	r := docRenderer(buf, &s.opts, &s.opts.Theme, s.lexers)
	after, ok := trailing(r, doc, tb, width)
	if !ok || closed >= 0 && after != nil {
		return false
	}
	held := -1
	var complete []ast.Node
	var partial []tableCell
	for row := tb.FirstChild().NextSibling(); row != nil; row = row.NextSibling() {
		ls := lineStart(buf, row.Pos())
		switch {
		case lineComplete(buf, ls):
			complete = append(complete, row)
		case heldRow(buf, ls):
			held = abs(ls)
		default:
			partial = r.tableCells(row)
		}
	}
	for _, row := range complete {
		o.g.add(r.tableCells(row))
		o.rowsEnd = abs(lineEndAfter(buf, lineStart(buf, row.Pos())))
	}
	relayout := o.fixed < 0
	if closed >= 0 && !o.records && !slices.Equal(o.fittedWith(nil, width), o.widths) {
		o.laid = 0 // a table that ends is laid out in its final widths
	}
	if !o.records {
		// An unfinished row is drawn as the full render draws it: in
		// widths that count it.
		want := o.fittedWith(partial, width)
		if !slices.Equal(want, o.widths) {
			rows := len(o.g.rows) - 1
			if relayout || rows <= relayoutFree || rows >= 2*o.laid {
				o.widths, o.laid, relayout = want, rows, true
			}
		}
		s.approx = !slices.Equal(want, o.widths)
	}
	if relayout {
		s.lines = o.drawFixed(r, s.lines[:o.top], width)
	} else {
		s.lines = s.lines[:o.fixed]
		for i := len(o.g.rows) - len(complete); i < len(o.g.rows); i++ {
			s.lines = o.drawRow(r, s.lines, i, o.g.rows[i], width)
		}
	}
	o.fixed = len(s.lines)
	if partial != nil {
		s.lines = o.drawRow(r, s.lines, len(o.g.rows), partial, width)
	}
	switch {
	case !o.records:
		s.lines = append(s.lines, r.gridRule(o.g, o.widths, width, "└", "┴", "┘"))
	case len(o.g.rows) == 1 && partial == nil:
		// A header and no row yet: records show the header alone.
		for _, h := range o.g.rows[0] {
			s.lines = append(s.lines, wrapLines(h.ps, width)...)
		}
	}
	s.lines = append(s.lines, after...)
	s.held = held
	o.note(s, pc.labels(tb))
	if closed >= 0 {
		s.approx = false
		s.freezeOpen(closed, false, o.pending, nil)
		return false // the rest is laid out anew
	}
	return true
}

// note adds the labels in keys that nothing defines to o.pending.
func (o *openTable) note(s *Stream, keys []string) {
	for _, k := range keys {
		if !s.state.refKeys[k] {
			o.pending[k] = true
		}
	}
}

// blankLineAt returns where the first complete blank line of text
// starts, or -1.
func blankLineAt(text []byte) int {
	for p := 0; p < len(text); {
		nl := bytes.IndexByte(text[p:], '\n')
		if nl < 0 {
			return -1
		}
		if len(bytes.Trim(text[p:p+nl], " \t\r")) == 0 {
			return p
		}
		p += nl + 1
	}
	return -1
}

// heldRow reports whether the unfinished line at ls is a table row a
// stream holds back (see ShownPrefix): it starts with '|'.
func heldRow(buf []byte, ls int) bool {
	line := bytes.TrimLeft(buf[ls:], " ")
	return len(buf)-ls-len(line) <= 3 && len(line) > 0 && line[0] == '|'
}

// fittedWith is the grid's fitted widths with an extra row counted.
func (o *openTable) fittedWith(extra []tableCell, width int) []int {
	if extra == nil {
		return o.g.fitted(width)
	}
	g := *o.g
	g.widths = slices.Clone(g.widths)
	g.mins = slices.Clone(g.mins)
	g.rows = nil
	g.add(extra)
	g.ncol = o.g.ncol
	return g.fitted(width)
}

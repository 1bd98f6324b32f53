package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/quire-sh/quire/render"
)

// A table whose columns cannot all get at least minColumn columns is
// shown as records ("header: value" per cell) instead of a grid.
const minColumn = 6

type tableCell struct {
	ps    []piece
	width int // natural width on one line
	minW  int // widest unbreakable word
}

func (r *renderer) table(n *east.Table, width int) []render.Line {
	g := newGrid(n)
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		if r.dropLastLine && row == n.LastChild() && row != n.FirstChild() {
			break // an unfinished row held back by a stream
		}
		g.add(r.tableCells(row))
	}
	if g.ncol == 0 || len(g.rows) == 0 {
		return nil
	}
	return r.gridLines(g, width)
}

// grid is a table's rows as cells, with what its layout needs: the
// columns' natural widths and narrowest widths over all rows so far.
type grid struct {
	align  []east.Alignment
	header bool // rows[0] is the header
	ncol   int
	rows   [][]tableCell
	widths []int // natural width of each column (at least 1)
	mins   []int // widest unbreakable word of each column, capped
}

func newGrid(n *east.Table) *grid {
	return &grid{align: n.Alignments, header: row0IsHeader(n)}
}

// add appends a row and widens the columns it needs.
func (g *grid) add(cells []tableCell) {
	g.rows = append(g.rows, cells)
	for len(g.widths) < len(cells) {
		g.widths = append(g.widths, 0)
		g.mins = append(g.mins, 0)
	}
	g.ncol = max(g.ncol, len(cells))
	for i, c := range cells {
		g.widths[i] = max(g.widths[i], c.width, 1)
		g.mins[i] = max(g.mins[i], min(c.minW, minColumn*2))
	}
}

// records reports whether the table is too wide to draw as a grid at
// width (see minColumn).
func (g *grid) records(width int) bool {
	return width-3*g.ncol-1 < g.ncol*minColumn
}

// fitted returns the column widths of the grid drawn at width.
func (g *grid) fitted(width int) []int {
	widths := append([]int(nil), g.widths...)
	fitColumns(widths, g.mins, width-3*g.ncol-1) // "│ a │ b │": 3 per column plus 1
	return widths
}

// tableCells lays out one row's cells.
func (r *renderer) tableCells(row ast.Node) []tableCell {
	var cells []tableCell
	for c := row.FirstChild(); c != nil; c = c.NextSibling() {
		base := r.theme.Text
		if row.Kind() == east.KindTableHeader {
			base = mergeStyle(base, r.theme.TableHead)
		}
		ps := r.inlines(c, base)
		w, mw := measure(ps)
		cells = append(cells, tableCell{ps: ps, width: w, minW: mw})
	}
	return cells
}

// gridLines draws the whole table at width: a grid, or records when it
// is too wide.
func (r *renderer) gridLines(g *grid, width int) []render.Line {
	if g.records(width) {
		return r.tableRecords(g, width)
	}
	widths := g.fitted(width)
	out := []render.Line{r.gridRule(g, widths, width, "┌", "┬", "┐")}
	for ri, row := range g.rows {
		if ri == 1 && g.header {
			out = append(out, r.gridRule(g, widths, width, "├", "┼", "┤"))
		}
		out = r.gridRow(out, g, row, widths, width)
	}
	return append(out, r.gridRule(g, widths, width, "└", "┴", "┘"))
}

// gridRule is a horizontal line of the frame: the top ("┌"), the rule
// under the header ("├") or the bottom ("└").
func (r *renderer) gridRule(g *grid, widths []int, width int, left, m, rr string) render.Line {
	var b strings.Builder
	b.WriteString(left)
	for i, w := range widths {
		if i > 0 {
			b.WriteString(m)
		}
		b.WriteString(strings.Repeat("─", w+2))
	}
	b.WriteString(rr)
	l := render.Plain(b.String(), r.theme.TableFrame)
	// A copy reads as a markdown table: the frame's top and bottom are
	// left out and the rule under the header is the delimiter row.
	l.Copy = render.Copy{Join: render.JoinNone, Skip: width}
	if left == "├" {
		l.Copy = render.Copy{Skip: width, Lead: delimiterRow(g.align, g.ncol)}
	}
	return l
}

// gridRow appends the lines of one row drawn in the given column widths.
func (r *renderer) gridRow(out []render.Line, g *grid, row []tableCell, widths []int, width int) []render.Line {
	frame := r.theme.TableFrame
	ncol := g.ncol
	cellLines := make([][][]render.Span, ncol)
	height := 1
	for i := range ncol {
		if i < len(row) {
			cellLines[i] = wrap(row[i].ps, widths[i])
		}
		height = max(height, len(cellLines[i]))
	}
	for li := range height {
		spans := []render.Span{{Text: "│", Style: frame}}
		for i := range ncol {
			var content []render.Span
			if li < len(cellLines[i]) {
				content = cellLines[i][li]
			}
			pad := widths[i] - spansWidth(content)
			a := east.AlignNone
			if i < len(g.align) {
				a = g.align[i]
			}
			left := 0
			switch a {
			case east.AlignRight:
				left = pad
			case east.AlignCenter:
				left = pad / 2
			}
			spans = append(spans, render.Span{Text: blanks(1 + left)})
			spans = append(spans, content...)
			spans = append(spans, render.Span{Text: blanks(1 + pad - left)}, render.Span{Text: "│", Style: frame})
		}
		// The row's first line copies as the whole row, its other lines
		// as nothing.
		cp := render.Copy{Join: render.JoinNone, Skip: width}
		if li == 0 {
			cp = render.Copy{Skip: width, Lead: markdownRow(row, ncol)}
		}
		out = append(out, render.Line{Spans: spans, Copy: cp})
	}
	return out
}

// markdownRow is a table row as a line of a markdown table.
func markdownRow(row []tableCell, ncol int) string {
	var b strings.Builder
	b.WriteString("|")
	for i := range ncol {
		b.WriteByte(' ')
		if i < len(row) {
			for _, p := range row[i].ps {
				if !p.hard {
					b.WriteString(strings.ReplaceAll(p.text, "|", `\|`))
				}
			}
		}
		b.WriteString(" |")
	}
	return b.String()
}

// delimiterRow is the markdown row under a table's header, with the
// columns' alignments.
func delimiterRow(align []east.Alignment, ncol int) string {
	var b strings.Builder
	b.WriteString("|")
	for i := range ncol {
		a := east.AlignNone
		if i < len(align) {
			a = align[i]
		}
		switch a {
		case east.AlignLeft:
			b.WriteString(" :-- |")
		case east.AlignRight:
			b.WriteString(" --: |")
		case east.AlignCenter:
			b.WriteString(" :-: |")
		default:
			b.WriteString(" --- |")
		}
	}
	return b.String()
}

const spaces = "                                                                                                                                "

// blanks returns n spaces, without allocating for the common widths.
func blanks(n int) string {
	if n <= len(spaces) {
		return spaces[:max(n, 0)]
	}
	return strings.Repeat(" ", n)
}

func row0IsHeader(n *east.Table) bool {
	return n.FirstChild() != nil && n.FirstChild().Kind() == east.KindTableHeader
}

// fitColumns shrinks the widest columns until the total fits avail,
// never below a column's min (or minColumn).
func fitColumns(widths, mins []int, avail int) {
	total := 0
	for _, w := range widths {
		total += w
	}
	for total > avail {
		// Shrink the widest column that can still shrink.
		best := -1
		for i, w := range widths {
			if w > max(mins[i], minColumn) && (best < 0 || w > widths[best]) {
				best = i
			}
		}
		if best < 0 {
			// Every column is at its floor: cut the widest to minColumn.
			for i := range widths {
				if widths[i] > minColumn && (best < 0 || widths[i] > widths[best]) {
					best = i
				}
			}
			if best < 0 {
				return
			}
			widths[best]--
			total--
			continue
		}
		second := 0
		for i, w := range widths {
			if i != best {
				second = max(second, w)
			}
		}
		step := max(1, min(total-avail, widths[best]-max(second, mins[best], minColumn)))
		widths[best] -= step
		total -= step
	}
}

// tableRecords is the fallback for tables too wide to draw: each row
// becomes a block of "header: value" lines.
func (r *renderer) tableRecords(g *grid, width int) []render.Line {
	rows := g.rows
	if g.header {
		rows = rows[1:]
	}
	var out []render.Line
	for ri, row := range rows {
		out = r.recordRow(out, g, row, ri > 0, width)
	}
	if len(rows) == 0 && g.header {
		for _, h := range g.rows[0] {
			out = append(out, wrapLines(h.ps, width)...)
		}
	}
	return out
}

// recordRow appends one body row as records, after a dashed rule when it
// is not the first.
func (r *renderer) recordRow(out []render.Line, g *grid, row []tableCell, rule bool, width int) []render.Line {
	var heads []tableCell
	if g.header {
		heads = g.rows[0]
	}
	if rule {
		out = append(out, render.Plain(strings.Repeat("┄", max(min(width, 40), 1)), r.theme.TableFrame))
	}
	for i, c := range row {
		var ps []piece
		if i < len(heads) && len(heads[i].ps) > 0 {
			ps = append(ps, heads[i].ps...)
			ps = append(ps, piece{text: ": ", style: r.theme.TableHead})
		}
		ps = append(ps, c.ps...)
		out = append(out, wrapLines(ps, width)...)
	}
	return out
}

// measure returns the width of pieces on one line and their widest word.
func measure(ps []piece) (total, widest int) {
	for _, p := range ps {
		w := textWidth(p.text)
		total += w
		if p.keep {
			widest = max(widest, w)
			continue
		}
		start := 0
		for i := 0; i <= len(p.text); i++ {
			if i == len(p.text) || p.text[i] == ' ' {
				if i > start {
					widest = max(widest, textWidth(p.text[start:i]))
				}
				start = i + 1
			}
		}
	}
	return total, widest
}

func spansWidth(ss []render.Span) int {
	w := 0
	for _, s := range ss {
		w += textWidth(s.Text)
	}
	return w
}

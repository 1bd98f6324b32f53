package markdown

import (
	"strings"

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
	var rows [][]tableCell
	ncol := 0
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		if r.dropLastLine && row == n.LastChild() && row != n.FirstChild() {
			break // an unfinished row held back by a stream
		}
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
		ncol = max(ncol, len(cells))
		rows = append(rows, cells)
	}
	if ncol == 0 {
		return nil
	}
	widths := make([]int, ncol)
	mins := make([]int, ncol)
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], c.width, 1)
			mins[i] = max(mins[i], min(c.minW, minColumn*2))
		}
	}
	// Grid: "│ a │ b │" costs 3 columns per column plus 1.
	avail := width - 3*ncol - 1
	if avail < ncol*minColumn {
		return r.tableRecords(n, rows, width)
	}
	fitColumns(widths, mins, avail)
	align := n.Alignments
	frame := r.theme.TableFrame
	rule := func(left, m, rr string) render.Line {
		var b strings.Builder
		b.WriteString(left)
		for i, w := range widths {
			if i > 0 {
				b.WriteString(m)
			}
			b.WriteString(strings.Repeat("─", w+2))
		}
		b.WriteString(rr)
		l := render.Plain(b.String(), frame)
		// A copy reads as a markdown table: the frame's top and bottom
		// are left out and the rule under the header is the delimiter row.
		l.Copy = render.Copy{Join: render.JoinNone, Skip: width}
		if left == "├" {
			l.Copy = render.Copy{Skip: width, Lead: delimiterRow(align, ncol)}
		}
		return l
	}
	out := []render.Line{rule("┌", "┬", "┐")}
	for ri, row := range rows {
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
				if i < len(align) {
					a = align[i]
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
			// The row's first line copies as the whole row, its other
			// lines as nothing.
			cp := render.Copy{Join: render.JoinNone, Skip: width}
			if li == 0 {
				cp = render.Copy{Skip: width, Lead: markdownRow(row, ncol)}
			}
			out = append(out, render.Line{Spans: spans, Copy: cp})
		}
		if ri == 0 && row0IsHeader(n) && len(rows) > 1 {
			out = append(out, rule("├", "┼", "┤"))
		}
	}
	return append(out, rule("└", "┴", "┘"))
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
func (r *renderer) tableRecords(n *east.Table, rows [][]tableCell, width int) []render.Line {
	var heads []tableCell
	if row0IsHeader(n) {
		heads, rows = rows[0], rows[1:]
	}
	frame := r.theme.TableFrame
	var out []render.Line
	for ri, row := range rows {
		if ri > 0 {
			out = append(out, render.Plain(strings.Repeat("┄", max(min(width, 40), 1)), frame))
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
	}
	if len(rows) == 0 && len(heads) > 0 {
		for _, h := range heads {
			out = append(out, wrapLines(h.ps, width)...)
		}
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

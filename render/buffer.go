package render

import (
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Buffer is a width×height grid of cells that a frame is drawn into.
// Drawing never fails: text outside the grid is clipped, and overwriting
// either half of a wide cluster blanks the other half.
type Buffer struct {
	width, height int
	cells         []Cell
}

// NewBuffer returns a blank buffer. Negative sizes count as 0.
func NewBuffer(width, height int) *Buffer {
	b := &Buffer{}
	b.Resize(width, height)
	return b
}

// Size returns the buffer's width and height in cells.
func (b *Buffer) Size() (width, height int) { return b.width, b.height }

// Resize changes the size, keeping the cells that still fit. A wide
// cluster cut in half by the new right edge becomes a blank.
func (b *Buffer) Resize(width, height int) {
	width, height = max(width, 0), max(height, 0)
	if width == b.width && height == b.height {
		return
	}
	n := width * height
	rows, cols := min(height, b.height), min(width, b.width)
	if cap(b.cells) < n {
		// A buffer that grows row by row (the inline view's region as a
		// stream fills it) doubles its memory rather than reallocating
		// it for every row.
		cells := make([]Cell, n, max(n, 2*cap(b.cells)))
		for y := range rows {
			copy(cells[y*width:y*width+cols], b.cells[y*b.width:y*b.width+cols])
		}
		b.cells = cells
	} else {
		// Reuse the memory (a terminal resized back and forth allocates
		// nothing), moving rows in the order that never overwrites one
		// not yet moved.
		all := b.cells[:cap(b.cells)]
		if width <= b.width {
			for y := range rows {
				copy(all[y*width:y*width+cols], all[y*b.width:y*b.width+cols])
			}
		} else {
			for y := rows - 1; y >= 0; y-- {
				copy(all[y*width:y*width+cols], all[y*b.width:y*b.width+cols])
				clear(all[y*width+cols : (y+1)*width])
			}
		}
		clear(all[rows*width : n])
		b.cells = all[:n]
	}
	b.width, b.height = width, height
	if width > 0 {
		for y := range height {
			if last := &b.cells[y*width+width-1]; last.kind == wideCell {
				*last = Cell{Style: blankStyle(last.Style)}
			}
		}
	}
}

// Clear blanks every cell in the default style.
func (b *Buffer) Clear() { clear(b.cells) }

// Cell returns the cell at (x, y); outside the buffer it returns a blank.
func (b *Buffer) Cell(x, y int) Cell {
	if x < 0 || y < 0 || x >= b.width || y >= b.height {
		return Cell{}
	}
	return b.cells[y*b.width+x]
}

// row returns row y's cells.
func (b *Buffer) row(y int) []Cell { return b.cells[y*b.width : (y+1)*b.width] }

// CopyFrom makes b an exact copy of src, size included.
func (b *Buffer) CopyFrom(src *Buffer) {
	b.Resize(src.width, src.height)
	copy(b.cells, src.cells)
}

// Equal reports whether two buffers hold the same cells.
func (b *Buffer) Equal(o *Buffer) bool {
	if b.width != o.width || b.height != o.height {
		return false
	}
	for i := range b.cells {
		if b.cells[i] != o.cells[i] {
			return false
		}
	}
	return true
}

// Shift moves rows [top, bottom) by n rows, up when n is positive, and
// blanks the rows that come in: what a scrolled region looks like.
func (b *Buffer) Shift(top, bottom, n int) {
	top, bottom = max(top, 0), min(bottom, b.height)
	if top >= bottom || n == 0 {
		return
	}
	if abs(n) >= bottom-top {
		clear(b.cells[top*b.width : bottom*b.width])
		return
	}
	shiftRows(b, top, bottom, n)
}

// AppendCells appends to dst the cells of row y from column x on, at
// most n of them (fewer at the right edge), and returns it: a row region
// as drawn, for SetCells to put back.
func (b *Buffer) AppendCells(dst []Cell, x, y, n int) []Cell {
	if y < 0 || y >= b.height || x < 0 || x >= b.width || n <= 0 {
		return dst
	}
	return append(dst, b.row(y)[x:min(x+n, b.width)]...)
}

// SetCells copies cells (read with AppendCells) into row y from column x
// on, clipped at the right edge, and returns the number of columns it
// wrote. The result is what drawing their clusters again would make: a
// wide cluster it overwrites half of loses its other half, and a wide
// cluster cut at either end of the copy is blanked.
func (b *Buffer) SetCells(x, y int, cells []Cell) int {
	if y < 0 || y >= b.height || x < 0 || x >= b.width {
		return 0
	}
	n := min(len(cells), b.width-x)
	if n == 0 {
		return 0
	}
	row := b.row(y)
	breakWide(row, x)
	breakWide(row, x+n-1)
	copy(row[x:x+n], cells[:n])
	if c := &row[x]; c.kind == continuation {
		*c = Cell{Style: blankStyle(c.Style)}
	}
	if c := &row[x+n-1]; c.kind == wideCell {
		*c = Cell{Style: blankStyle(c.Style)}
	}
	return n
}

// SetString draws s at (x, y) in style st, linked to link (empty for none),
// and returns the number of columns it advanced. s is split into grapheme
// clusters; control characters are drawn as visible glyphs and invalid
// UTF-8 as U+FFFD; zero-width clusters with nothing to attach to are
// dropped. Drawing stops at the right edge: a wide cluster that does not
// fit is not drawn.
func (b *Buffer) SetString(x, y int, s string, st Style, link string) int {
	if y < 0 || y >= b.height || x >= b.width {
		return 0
	}
	s = Sanitize(s)
	link = CleanURL(link)
	row := b.row(y)
	start := x
	state := -1
	for len(s) > 0 {
		var g string
		var w int
		if s[0] < utf8.RuneSelf && (len(s) == 1 || s[1] < utf8.RuneSelf) {
			// An ASCII character followed by ASCII (or nothing) is a cluster
			// of its own; this is the common case and needs no segmenting.
			g, s, w, state = s[:1], s[1:], 1, -1
		} else {
			g, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
		}
		if w <= 0 {
			continue
		}
		w = min(w, 2)
		if len(g) > maxClusterBytes {
			g = clipCluster(g)
		}
		if x+w > b.width {
			break
		}
		switch {
		case x >= 0:
			place(row, x, g, w == 2, st, link)
		case x+w > 0: // the right half of a wide cluster cut by the left edge
			place(row, 0, " ", false, st, link)
		}
		x += w
	}
	return x - start
}

// DrawnWidth is the number of columns SetString advances drawing s from
// the left edge of a buffer width columns wide, without drawing it.
func DrawnWidth(s string, width int) int {
	s = Sanitize(s)
	x := 0
	state := -1
	for len(s) > 0 {
		var w int
		if s[0] < utf8.RuneSelf && (len(s) == 1 || s[1] < utf8.RuneSelf) {
			s, w, state = s[1:], 1, -1
		} else {
			_, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
		}
		if w <= 0 {
			continue
		}
		w = min(w, 2)
		if x+w > width {
			break
		}
		x += w
	}
	return x
}

// SetLine draws the spans of l from (x, y) on and returns the number of
// columns used.
func (b *Buffer) SetLine(x, y int, l Line) int {
	start := x
	for i := range l.Spans {
		if x >= b.width {
			break
		}
		sp := &l.Spans[i]
		x += b.SetString(x, y, sp.Text, sp.Style, sp.Link)
	}
	return x - start
}

// Fill blanks the w×h rectangle at (x, y) in style st (clipped to the
// buffer).
func (b *Buffer) Fill(x, y, w, h int, st Style) {
	x0, y0 := max(x, 0), max(y, 0)
	x1, y1 := min(x+w, b.width), min(y+h, b.height)
	if x0 >= x1 || y0 >= y1 {
		return
	}
	blank := Cell{Style: blankStyle(st)}
	for yy := y0; yy < y1; yy++ {
		row := b.row(yy)
		breakWide(row, x0)
		breakWide(row, x1-1)
		for i := x0; i < x1; i++ {
			row[i] = blank
		}
	}
}

// place writes one cluster at row[x]; a wide one also claims row[x+1].
func place(row []Cell, x int, g string, wide bool, st Style, link string) {
	if row[x].kind != narrowCell {
		breakWide(row, x)
	}
	if wide && row[x+1].kind != narrowCell {
		breakWide(row, x+1)
	}
	if g == " " {
		row[x] = Cell{Style: blankStyle(st), Link: link}
		return
	}
	if !wide {
		row[x] = Cell{Grapheme: g, Style: st, Link: link}
		return
	}
	row[x] = Cell{Grapheme: g, Style: st, Link: link, kind: wideCell}
	row[x+1] = Cell{Style: st, Link: link, kind: continuation}
}

// breakWide blanks the other half of a wide cluster that row[x] belongs to,
// because x is about to be overwritten.
func breakWide(row []Cell, x int) {
	switch row[x].kind {
	case continuation:
		if x > 0 {
			lead := &row[x-1]
			*lead = Cell{Style: blankStyle(lead.Style)}
		}
		row[x] = Cell{Style: blankStyle(row[x].Style)}
	case wideCell:
		if x+1 < len(row) {
			c := &row[x+1]
			*c = Cell{Style: blankStyle(c.Style)}
		}
		row[x] = Cell{Style: blankStyle(row[x].Style)}
	}
}

// maxClusterBytes bounds one cell's grapheme: a base followed by
// thousands of combining marks ("zalgo" text) would otherwise be
// rewritten whole every time the cell changes.
const maxClusterBytes = 64

// clipCluster cuts g to at most maxClusterBytes at a code point boundary.
func clipCluster(g string) string {
	n := maxClusterBytes
	for n > 0 && !utf8.RuneStart(g[n]) {
		n--
	}
	return g[:n]
}

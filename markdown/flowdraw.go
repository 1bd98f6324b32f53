package markdown

import (
	"sort"
	"strings"
)

// Flowcharts are laid out in layers (Sugiyama style): cycles broken by
// reversing the edges a depth-first search finds going back, each node
// on the layer of its longest path from a source, edges that span layers
// broken by dummy points, layers ordered by barycentres. Top-down
// diagrams put layers in rows and the nodes of a layer in grid columns;
// left-right ones put layers in columns. Bottom-up and right-left are
// the same drawings flipped. Edges run on buses between the layers and
// meet in box-drawing junctions.

// A vertex is a node or a dummy point of a long edge, placed on a layer.
type vertex struct {
	node  int // index in flowchart.nodes, -1 for a dummy
	layer int
	pos   int // order within its layer
}

// A segment joins vertices on adjacent layers, upper to lower.
type segment struct {
	from, to  int // vertex indexes
	arrowDown bool
	arrowUp   bool
	label     string
}

type flowLayout struct {
	fc     *flowchart
	verts  []vertex
	segs   []segment
	layers [][]int // vertex indexes by layer, in order
}

// layout places fc's nodes and edges on layers.
func layoutFlow(fc *flowchart) *flowLayout {
	n := len(fc.nodes)
	out := make([][]int, n)
	for i, e := range fc.edges {
		out[e.from] = append(out[e.from], i)
	}
	// Break cycles: an edge to a node still on the DFS stack points up.
	state := make([]uint8, n) // 0 new, 1 on stack, 2 done
	reversed := make([]bool, len(fc.edges))
	var visit func(v int)
	visit = func(v int) {
		state[v] = 1
		for _, ei := range out[v] {
			switch w := fc.edges[ei].to; state[w] {
			case 0:
				visit(w)
			case 1:
				reversed[ei] = true
			}
		}
		state[v] = 2
	}
	for v := range n {
		if state[v] == 0 {
			visit(v)
		}
	}
	// Longest path layering over the edges as oriented.
	layer := make([]int, n)
	for changed := true; changed; {
		changed = false
		for i, e := range fc.edges {
			a, b := e.from, e.to
			if reversed[i] {
				a, b = b, a
			}
			if layer[b] < layer[a]+1 {
				layer[b] = layer[a] + 1
				changed = true
			}
		}
	}
	l := &flowLayout{fc: fc}
	depth := 0
	for v := range n {
		l.verts = append(l.verts, vertex{node: v, layer: layer[v]})
		depth = max(depth, layer[v]+1)
	}
	for i, e := range fc.edges {
		a, b := e.from, e.to
		up := reversed[i]
		if up {
			a, b = b, a
		}
		prev := a
		for k := layer[a] + 1; k < layer[b]; k++ {
			l.verts = append(l.verts, vertex{node: -1, layer: k})
			d := len(l.verts) - 1
			l.segs = append(l.segs, segment{from: prev, to: d})
			prev = d
		}
		l.segs = append(l.segs, segment{from: prev, to: b})
		// The label goes on the edge's first segment; the arrowhead on
		// the end that points at the target.
		first := len(l.segs) - (layer[b] - layer[a])
		l.segs[first].label = e.label
		if e.arrow && up {
			l.segs[first].arrowUp = true
		} else if e.arrow {
			l.segs[len(l.segs)-1].arrowDown = true
		}
	}
	l.layers = make([][]int, depth)
	for i, v := range l.verts {
		l.layers[v.layer] = append(l.layers[v.layer], i)
	}
	l.order()
	return l
}

// order sorts each layer by the mean position of its neighbours in the
// layer above, then below, a few times over.
func (l *flowLayout) order() {
	up := make([][]int, len(l.verts))
	down := make([][]int, len(l.verts))
	for _, s := range l.segs {
		down[s.from] = append(down[s.from], s.to)
		up[s.to] = append(up[s.to], s.from)
	}
	l.number()
	sweep := func(k int, nb [][]int) {
		vs := l.layers[k]
		key := make(map[int]float64, len(vs))
		for _, v := range vs {
			if len(nb[v]) == 0 {
				key[v] = float64(l.verts[v].pos)
				continue
			}
			sum := 0
			for _, w := range nb[v] {
				sum += l.verts[w].pos
			}
			key[v] = float64(sum) / float64(len(nb[v]))
		}
		sort.SliceStable(vs, func(i, j int) bool { return key[vs[i]] < key[vs[j]] })
		l.number()
	}
	for range 4 {
		for k := 1; k < len(l.layers); k++ {
			sweep(k, up)
		}
		for k := len(l.layers) - 2; k >= 0; k-- {
			sweep(k, down)
		}
	}
}

func (l *flowLayout) number() {
	for _, vs := range l.layers {
		for i, v := range vs {
			l.verts[v].pos = i
		}
	}
}

// Line bits of a canvas cell; a cell's glyph is the set of directions
// its lines leave in.
const (
	bitUp uint8 = 1 << iota
	bitDown
	bitLeft
	bitRight
)

var lineGlyphs = [16]rune{
	' ', '│', '│', '│', '─', '┘', '┐', '┤', '─', '└', '┌', '├', '─', '┴', '┬', '┼',
}

// canvasCell is a line junction, a fixed glyph (an arrowhead, a rounded
// corner) or part of a label.
type canvasCell struct {
	bits  uint8
	fixed rune
	label bool // covered by a label placed in labels
}

type placedLabel struct {
	x, y int
	text string
}

type canvas struct {
	w, h   int
	cells  []canvasCell
	labels []placedLabel
	clash  bool // a label landed on something already drawn
}

func newCanvas(w, h int) *canvas {
	return &canvas{w: w, h: h, cells: make([]canvasCell, w*h)}
}

func (c *canvas) at(x, y int) *canvasCell { return &c.cells[y*c.w+x] }

func (c *canvas) line(x, y int, bits uint8) { c.at(x, y).bits |= bits }

func (c *canvas) put(x, y int, r rune) { c.at(x, y).fixed = r }

// hline and vline draw a straight run of line between two points.
func (c *canvas) hline(x0, x1, y int) {
	if x0 > x1 {
		x0, x1 = x1, x0
	}
	for x := x0; x <= x1; x++ {
		var b uint8
		if x > x0 {
			b |= bitLeft
		}
		if x < x1 {
			b |= bitRight
		}
		c.line(x, y, b)
	}
}

func (c *canvas) vline(x, y0, y1 int) {
	if y0 > y1 {
		y0, y1 = y1, y0
	}
	for y := y0; y <= y1; y++ {
		var b uint8
		if y > y0 {
			b |= bitUp
		}
		if y < y1 {
			b |= bitDown
		}
		c.line(x, y, b)
	}
}

// label places text at (x, y), over nothing but lines whose bits are
// all in over (a label may sit on the horizontal line it names); it
// marks a clash when the text would cover anything else or not fit.
func (c *canvas) label(x, y int, text string, over uint8) {
	w := textWidth(text)
	if x < 0 || x+w > c.w {
		c.clash = true
		return
	}
	for i := x; i < x+w; i++ {
		cell := c.at(i, y)
		if cell.bits&^over != 0 || cell.fixed != 0 || cell.label {
			c.clash = true
		}
		cell.label = true
	}
	c.labels = append(c.labels, placedLabel{x: x, y: y, text: text})
}

// box draws a node's frame over x..x+w-1, y..y+2 and its centred label.
func (c *canvas) box(x, y, w int, n flowNode) { c.boxTall(x, y, w, boxHeight, n) }

// boxTall is box h rows tall, the label on the middle row.
func (c *canvas) boxTall(x, y, w, h int, n flowNode) {
	c.hline(x, x+w-1, y)
	c.hline(x, x+w-1, y+h-1)
	c.vline(x, y, y+h-1)
	c.vline(x+w-1, y, y+h-1)
	if n.rounded {
		c.put(x, y, '╭')
		c.put(x+w-1, y, '╮')
		c.put(x, y+h-1, '╰')
		c.put(x+w-1, y+h-1, '╯')
	}
	lw := textWidth(n.label)
	mid := y + (h-1)/2
	c.labels = append(c.labels, placedLabel{x: x + 1 + (w-2-lw+1)/2, y: mid, text: n.label})
	for i := x + 1; i < x+w-1; i++ {
		c.at(i, mid).label = true
	}
}

// flip turns the drawing upside down (vertical), for bottom-up charts,
// or mirrors it left to right, for right-left ones; labels keep reading
// left to right.
func (c *canvas) flip(vertical bool) {
	mirror := func(i int) int { // the cell i lands on
		x, y := i%c.w, i/c.w
		if vertical {
			return (c.h-1-y)*c.w + x
		}
		return y*c.w + c.w - 1 - x
	}
	for i := range c.cells {
		if j := mirror(i); i < j {
			c.cells[i], c.cells[j] = c.cells[j], c.cells[i]
		}
	}
	a, b, pairs := bitUp, bitDown, "▼▲╭╰╮╯"
	if !vertical {
		a, b, pairs = bitLeft, bitRight, "▶◀╭╮╰╯"
	}
	for i := range c.cells {
		cell := &c.cells[i]
		bits := cell.bits &^ (a | b)
		if cell.bits&a != 0 {
			bits |= b
		}
		if cell.bits&b != 0 {
			bits |= a
		}
		cell.bits = bits
		cell.fixed = swapRune(cell.fixed, pairs)
	}
	for i := range c.labels {
		l := &c.labels[i]
		if vertical {
			l.y = c.h - 1 - l.y
		} else {
			l.x = c.w - l.x - textWidth(l.text)
		}
	}
}

// swapRune swaps r with its partner in pairs (a string of rune pairs).
func swapRune(r rune, pairs string) rune {
	rs := []rune(pairs)
	for i := 0; i+1 < len(rs); i += 2 {
		switch r {
		case rs[i]:
			return rs[i+1]
		case rs[i+1]:
			return rs[i]
		}
	}
	return r
}

// rows renders the canvas, right-trimmed.
func (c *canvas) rows() []string {
	byRow := make([][]placedLabel, c.h)
	for _, l := range c.labels {
		if l.text != "" {
			byRow[l.y] = append(byRow[l.y], l)
		}
	}
	out := make([]string, c.h)
	for y := range c.h {
		sort.Slice(byRow[y], func(i, j int) bool { return byRow[y][i].x < byRow[y][j].x })
		var b strings.Builder
		next := 0
		for x := 0; x < c.w; {
			if next < len(byRow[y]) && byRow[y][next].x == x {
				l := byRow[y][next]
				b.WriteString(l.text)
				x += max(textWidth(l.text), 1)
				next++
				continue
			}
			cell := c.at(x, y)
			switch {
			case cell.fixed != 0:
				b.WriteRune(cell.fixed)
			case cell.bits != 0:
				b.WriteRune(lineGlyphs[cell.bits])
			default:
				b.WriteByte(' ')
			}
			x++
		}
		out[y] = strings.TrimRight(b.String(), " ")
	}
	return out
}

package markdown

import "sort"

// drawFlowchart draws a parsed flowchart in at most width columns. It
// reports false when the drawing would not fit or a label would land on
// something else: the block is then shown as code instead.
func drawFlowchart(fc *flowchart, width int) ([]string, bool) {
	l := layoutFlow(fc)
	var c *canvas
	switch fc.dir {
	case "LR", "RL":
		c = l.drawAcross()
	default:
		c = l.drawDown()
	}
	if c.clash {
		return nil, false
	}
	switch fc.dir {
	case "BT":
		c.flip(true)
	case "RL":
		c.flip(false)
	}
	rows := c.rows()
	for _, r := range rows {
		if textWidth(r) > width {
			return nil, false
		}
	}
	// A start point leaves its band's first row empty.
	for len(rows) > 0 && rows[0] == "" {
		rows = rows[1:]
	}
	for len(rows) > 0 && rows[len(rows)-1] == "" {
		rows = rows[:len(rows)-1]
	}
	return rows, true
}

// boxWidth is the frame width of node v's box: its label with a blank
// and a border on each side; a thin vertex is one column.
func (l *flowLayout) boxWidth(v int) int {
	if l.thin(v) {
		return 1
	}
	return textWidth(l.fc.nodes[l.verts[v].node].label) + 4
}

// thin reports whether vertex v is drawn as a line or a point rather
// than a box: a dummy on a long edge, or a state diagram's start or end.
func (l *flowLayout) thin(v int) bool {
	n := l.verts[v].node
	return n < 0 || l.fc.nodes[n].point != 0
}

// ports spreads n attachment points over the span [lo, hi] of a box
// side, in order; one point takes the middle.
func ports(lo, hi, n int) []int {
	out := make([]int, n)
	for i := range n {
		out[i] = lo + (2*i+1)*(hi-lo+1)/(2*n)
	}
	return out
}

// sides lists, for each vertex, the segments leaving it downwards and
// arriving from above, each sorted by the position of the other end,
// so that edges attach to a box side in the order they go, uncrossed.
func (l *flowLayout) sides() (out, in [][]int) {
	out = make([][]int, len(l.verts))
	in = make([][]int, len(l.verts))
	for i, s := range l.segs {
		out[s.from] = append(out[s.from], i)
		in[s.to] = append(in[s.to], i)
	}
	for v := range l.verts {
		sortSegs(out[v], func(i int) int { return l.verts[l.segs[i].to].pos })
		sortSegs(in[v], func(i int) int { return l.verts[l.segs[i].from].pos })
	}
	return out, in
}

func sortSegs(segs []int, key func(int) int) {
	sort.SliceStable(segs, func(a, b int) bool { return key(segs[a]) < key(segs[b]) })
}

// drawDown draws layers as rows, top to bottom. The nodes at one place
// in their layers share a grid column as wide as the widest of them.
// Each edge that moves sideways gets a bus row of its own in the gap
// below its layer, so edges cross but never run together.
const (
	columnGap = 3
	boxHeight = 3
)

func (l *flowLayout) drawDown() *canvas {
	cols := 0
	for _, vs := range l.layers {
		cols = max(cols, len(vs))
	}
	out, in := l.sides()
	colW := make([]int, cols)
	for v := range l.verts {
		// Room for every edge leaving the bottom with its label beside
		// it, and for the edges arriving at the top.
		need := l.boxWidth(v)
		if !l.thin(v) {
			ports := 1
			for _, i := range out[v] {
				ports += textWidth(l.segs[i].label) + 3
			}
			need = max(need, ports+1, 2*len(in[v])+3)
		}
		colW[l.verts[v].pos] = max(colW[l.verts[v].pos], need)
	}
	colX := make([]int, cols)
	w := 0
	for k := range cols {
		colX[k] = w
		w += colW[k] + columnGap
	}
	w -= columnGap
	srcX := make([]int, len(l.segs))
	dstX := make([]int, len(l.segs))
	for v, vx := range l.verts {
		x, cw := colX[vx.pos], colW[vx.pos]
		if l.thin(v) || len(out[v]) == 1 {
			for _, i := range out[v] {
				srcX[i] = x + cw/2
			}
		} else {
			// Each port leaves room for its edge's label before the
			// next; the group is centred under the box.
			steps := make([]int, len(out[v]))
			total := 0
			for j, i := range out[v] {
				steps[j] = 2
				if lw := textWidth(l.segs[i].label); lw > 0 {
					steps[j] = lw + 3
				}
				if j < len(out[v])-1 {
					total += steps[j]
				}
			}
			px := x + 1 + (cw-2-1-total)/2
			for j, i := range out[v] {
				srcX[i] = px
				px += steps[j]
			}
		}
		lo, hi := x+1, x+cw-2
		if l.thin(v) || len(in[v]) == 1 {
			lo, hi = x+cw/2, x+cw/2
		}
		for i, px := range ports(lo, hi, len(in[v])) {
			dstX[in[v][i]] = px
		}
	}
	bus, jogs := l.buses(srcX, dstX)
	labelW := 0
	for _, s := range l.segs {
		labelW = max(labelW, textWidth(s.label))
	}
	layerY := make([]int, len(l.layers))
	h := 0
	for k := range l.layers {
		layerY[k] = h
		h += boxHeight + 2 + jogs[k]
	}
	h -= 2 + jogs[len(l.layers)-1]
	c := newCanvas(w+labelW+2, max(h, 1))
	for v, vx := range l.verts {
		y, x := layerY[vx.layer], colX[vx.pos]+colW[vx.pos]/2
		switch {
		case vx.node < 0:
			c.vline(x, y, y+boxHeight-1)
		case l.thin(v):
			// A point: edges arrive on the row above it (see below)
			// and leave by a stub down.
			if len(out[v]) > 0 {
				c.vline(x, y+1, y+2)
			}
			c.put(x, y+1, l.fc.nodes[vx.node].point)
		default:
			c.box(colX[vx.pos], y, colW[vx.pos], l.fc.nodes[vx.node])
		}
	}
	for i, s := range l.segs {
		xs, xt := srcX[i], dstX[i]
		k := l.verts[s.from].layer
		bottom := layerY[k] + boxHeight - 1 // the source's last row
		top := layerY[k+1]                  // the target's first row
		start := bottom
		if s.arrowUp {
			start = bottom + 1
			c.put(xs, start, '▲')
		}
		end := top
		point := l.verts[s.to].node >= 0 && l.thin(s.to)
		switch {
		case point && s.arrowDown:
			c.put(xt, end, '▼') // right above the point
		case point:
			c.line(xt, end, bitDown) // the line runs into the point
		case s.arrowDown:
			end = top - 1
			c.put(xt, end, '▼')
		}
		if bus[i] == 0 {
			c.vline(xs, start, end)
		} else {
			y := bottom + 1 + bus[i]
			c.vline(xs, start, y)
			c.hline(xs, xt, y)
			c.vline(xt, y, end)
		}
		if l.thin(s.to) && !point {
			c.line(xt, top, bitUp) // into the dummy's own line
		}
		if l.thin(s.from) {
			c.line(xs, bottom, bitDown)
		}
	}
	// Labels go last, where no line runs.
	for i, s := range l.segs {
		if s.label != "" {
			c.labelBeside(srcX[i], layerY[l.verts[s.from].layer]+boxHeight, s.label)
		}
	}
	return c
}

// buses gives each segment that changes lane (from is not at to) a lane
// of its own in the gap after its layer, numbered from 1, and counts
// them per gap. Segments heading to higher lanes take the first lanes,
// those that start further along first, then those heading to lower
// lanes, nearest first: that order keeps them from crossing each other
// where it can.
func (l *flowLayout) buses(from, to []int) (bus, lanes []int) {
	bus = make([]int, len(l.segs))
	lanes = make([]int, len(l.layers))
	order := make([]int, 0, len(l.segs))
	for i := range l.segs {
		if from[i] != to[i] {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		ui, uj := to[i] > from[i], to[j] > from[j]
		switch {
		case ui != uj:
			return ui
		case ui:
			return from[i] > from[j]
		}
		return from[i] < from[j]
	})
	for _, i := range order {
		k := l.verts[l.segs[i].from].layer
		lanes[k]++
		bus[i] = lanes[k]
	}
	return bus, lanes
}

// labelBeside puts a label right of the vertical line at x on row y, or
// left of it when that is taken.
func (c *canvas) labelBeside(x, y int, text string) {
	w := textWidth(text)
	for _, at := range []int{x + 2, x - 1 - w} {
		if at >= 0 && at+w <= c.w && c.free(at, y, w) {
			c.label(at, y, text, 0)
			return
		}
	}
	c.clash = true
}

// free reports whether w cells from (x, y) hold nothing.
func (c *canvas) free(x, y, w int) bool {
	for i := x; i < x+w; i++ {
		if cell := c.at(i, y); cell.bits != 0 || cell.fixed != 0 || cell.label {
			return false
		}
	}
	return true
}

// drawAcross draws layers as columns, left to right; the nodes at one
// place in their layers share a row band, and a box is as tall as the
// edges attached to a side need. Each edge that moves up or down gets a
// bus column of its own in the gap after its layer.
func (l *flowLayout) drawAcross() *canvas {
	out, in := l.sides()
	height := func(v int) int {
		if l.thin(v) {
			return 1
		}
		return max(boxHeight, len(out[v])+2, len(in[v])+2)
	}
	rows := 0
	for _, vs := range l.layers {
		rows = max(rows, len(vs))
	}
	bandH := make([]int, rows)
	for v := range l.verts {
		bandH[l.verts[v].pos] = max(bandH[l.verts[v].pos], height(v))
	}
	bandY := make([]int, rows)
	h := 0
	for p := range rows {
		bandY[p] = h
		h += bandH[p] + 1
	}
	h--
	colW := make([]int, len(l.layers))
	for v := range l.verts {
		k := l.verts[v].layer
		colW[k] = max(colW[k], l.boxWidth(v))
	}
	// A vertex's top row within its band: boxes are centred in it.
	topOf := func(v int) int {
		p := l.verts[v].pos
		return bandY[p] + (bandH[p]-height(v))/2
	}
	srcY := make([]int, len(l.segs))
	dstY := make([]int, len(l.segs))
	for v := range l.verts {
		y, vh := topOf(v), height(v)
		lo, hi := y+1, y+vh-2
		if l.thin(v) {
			lo, hi = y, y
		}
		for i, py := range ports(lo, hi, len(out[v])) {
			srcY[out[v][i]] = py
		}
		for i, py := range ports(lo, hi, len(in[v])) {
			dstY[in[v][i]] = py
		}
	}
	bus, jogs := l.buses(srcY, dstY)
	labelW := make([]int, len(l.layers))
	for _, s := range l.segs {
		if s.label != "" {
			k := l.verts[s.from].layer
			labelW[k] = max(labelW[k], textWidth(s.label)+2)
		}
	}
	colX := make([]int, len(l.layers))
	w := 0
	for k := range l.layers {
		colX[k] = w
		// The gap: a step out, the bus columns, room for a label, and
		// line into the arrowhead.
		w += colW[k]
		if k < len(l.layers)-1 {
			w += 1 + jogs[k] + max(labelW[k], 1) + 2
		}
	}
	c := newCanvas(max(w, 1), max(h, 1))
	for v, vx := range l.verts {
		x, y, cw := colX[vx.layer], topOf(v), colW[vx.layer]
		switch {
		case vx.node < 0:
			c.hline(x, x+cw-1, y)
		case l.thin(v):
			mid := x + cw/2
			if len(in[v]) > 0 {
				c.hline(x, mid, y)
			}
			if len(out[v]) > 0 {
				c.hline(mid, x+cw-1, y)
			}
			c.put(mid, y, l.fc.nodes[vx.node].point)
		default:
			c.boxTall(x, y, cw, height(v), l.fc.nodes[vx.node])
		}
	}
	for i, s := range l.segs {
		k := l.verts[s.from].layer
		ys, yt := srcY[i], dstY[i]
		right := colX[k] + colW[k] - 1 // the source's last column
		left := colX[k+1]              // the target's first column
		start := right
		if s.arrowUp {
			start = right + 1
			c.put(start, ys, '◀')
		}
		end := left
		if s.arrowDown {
			end = left - 1
			c.put(end, yt, '▶')
		}
		if bus[i] == 0 {
			c.hline(start, end, ys)
		} else {
			x := right + 1 + bus[i]
			c.hline(start, x, ys)
			c.vline(x, ys, yt)
			c.hline(x, end, yt)
		}
		if l.thin(s.to) {
			c.line(left, yt, bitLeft)
		}
		if l.thin(s.from) {
			c.line(right, ys, bitRight)
		}
	}
	for i, s := range l.segs {
		if s.label != "" {
			k := l.verts[s.from].layer
			c.label(colX[k]+colW[k]+1+jogs[k], dstY[i], " "+s.label+" ", bitLeft|bitRight)
		}
	}
	return c
}

package app

import (
	"strings"

	"github.com/quire-sh/quire/render"
)

// rowCache draws one row of the chrome (the status line, the rule, a
// prompt row) from the strings it is made of, and remembers the cells
// they made. While a stream runs, these rows are the same frame after
// frame; drawing the same strings in the same places again copies the
// cells instead of segmenting and placing every cluster, with the same
// result (render.Buffer.SetCells).
type rowCache struct {
	width int // the buffer's, which clips what a string draws
	drawn []rowPart
	next  []rowPart
	cells []render.Cell
}

// rowPart is one string drawn on the row, and where its cells are kept.
type rowPart struct {
	x     int
	text  string
	style render.Style
	from  int // its cells are cells[from:from+n]
	n     int
}

// add queues text at column x in style st for the next draw.
func (c *rowCache) add(x int, text string, st render.Style) {
	c.next = append(c.next, rowPart{x: x, text: text, style: st})
}

// draw draws the queued strings on row y of b, in the order added, and
// empties the queue.
func (c *rowCache) draw(b *render.Buffer, y int) {
	w, _ := b.Size()
	if c.same(w) {
		for _, p := range c.drawn {
			b.SetCells(p.x, y, c.cells[p.from:p.from+p.n])
		}
		c.next = c.next[:0]
		return
	}
	c.width = w
	c.cells = c.cells[:0]
	for i := range c.next {
		p := &c.next[i]
		if p.x < 0 {
			c.width = -1 // a string cut by the left edge is not kept
		}
		p.n = b.SetString(p.x, y, p.text, p.style, "")
		p.from = len(c.cells)
		c.cells = b.AppendCells(c.cells, p.x, y, p.n)
		p.n = len(c.cells) - p.from
	}
	c.drawn, c.next = c.next, c.drawn[:0]
}

// same reports whether the queued strings are those the cells were drawn
// from, on a buffer of the same width.
func (c *rowCache) same(width int) bool {
	if c.width != width || len(c.next) != len(c.drawn) {
		return false
	}
	for i := range c.next {
		a, d := &c.next[i], &c.drawn[i]
		if a.x != d.x || a.style != d.style || a.text != d.text {
			return false
		}
	}
	return true
}

// chromeRows are the caches of the rows drawBottom draws each frame, and
// the rule's text at the width it was made for.
type chromeRows struct {
	status, rule rowCache
	prompt       [maxPromptRows]rowCache
	ruleText     string
	ruleWidth    int
	// hint is the empty prompt's hint as made for hintKey.
	hint    string
	hintKey hintKey
	hintOK  bool
}

// hintKey is everything the empty prompt's hint depends on.
type hintKey struct {
	width                                int
	replay, running, minimal, shiftEnter bool
}

// ruleOf is a rule w columns wide, made again only when w changes.
func (c *chromeRows) ruleOf(w int) string {
	if c.ruleWidth != w || c.ruleText == "" {
		c.ruleText, c.ruleWidth = strings.Repeat("─", max(w, 0)), w
	}
	return c.ruleText
}

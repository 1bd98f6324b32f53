package render

import "strconv"

// encoder turns cell changes into the fewest bytes it can find. It tracks
// what the terminal currently has (cursor, SGR pen, open link) so that
// every choice is a transition from that state, and it prices each
// alternative in bytes before emitting the cheapest. See doc.go for the
// rules.
type encoder struct {
	buf           []byte
	width, height int
	// cx, cy is the terminal cursor; -1 means unknown (after a write into
	// the last column, after a cluster whose width the terminal may
	// measure differently, after raw bytes).
	cx, cy int
	pen    Style  // the terminal's SGR state, already degraded
	link   string // the open OSC 8 target, "" when none
	colors ColorLevel
	links  bool
	noBCE  bool
	noSync bool
	ids    *linkIDs
	// scrolling is set while a scroll region is active: LF and RI would
	// scroll it, so they are not used to move.
	scrolling bool
	// lastRaw/lastAdapted memoise colour degradation for runs of cells
	// in one style.
	lastRaw, lastAdapted Style
	stats                Stats
	// Scratch space for pricing a shift (shift.go), and whether erasing
	// to the end of the row is off while the cells before a shift are
	// drawn.
	shiftRow   []Cell
	shiftBytes []byte
	noEL       bool
}

func newEncoder(width, height int, opts Options) encoder {
	return encoder{
		width: width, height: height, cx: -1, cy: -1,
		colors: opts.Colors, links: opts.Hyperlinks, noBCE: opts.NoBCE, noSync: opts.NoSync, ids: &linkIDs{},
		lastAdapted: adaptStyle(Style{}, opts.Colors),
	}
}

// begin starts a frame in an empty buffer with the synchronized-update
// bracket (unless the terminal is known not to have it) and returns the
// frame's length before any content.
func (e *encoder) begin() int {
	e.buf = e.buf[:0]
	if !e.noSync {
		e.buf = append(e.buf, syncBegin...)
	}
	return len(e.buf)
}

// end closes the bracket begin opened.
func (e *encoder) end() {
	if !e.noSync {
		e.buf = append(e.buf, syncEnd...)
	}
}

// setOptions switches to new capabilities and reports whether what cells
// look like on the terminal changed (colours or links), so that what is
// on screen must be drawn again.
func (e *encoder) setOptions(opts Options) bool {
	changed := e.colors != opts.Colors || e.links != opts.Hyperlinks || e.noBCE != opts.NoBCE
	e.colors, e.links, e.noBCE, e.noSync = opts.Colors, opts.Hyperlinks, opts.NoBCE, opts.NoSync
	e.lastRaw, e.lastAdapted = Style{}, adaptStyle(Style{}, opts.Colors)
	return changed
}

// erasable reports whether an erase can produce c on this terminal:
// c is a plain blank, and its background is the default or the terminal
// erases in the current background (BCE).
func (e *encoder) erasable(c *Cell) bool {
	return erasable(c) && (!e.noBCE || c.Style.Bg == DefaultColor)
}

// forget writes a pen reset and a link close, for when something else
// has written to the terminal and its state is unknown.
func (e *encoder) forget() {
	e.buf = append(e.buf, "\x1b]8;;\a\x1b[m"...)
	e.stats.SGR++
	e.stats.Links++
	e.pen, e.link = Style{}, ""
	e.cx, e.cy = -1, -1
}

func (e *encoder) adapt(st Style) Style {
	if st != e.lastRaw {
		e.lastRaw, e.lastAdapted = st, adaptStyle(st, e.colors)
	}
	return e.lastAdapted
}

// csiLen is the length of CSI n <final>, with the parameter omitted when
// it is 1 (the default of every sequence priced with it).
func csiLen(n int) int {
	if n == 1 {
		return 3
	}
	return 3 + digits(n)
}

func digits(n int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

func (e *encoder) csi(n int, final byte) {
	e.buf = append(e.buf, '\x1b', '[')
	if n != 1 {
		e.buf = strconv.AppendInt(e.buf, int64(n), 10)
	}
	e.buf = append(e.buf, final)
}

// Horizontal and vertical parts of a relative move.
const (
	hNone = iota
	hCR   // CR, then CUF to the column if it is not 0
	hCUF
	hCUB
	hBS
	hCHA
)

const (
	vNone = iota
	vCUD
	vCUU
	vLF // only after CR: LF's column behaviour depends on the tty's ONLCR
	vRI
	vVPA
	vCUP // the whole move as one CUP
)

type move struct{ h, v, cost int }

// plan finds the cheapest way from the cursor to (x, y).
func (e *encoder) plan(x, y int) move {
	cupCost := 3
	if y > 0 {
		cupCost += digits(y + 1)
	}
	if x > 0 {
		cupCost += 1 + digits(x+1)
	}
	best := move{v: vCUP, cost: cupCost}
	if e.cx == x && e.cy == y {
		return move{}
	}

	// Horizontal choices; the CR-based one is kept apart because only it
	// allows LF for the vertical part.
	crCost := 1
	if x > 0 {
		crCost += csiLen(x)
	}
	hCost, hKind := csiLen(x+1), hCHA
	if e.cx >= 0 {
		switch d := x - e.cx; {
		case d == 0:
			hCost, hKind = 0, hNone
		case d > 0:
			if c := csiLen(d); c < hCost {
				hCost, hKind = c, hCUF
			}
		default:
			if -d < hCost {
				hCost, hKind = -d, hBS
			}
			if c := csiLen(-d); c < hCost {
				hCost, hKind = c, hCUB
			}
		}
	}
	if crCost < hCost {
		hCost, hKind = crCost, hCR
	}

	vCost, vKind := csiLen(y+1), vVPA
	if e.cy >= 0 {
		switch d := y - e.cy; {
		case d == 0:
			vCost, vKind = 0, vNone
		case d > 0:
			if c := csiLen(d); c < vCost {
				vCost, vKind = c, vCUD
			}
		default:
			if c := csiLen(-d); c < vCost {
				vCost, vKind = c, vCUU
			}
			if !e.scrolling && 2*-d < vCost {
				vCost, vKind = 2*-d, vRI
			}
		}
	}
	if m := (move{h: hKind, v: vKind, cost: hCost + vCost}); m.cost < best.cost {
		best = m
	}
	// CR + LFs: the cheapest way to the start of a lower row.
	if e.cy >= 0 && y > e.cy && !e.scrolling {
		if c := crCost + (y - e.cy); c < best.cost {
			best = move{h: hCR, v: vLF, cost: c}
		}
	}
	return best
}

// moveTo positions the cursor at (x, y) by the cheapest plan.
func (e *encoder) moveTo(x, y int) {
	m := e.plan(x, y)
	if m.cost == 0 {
		return
	}
	e.stats.Moves++
	if m.v == vCUP {
		e.buf = append(e.buf, '\x1b', '[')
		if y > 0 {
			e.buf = strconv.AppendInt(e.buf, int64(y+1), 10)
		}
		if x > 0 {
			e.buf = append(e.buf, ';')
			e.buf = strconv.AppendInt(e.buf, int64(x+1), 10)
		}
		e.buf = append(e.buf, 'H')
		e.cx, e.cy = x, y
		return
	}
	if m.h == hCR {
		e.buf = append(e.buf, '\r')
		e.cx = 0
	}
	switch m.v {
	case vCUD:
		e.csi(y-e.cy, 'B')
	case vCUU:
		e.csi(e.cy-y, 'A')
	case vLF:
		for range y - e.cy {
			e.buf = append(e.buf, '\n')
		}
	case vRI:
		for range e.cy - y {
			e.buf = append(e.buf, '\x1b', 'M')
		}
	case vVPA:
		e.csi(y+1, 'd')
	}
	e.cy = y
	switch m.h {
	case hCR:
		if x > 0 {
			e.csi(x, 'C')
		}
	case hCUF:
		e.csi(x-e.cx, 'C')
	case hCUB:
		e.csi(e.cx-x, 'D')
	case hBS:
		for range e.cx - x {
			e.buf = append(e.buf, '\b')
		}
	case hCHA:
		e.csi(x+1, 'G')
	}
	e.cx = x
}

// setPen moves the terminal's SGR state to st (already degraded).
func (e *encoder) setPen(st Style) {
	if st == e.pen {
		return
	}
	e.buf = appendSGR(e.buf, e.pen, st)
	e.pen = st
	e.stats.SGR++
}

// setLink opens url (closing any open link), or closes the open link
// when url is "".
func (e *encoder) setLink(url string) {
	if url == e.link {
		return
	}
	e.stats.Links++
	if url == "" {
		e.buf = append(e.buf, "\x1b]8;;\a"...)
	} else {
		e.buf = append(e.buf, "\x1b]8;id="...)
		e.buf = e.ids.appendID(e.buf, url)
		e.buf = append(e.buf, ';')
		e.buf = append(e.buf, url...)
		e.buf = append(e.buf, '\a')
	}
	e.link = url
}

// penFor picks the pen to draw c with, starting from pen: the cell's own
// style, or, for a blank that shows only its background, pen with that
// background when switching to it is no dearer. Keeping the foreground
// and attributes across the spaces between words is what saves the
// SGR pairs around every space of a styled run.
func (e *encoder) penFor(pen Style, c *Cell) Style {
	st := e.adapt(c.Style)
	if st == pen || c.Grapheme != "" || c.kind != narrowCell || st.Attrs != 0 {
		return st
	}
	keep := pen
	keep.Bg = st.Bg
	keep.Attrs &^= Reverse | Underline | Strikethrough
	if keep == pen || sgrLen(pen, keep) <= sgrLen(pen, st) {
		return keep
	}
	return st
}

// writeCell draws c at the cursor (the caller has positioned it).
func (e *encoder) writeCell(c *Cell) {
	e.setPen(e.penFor(e.pen, c))
	if e.links {
		e.setLink(c.Link)
	}
	if c.Grapheme == "" {
		e.buf = append(e.buf, ' ')
	} else {
		e.buf = append(e.buf, c.Grapheme...)
	}
	if e.cx < 0 {
		return
	}
	e.cx += c.Width()
	if e.cx >= e.width || len(c.Grapheme) > 1 && driftProne(c.Grapheme) {
		e.cx = -1
	}
}

// blankShows are the attributes a blank cell shows besides its
// background.
const blankShows = Reverse | Underline | Strikethrough

// leadInto sets the pen for the blank c at x, when it starts a run of
// changed blanks in one background that the next changed cell follows,
// to that cell's style if it has the same background and switching once
// is shorter than switching for the blanks and again after them: the
// indentation of a line of code costs one SGR, not two.
func (e *encoder) leadInto(c *Cell, x, last int, old, want []Cell) {
	if !c.IsBlank() {
		return
	}
	st := e.adapt(c.Style)
	if st.Attrs&blankShows != 0 {
		return
	}
	j := x + 1
	for j <= last && want[j].IsBlank() && !old[j].same(&want[j]) && e.adapt(want[j].Style) == st {
		j++
	}
	if j > last || old[j].same(&want[j]) || want[j].IsBlank() || want[j].kind == continuation {
		return
	}
	next := e.adapt(want[j].Style)
	if next.Bg != st.Bg || next.Attrs&blankShows != 0 || next == e.pen {
		return
	}
	blank := e.penFor(e.pen, c)
	if sgrLen(e.pen, next) < sgrLen(e.pen, blank)+sgrLen(blank, next) {
		e.setPen(next)
	}
}

// erasePen is the cheapest pen that erases to background bg: the current
// one with bg swapped in and the attributes that would show on a blank
// dropped, or a plain pen with only bg.
func (e *encoder) erasePen(bg Color) Style {
	plain := Style{Bg: AdaptColor(bg, e.colors)}
	keep := e.pen
	keep.Bg = plain.Bg
	keep.Attrs &^= Reverse | Underline | Strikethrough
	if keep == e.pen || sgrLen(e.pen, keep) <= sgrLen(e.pen, plain) {
		return keep
	}
	return plain
}

// readyErase prepares the pen and link state for an erase to bg.
func (e *encoder) readyErase(bg Color) {
	e.setPen(e.erasePen(bg))
	if e.link != "" {
		e.setLink("")
	}
}

// eraseCost prices readyErase(bg).
func (e *encoder) eraseCost(bg Color) int {
	c := sgrLen(e.pen, e.erasePen(bg))
	if e.link != "" {
		c += 7
	}
	return c
}

// cellCost prices writing c with the pen at *pen, advancing *pen.
func (e *encoder) cellCost(c *Cell, pen *Style, link *string) int {
	st := e.penFor(*pen, c)
	n := sgrLen(*pen, st)
	*pen = st
	if e.links {
		n += e.linkCost(*link, c.Link)
		*link = c.Link
	}
	if c.Grapheme == "" {
		return n + 1
	}
	return n + len(c.Grapheme)
}

// linkCost prices switching the open link from one target to another,
// roughly for an opening (its id's length varies).
func (e *encoder) linkCost(from, to string) int {
	switch {
	case !e.links || from == to:
		return 0
	case to == "":
		return 7
	default:
		return 14 + len(to)
	}
}

// encodeRow writes what it takes to turn the terminal's row y, which
// shows old, into want. It returns the number of cells changed.
func (e *encoder) encodeRow(y int, old, want []Cell) int {
	if identicalCells(old, want) {
		return 0
	}
	w := len(want)
	x := 0
	for x < w && old[x].same(&want[x]) {
		x++
	}
	if x == w {
		return 0
	}
	last := w - 1
	for old[last].same(&want[last]) {
		last--
	}
	if n, ok := e.tryEraseLeft(y, x, old, want); ok {
		return n
	}
	if last-x >= minShiftSpan {
		if n, ok := e.tryShift(y, x, last, old, want); ok {
			return n
		}
	}
	return e.drawRow(y, x, last, old, want)
}

// tryEraseLeft handles a row that starts with a run of blanks in one
// background (indented code on a coloured block) holding the first
// change: it prices erasing the run with EL 1 from its last cell against
// drawing it, and writes the cheaper; ok reports whether it wrote the
// row.
func (e *encoder) tryEraseLeft(y, x int, old, want []Cell) (changed int, ok bool) {
	w := len(want)
	if !e.erasable(&want[0]) {
		return 0, false
	}
	bg := want[0].Style.Bg
	j := 1
	for j < w && e.erasable(&want[j]) && want[j].Style.Bg == bg {
		j++
	}
	// EL 1 erases through the cursor's cell; a wide cluster cut there
	// would leave its other half to the terminal's judgement.
	if j < 2 || x >= j || j < w && old[j].kind == continuation {
		return 0, false
	}
	// Drawing the changed blanks costs a byte each; erasing them costs
	// the 4 bytes of EL 1 and a step right after it. Up to 4 blanks,
	// drawing wins without pricing.
	if j-x <= 4 {
		return 0, false
	}
	if cap(e.shiftRow) < w {
		e.shiftRow = make([]Cell, w)
	}
	erased := e.shiftRow[:w]
	copy(erased, old)
	fillCells(erased[:j], Cell{Style: Style{Bg: bg}})

	start := len(e.buf)
	before := *e
	e.moveTo(j-1, y)
	e.readyErase(bg)
	e.buf = append(e.buf, "\x1b[1K"...)
	e.stats.Erases++
	altChanged := countChanged(old[:j], want[:j]) + e.encodeShifted(y, erased, want)
	altBytes := append(e.shiftBytes[:0], e.buf[start:]...)
	alt := *e

	*e = before
	e.shiftBytes = altBytes
	e.buf = e.buf[:start]
	last := w - 1
	for old[last].same(&want[last]) {
		last--
	}
	changed = e.drawRow(y, x, last, old, want)
	if len(e.buf)-start <= len(altBytes) {
		return changed, true
	}
	buf := append(e.buf[:start], altBytes...)
	*e = alt
	e.buf, e.shiftBytes = buf, altBytes
	return altChanged, true
}

// drawRow is encodeRow once the changed span [x, last] is known.
func (e *encoder) drawRow(y, x, last int, old, want []Cell) int {
	w := len(want)
	// tail is where the run of erasable blanks in one background that
	// ends the row begins.
	tail := w
	if e.erasable(&want[w-1]) {
		bg := want[w-1].Style.Bg
		for tail > 0 && e.erasable(&want[tail-1]) && want[tail-1].Style.Bg == bg {
			tail--
		}
	}
	changed := 0
	for x <= last {
		c := &want[x]
		if old[x].same(c) {
			x++
			continue
		}
		if c.kind == continuation && x > 0 {
			// The lead is unchanged but its right half is not what the
			// terminal shows: rewrite the whole cluster.
			x--
			c = &want[x]
		}
		if x >= tail && !e.noEL && e.tryEraseLine(x, y, old, want) {
			return changed + countChanged(old[x:], want[x:])
		}
		if e.erasable(c) {
			if n := e.tryEraseChars(x, y, min(tail, last+1), old, want); n > 0 {
				changed += countChanged(old[x:x+n], want[x:x+n])
				x += n
				continue
			}
		}
		e.reach(x, y, want)
		e.leadInto(c, x, last, old, want)
		e.writeCell(c)
		changed++
		if c.kind == wideCell {
			changed++
			x += 2
		} else {
			x++
		}
	}
	return changed
}

func countChanged(old, want []Cell) int {
	n := 0
	for i := range want {
		if !old[i].same(&want[i]) {
			n++
		}
	}
	return n
}

// reach puts the cursor at (x, y) by the cheapest of moving there and
// rewriting unchanged cells into it: from the cursor when it is up to 8
// cells to the left on the same row, or from a column up to 3 cells to
// the left that is cheaper to move to (column 1 instead of 2, say).
func (e *encoder) reach(x, y int, want []Cell) {
	if e.cx == x && e.cy == y {
		return
	}
	best := e.plan(x, y).cost + sgrLen(e.pen, e.penFor(e.pen, &want[x])) + e.linkCost(e.link, want[x].Link)
	from := x
	try := func(s int) {
		if s < 0 || s >= x || want[s].kind == continuation {
			return
		}
		cost := e.plan(s, y).cost
		pen, link := e.pen, e.link
		for i := s; i < x && cost < best; i++ {
			c := &want[i]
			if driftProne(c.Grapheme) {
				return
			}
			if c.kind != continuation {
				cost += e.cellCost(c, &pen, &link)
			}
		}
		if cost += sgrLen(pen, e.penFor(pen, &want[x])) + e.linkCost(link, want[x].Link); cost < best {
			best, from = cost, s
		}
	}
	if e.cy == y && e.cx >= 0 && e.cx < x-3 && e.cx >= x-8 {
		try(e.cx)
	}
	for s := x - 3; s < x; s++ {
		try(s)
	}
	if from == x {
		e.moveTo(x, y)
		return
	}
	e.moveTo(from, y)
	for i := from; i < x; {
		c := &want[i]
		e.writeCell(c)
		i += c.Width()
	}
}

// tryEraseLine erases from x to the end of row y with EL when that is
// cheaper than drawing the changed cells; it reports whether it did.
func (e *encoder) tryEraseLine(x, y int, old, want []Cell) bool {
	bg := want[x].Style.Bg
	el := e.plan(x, y).cost + e.eraseCost(bg) + 3
	// What drawing would cost, roughly: a space per changed cell plus a
	// short move over each unchanged gap.
	draw := e.plan(x, y).cost + sgrLen(e.pen, e.penFor(e.pen, &want[x]))
	gap := 0
	for i := x; i < len(want) && draw < el; i++ {
		if old[i].same(&want[i]) {
			gap++
			continue
		}
		if gap > 0 {
			draw += min(gap, 4)
			gap = 0
		}
		draw++
	}
	if draw < el {
		return false
	}
	e.moveTo(x, y)
	e.readyErase(bg)
	e.buf = append(e.buf, "\x1b[K"...)
	e.stats.Erases++
	return true
}

// tryEraseChars erases the run of blanks starting at x (and ending
// before limit) with ECH when that, plus the move past it, is cheaper
// than drawing spaces; it returns the number of cells handled, 0 when it
// did nothing.
func (e *encoder) tryEraseChars(x, y, limit int, old, want []Cell) int {
	bg := want[x].Style.Bg
	end := x
	lastChanged := x
	for end < limit && e.erasable(&want[end]) && want[end].Style.Bg == bg {
		if !old[end].same(&want[end]) {
			lastChanged = end
		}
		end++
	}
	n := lastChanged - x + 1
	if n < 4 {
		return 0
	}
	// The next cell to draw after the run decides what each choice costs
	// afterwards.
	next := lastChanged + 1
	for next < len(want) && old[next].same(&want[next]) {
		next++
	}
	at := e.plan(x, y).cost
	spaces := at + sgrLen(e.pen, e.penFor(e.pen, &want[x])) + n
	ech := at + e.eraseCost(bg) + csiLen(n)
	if next < len(want) {
		savedX, savedY := e.cx, e.cy
		e.cx, e.cy = x+n, y
		spaces += e.plan(next, y).cost
		e.cx = x
		ech += e.plan(next, y).cost
		e.cx, e.cy = savedX, savedY
	}
	if ech >= spaces {
		return 0
	}
	e.moveTo(x, y)
	e.readyErase(bg)
	e.csi(n, 'X')
	e.stats.Erases++
	return n
}

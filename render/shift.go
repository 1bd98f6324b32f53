package render

// A row whose change includes an insertion or deletion of a few cells
// (typing in the middle of the prompt, a counter that lost digits) is
// cheaper to fix by shifting the rest of the row with ICH or DCH than by
// rewriting it. The shift is priced against the plain rewrite byte for
// byte, like a scroll.

const (
	// minShiftSpan is the shortest changed span worth checking for a
	// shift, maxShift the most cells inserted or deleted at once, and
	// minShiftRun the fewest cells a shift must put right.
	minShiftSpan = 6
	maxShift     = 8
	minShiftRun  = 4
)

// tryShift encodes row y as the cells before the shift point, an ICH or
// DCH there, and what is left to draw, when the changed span [x, last]
// holds a shift and that is cheaper than drawing; ok reports whether it
// wrote the row either way.
func (e *encoder) tryShift(y, x, last int, old, want []Cell) (changed int, ok bool) {
	p, k, insert := findShift(x, last, old, want)
	if k == 0 {
		return 0, false
	}
	w := len(want)
	if cap(e.shiftRow) < w {
		e.shiftRow = make([]Cell, w)
	}
	// The cells coming in are blanks in the pen's background (with BCE):
	// for a deletion, pick the background the end of the row wants.
	bg := DefaultColor
	if !insert && !e.noBCE && e.erasable(&want[w-1]) {
		bg = want[w-1].Style.Bg
	}
	blank := Cell{Style: Style{Bg: bg}}
	shifted := e.shiftRow[:w]
	copy(shifted, old)
	if insert {
		copy(shifted[p+k:], old[p:w-k])
		fillCells(shifted[p:p+k], blank)
	} else {
		copy(shifted[p:], old[p+k:])
		fillCells(shifted[w-k:], blank)
	}
	// The cells before p are drawn over the unshifted row, which ends
	// where the cursor must be for the shift.
	copy(shifted[:p], want[:p])

	start := len(e.buf)
	before := *e
	altChanged := 0
	if p > x {
		e.noEL = true // an erase to the end of the row would take the cells to shift
		altChanged = e.drawRow(y, x, p-1, old, want)
		e.noEL = false
	}
	e.moveTo(p, y)
	e.readyErase(bg)
	if insert {
		e.csi(k, '@')
	} else {
		e.csi(k, 'P')
	}
	e.stats.Shifts++
	altChanged += e.encodeShifted(y, shifted, want)
	altBytes := append(e.shiftBytes[:0], e.buf[start:]...)
	alt := *e

	*e = before
	e.shiftBytes = altBytes
	e.buf = e.buf[:start]
	changed = e.drawRow(y, x, last, old, want)
	if len(e.buf)-start <= len(altBytes) {
		return changed, true
	}
	buf := append(e.buf[:start], altBytes...)
	*e = alt
	e.buf, e.shiftBytes = buf, altBytes
	return altChanged, true
}

// encodeShifted draws want over a row that shows shifted.
func (e *encoder) encodeShifted(y int, shifted, want []Cell) int {
	x := 0
	for x < len(want) && shifted[x].same(&want[x]) {
		x++
	}
	if x == len(want) {
		return 0
	}
	last := len(want) - 1
	for shifted[last].same(&want[last]) {
		last--
	}
	return e.drawRow(y, x, last, shifted, want)
}

// findShift looks in the changed span [x, last] for k cells inserted (or
// deleted) at p that would make the longest run of cells up to the end
// of the span what the terminal already shows, shifted. It returns k = 0
// when there is none worth pricing. Rows where the shifted part holds
// wide or multi-code-point clusters are left alone: terminals disagree on
// what ICH and DCH do to those.
func findShift(x, last int, old, want []Cell) (p, k int, insert bool) {
	w := len(want)
	best := minShiftRun - 1
	for n := 1; n <= maxShift && x+n <= last; n++ {
		// Insertion of n at q: want[i] == old[i-n] for i in [q+n, last].
		i := last
		for i-n >= x && want[i].same(&old[i-n]) {
			i--
		}
		if run := last - i; run > best && shiftable(old, want, i+1-n) {
			best, p, k, insert = run, i+1-n, n, true
		}
		// Deletion of n at q: want[i] == old[i+n] for i in [q, end].
		end := min(last, w-1-n)
		i = end
		for i >= x && want[i].same(&old[i+n]) {
			i--
		}
		if run := end - i; run > best && shiftable(old, want, i+1) {
			best, p, k, insert = run, i+1, n, false
		}
	}
	return p, k, insert
}

// shiftable reports whether the row can be shifted at p: nothing from p
// on is wide or a cluster a terminal may measure differently.
func shiftable(old, want []Cell, p int) bool {
	if want[p].kind == continuation {
		return false
	}
	for i := p; i < len(old); i++ {
		if old[i].kind != narrowCell || len(old[i].Grapheme) > 1 && driftProne(old[i].Grapheme) {
			return false
		}
	}
	return true
}

func fillCells(cells []Cell, c Cell) {
	for i := range cells {
		cells[i] = c
	}
}

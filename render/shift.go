package render

// A row whose change is one insertion or deletion of a few cells (typing
// in the middle of the prompt, a counter that gained a digit) is cheaper
// to fix by shifting the rest of the row with ICH or DCH than by
// rewriting it. The shift is priced against the plain rewrite byte for
// byte, like a scroll.

const (
	// minShiftSpan is the shortest changed span worth checking for a
	// shift, maxShift the most cells inserted or deleted at once.
	minShiftSpan = 6
	maxShift     = 8
)

// tryShift encodes row y as an ICH or DCH at x followed by what is left
// to draw, when the change in [x, last] is a shift and that is cheaper
// than drawing; ok reports whether it wrote the row either way.
func (e *encoder) tryShift(y, x, last int, old, want []Cell) (changed int, ok bool) {
	k, insert := findShift(x, last, old, want)
	if k == 0 {
		return 0, false
	}
	w := len(want)
	if cap(e.shiftRow) < w {
		e.shiftRow = make([]Cell, w)
	}
	shifted := e.shiftRow[:w]
	copy(shifted, old)
	if insert {
		copy(shifted[x+k:], old[x:w-k])
		clear(shifted[x : x+k])
	} else {
		copy(shifted[x:], old[x+k:])
		clear(shifted[w-k:])
	}

	start := len(e.buf)
	before := *e
	e.moveTo(x, y)
	e.readyErase(DefaultColor) // the cells coming in are blanks in the pen's background
	if insert {
		e.csi(k, '@')
	} else {
		e.csi(k, 'P')
	}
	e.stats.Shifts++
	altChanged := k + e.encodeShifted(y, shifted, want)
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
	for x < len(want) && shifted[x] == want[x] {
		x++
	}
	if x == len(want) {
		return 0
	}
	last := len(want) - 1
	for shifted[last] == want[last] {
		last--
	}
	return e.drawRow(y, x, last, shifted, want)
}

// findShift looks for k cells inserted (or deleted) at x that would make
// the rest of the changed span [x, last] what the terminal already shows,
// shifted. It returns k = 0 when there is none. Rows where a shift would
// split a wide cluster, or move a cluster the terminal may measure
// differently, are left alone.
func findShift(x, last int, old, want []Cell) (k int, insert bool) {
	w := len(want)
	if want[x].kind == continuation {
		return 0, false
	}
	// Terminals disagree on what ICH and DCH do to wide clusters (split
	// halves, halves left behind when one is cleared), so only rows whose
	// shifted part is all single-width, single-code-point cells qualify.
	for i := x; i < w; i++ {
		if old[i].kind != narrowCell || len(old[i].Grapheme) > 1 && driftProne(old[i].Grapheme) {
			return 0, false
		}
	}
	for k := 1; k <= maxShift && x+k <= last; k++ {
		// Insertion: want[x+k:last+1] is old[x:last+1-k].
		if want[x+k].kind != continuation && sameCells(want[x+k:last+1], old[x:last+1-k]) {
			return k, true
		}
		// Deletion: want[x:last+1-k] is old[x+k:last+1].
		if sameCells(want[x:last+1-k], old[x+k:last+1]) {
			return k, false
		}
	}
	return 0, false
}

func sameCells(a, b []Cell) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

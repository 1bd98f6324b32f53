package render

// A frame that rewrites much of the screen (after a resize, a page of
// scrolling) draws, in reading order, many short runs of a few styles.
// When a style's SGR is long (a 24-bit foreground and background is 33
// bytes) and it comes back run after run (the inline code spans of a
// paragraph), switching the pen to it and back at every run costs more
// than leaving its runs for last: the rows are drawn without them, the
// cursor stepping over where they go, and then each such style's runs
// are drawn in a pass of their own, one SGR for all of them and a cursor
// move to each. Whether that wins depends on the moves, so it is decided
// the way scrolling is: both encodings are made and the shorter kept.
//
// The second encoding is cheap: a row without deferred runs, entered in
// the state the first encoding entered it in, comes out byte for byte
// the same, so its bytes are copied from the first (rowLog).

const (
	// minDeferBytes is how long a frame's cell changes must be before a
	// second encoding is worth its time: short frames cannot hold the
	// repeated long SGRs this saves.
	minDeferBytes = 512
	// maxStyleStats bounds the styles counted per frame; styles past it
	// are not candidates.
	maxStyleStats = 24
	// maxDeferred bounds the styles deferred, and so the passes.
	maxDeferred = 3
	// deferMoveCost is a typical cursor move to a deferred run and past
	// its gap, for choosing the styles; the real cost is measured.
	deferMoveCost = 10
)

// styleStat counts the runs of one style among a frame's changed cells.
type styleStat struct {
	style Style // as written: adapted to the colour level
	runs  int
	score int
	pass  int // index of the style's pass, or -1 when it is not deferred
}

// deferral holds the scratch space for pricing deferred styles; it is
// reused from frame to frame so that steady frames allocate nothing.
type deferral struct {
	stats  [maxStyleStats]styleStat
	n      int
	passes int
	runs   []deferredRun // in reading order
	stage  *Buffer       // what the terminal shows after the passes so far
	row    []Cell        // a row of the next pass
	buf    []byte        // spare frame bytes, rotated with the encoder's
	// force makes every frame defer every style it can, whatever that
	// costs, so tests can check the passes against a terminal.
	force bool
}

// deferredRun is a run of changed cells, whole clusters, in one style.
// Before the styles are chosen, style indexes d.stats; after, it is the
// run's pass.
type deferredRun struct {
	y, x, end int
	style     int
}

// rowLog records, for an encoding of a frame's rows, the encoder it
// started from, and where each row's bytes begin and the encoder's state
// there: marks[y] before row y, marks[height] after the last.
type rowLog struct {
	start encoder
	marks []rowMark
}

// rowMark is the encoder state a row's encoding depends on and changes,
// with the offset of its bytes and the escape counts so far.
type rowMark struct {
	off    int
	cx, cy int
	pen    Style
	link   string
	stats  Stats
}

// begin starts a log of an encoding whose rows start from e.
func (l *rowLog) begin(e *encoder) {
	l.start = *e
	l.marks = l.marks[:0]
}

func (l *rowLog) mark(e *encoder) {
	l.marks = append(l.marks, rowMark{off: len(e.buf), cx: e.cx, cy: e.cy, pen: e.pen, link: e.link, stats: e.stats})
}

// complete reports whether the log covers all height rows.
func (l *rowLog) complete(height int) bool { return len(l.marks) == height+1 }

// enters reports whether e is in the state the logged encoding entered
// row y in.
func (l *rowLog) enters(e *encoder, y int) bool {
	m := &l.marks[y]
	return e.cx == m.cx && e.cy == m.cy && e.pen == m.pen && e.link == m.link
}

// replay writes row y as the logged encoding did, from its bytes in
// logged, and leaves e in the state that encoding left the row in. Row
// encoding counts only moves, SGR, erases, shifts and links.
func (l *rowLog) replay(e *encoder, y int, logged []byte) {
	from, to := &l.marks[y], &l.marks[y+1]
	e.buf = append(e.buf, logged[from.off:to.off]...)
	e.cx, e.cy, e.pen, e.link = to.cx, to.cy, to.pen, to.link
	e.stats.Moves += to.stats.Moves - from.stats.Moves
	e.stats.SGR += to.stats.SGR - from.stats.SGR
	e.stats.Erases += to.stats.Erases - from.stats.Erases
	e.stats.Shifts += to.stats.Shifts - from.stats.Shifts
	e.stats.Links += to.stats.Links - from.stats.Links
}

// deferStyles prices the rows just encoded, which turned old into the
// back buffer, against encoding them with the styles worth deferring
// drawn last, and keeps the shorter.
func (s *Screen) deferStyles(old *Buffer) {
	e, d := &s.enc, &s.dfr
	log := s.logFor(old)
	start := &log.start
	startLen := len(start.buf)
	if !d.force && len(e.buf)-startLen < minDeferBytes || !log.complete(s.back.height) {
		return
	}
	if d.choose(e, old, s.back) == 0 {
		return
	}
	best := *e
	e.restore(start)
	e.buf = append(d.buf[:0], best.buf[:startLen]...)
	budget := len(best.buf)
	if d.force {
		budget = -1
	}
	if s.encodeDeferred(old, log, best.buf, budget) && (d.force || len(e.buf) < len(best.buf)) {
		d.buf = best.buf
		e.stats.CellsChanged = best.stats.CellsChanged
		return
	}
	d.buf = e.buf
	e.restore(&best)
}

// restore puts e back in the state snap, keeping e's scratch space: a
// snapshot holds the scratch as it was, and restoring that would drop
// what has grown since, to be allocated again next frame.
func (e *encoder) restore(snap *encoder) {
	row, bytes := e.shiftRow, e.shiftBytes
	*e = *snap
	e.shiftRow, e.shiftBytes = row, bytes
}

// encodeDeferred encodes the change from old to the back buffer in
// passes: everything but the deferred runs, then the runs one style at
// a time. Rows of the first pass without deferred runs are replayed from
// log when the encoder enters them as it did there. It reports false as
// soon as the frame grows past budget (when budget is not negative).
func (s *Screen) encodeDeferred(old *Buffer, log *rowLog, logged []byte, budget int) bool {
	e, d := &s.enc, &s.dfr
	d.withhold(old, s.back)
	runs := d.runs
	for y := range s.back.height {
		held := len(runs) > 0 && runs[0].y == y
		for len(runs) > 0 && runs[0].y == y {
			runs = runs[1:]
		}
		if !held && log.enters(e, y) {
			log.replay(e, y, logged)
		} else {
			e.encodeRow(y, old.row(y), d.stage.row(y))
		}
		if budget >= 0 && len(e.buf) >= budget {
			return false
		}
	}
	w := s.back.width
	if cap(d.row) < w {
		d.row = make([]Cell, w)
	}
	row := d.row[:w]
	for k := range d.passes {
		for i := 0; i < len(d.runs); {
			y, released := d.runs[i].y, false
			stage, want := d.stage.row(y), s.back.row(y)
			j := i
			for ; j < len(d.runs) && d.runs[j].y == y; j++ {
				if r := d.runs[j]; r.style == k {
					if !released {
						copy(row, stage)
						released = true
					}
					copy(row[r.x:r.end], want[r.x:r.end])
				}
			}
			i = j
			if !released {
				continue
			}
			e.encodeRow(y, stage, row)
			copy(stage, row)
			if budget >= 0 && len(e.buf) >= budget {
				return false
			}
		}
	}
	return true
}

// choose lists the deferrable runs from old to want, picks the styles
// worth deferring (at most maxDeferred, best first) and numbers their
// passes. It returns how many styles it picked.
func (d *deferral) choose(e *encoder, old, want *Buffer) int {
	d.n, d.passes = 0, 0
	d.runs = d.runs[:0]
	for y := range want.height {
		o, w := old.row(y), want.row(y)
		for x := 0; x < len(w); {
			if o[x].same(&w[x]) {
				x++
				continue
			}
			end := runEnd(o, w, x)
			if deferrable(o, w, x, end) {
				if i := d.tally(e.adapt(w[x].Style)); i >= 0 {
					d.runs = append(d.runs, deferredRun{y: y, x: x, end: end, style: i})
				}
			}
			x = end
		}
	}
	for range maxDeferred {
		best := -1
		for i := range d.stats[:d.n] {
			s := &d.stats[i]
			if s.pass >= 0 || !d.force && (s.runs < 2 || s.score <= 0) {
				continue
			}
			if best < 0 || s.score > d.stats[best].score {
				best = i
			}
		}
		if best < 0 {
			break
		}
		d.stats[best].pass = d.passes
		d.passes++
	}
	return d.passes
}

// tally counts one run of st and returns st's index in d.stats, or -1
// when the table is full.
func (d *deferral) tally(st Style) int {
	for i := range d.stats[:d.n] {
		if s := &d.stats[i]; s.style == st {
			s.runs++
			s.score += sgrLen(Style{}, st) - deferMoveCost
			return i
		}
	}
	if d.n == maxStyleStats {
		return -1
	}
	// The first run pays the style's SGR either way.
	d.stats[d.n] = styleStat{style: st, runs: 1, score: -deferMoveCost, pass: -1}
	d.n++
	return d.n - 1
}

// withhold keeps the runs of the chosen styles in d.runs, renumbered by
// pass, and fills d.stage with want except those runs, which keep old's
// cells: the screen after the first pass.
func (d *deferral) withhold(old, want *Buffer) {
	d.stage.CopyFrom(want)
	kept := d.runs[:0]
	for _, r := range d.runs {
		pass := d.stats[r.style].pass
		if pass < 0 {
			continue
		}
		copy(d.stage.row(r.y)[r.x:r.end], old.row(r.y)[r.x:r.end])
		r.style = pass
		kept = append(kept, r)
	}
	d.runs = kept
}

// deferrable reports whether the run of cells from x to end-1 in want
// can be left for a later pass: it starts with something visible, has no
// link, and no cluster the terminal shows crosses its edges, so the row
// stays valid with the old cells in its place.
func deferrable(old, want []Cell, x, end int) bool {
	if want[x].IsBlank() || want[x].Link != "" || old[x].kind == continuation {
		return false
	}
	return end >= len(old) || old[end].kind != continuation
}

// runEnd returns the end of the run of changed cells from old to want
// that starts at x: the cells that follow in x's style and link, and the
// blanks among them, which keep only the part of the style a blank shows.
func runEnd(old, want []Cell, x int) int {
	st, link := want[x].Style, want[x].Link
	blank := blankStyle(st)
	end := x + 1
	for end < len(want) && !old[end].same(&want[end]) && want[end].Link == link &&
		(want[end].Style == st || want[end].IsBlank() && want[end].Style == blank) {
		end++
	}
	return end
}

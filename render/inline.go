package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Inline is a live region of a few rows on the normal screen, below the
// terminal's own content, with finished lines inserted above it so that
// they scroll into the terminal's native scrollback exactly once.
//
// The region starts at the cursor's row and grows downwards; once it
// reaches the bottom of the screen it stays pinned there, and inserted
// lines push older content up into scrollback. Rows below the region are
// always blank.
type Inline struct {
	out      io.Writer
	enc      encoder
	width    int
	screenH  int
	top      int     // screen row of the region's first row
	front    *Buffer // what the region shows; its height is the region's height on screen
	back     *Buffer
	line     *Buffer // scratch row for inserted lines
	blank    []Cell  // a blank row, what inserted lines are drawn over
	shifted  *Buffer // the front as a scroll inside the region leaves it
	alt      []byte  // second frame buffer, for pricing that scroll
	hf, hb   []uint64
	pending  []Line
	want     CursorState
	visible  bool
	started  bool
	purge    bool
	reanchor bool
	invalid  bool   // the terminal's pen and cursor are unknown
	keep     bool   // Options.KeepScrollback: never purge
	raw      []byte // bytes for the next frame after its cells (AppendRaw)
	// redrawFirst makes a frame finish its redraw before it prices a
	// scroll, so tests can check that stopping the redraw early chooses
	// the same bytes.
	redrawFirst bool
}

// AppendRaw queues bytes (a bell, say) to be written inside the next
// frame's bracket after its cells. A frame carrying raw bytes is never
// empty, and the cursor is repositioned after them.
func (v *Inline) AppendRaw(p []byte) { v.raw = append(v.raw, p...) }

// NewInline returns an inline viewport for a terminal of the given width
// and screen height whose cursor is at the start of row cursorRow
// (0-based). The live region is empty until SetLiveHeight; nothing is
// written until the first Flush.
func NewInline(out io.Writer, width, screenHeight, cursorRow int, opts Options) *Inline {
	width, screenHeight = max(width, 1), max(screenHeight, 1)
	v := &Inline{
		out:     out,
		enc:     newEncoder(width, screenHeight, opts),
		width:   width,
		screenH: screenHeight,
		top:     min(max(cursorRow, 0), screenHeight-1),
		front:   NewBuffer(width, 0),
		back:    NewBuffer(width, 0),
		line:    NewBuffer(width, 1),
		blank:   make([]Cell, width),
		shifted: NewBuffer(width, 0),
		visible: true,
		keep:    opts.KeepScrollback,
	}
	v.enc.cy = v.top
	return v
}

// Live is the buffer the live region's next frame is drawn into. It is the
// same *Buffer for the viewport's whole life, and blank after every Flush.
func (v *Inline) Live() *Buffer { return v.back }

// SetLiveHeight sets the live region's height in rows (at most the screen
// height). Live is resized at once, keeping what fits; the terminal
// follows on the next Flush.
func (v *Inline) SetLiveHeight(rows int) {
	v.back.Resize(v.width, min(max(rows, 0), v.screenH))
}

// Region reports where the live region was on screen after the last
// Flush: its first row and its height.
func (v *Inline) Region() (top, height int) {
	_, h := v.front.Size()
	return v.top, h
}

// SetCursor sets where the cursor should be after the next Flush,
// relative to the live region, and whether it shows.
func (v *Inline) SetCursor(x, y int, visible bool) {
	v.want = CursorState{X: x, Y: y, Visible: visible}
}

// InsertAbove queues finished lines to be written above the live region
// by the next Flush, inside the same bracket. Lines longer than the width
// are clipped; wrap them first. The lines must not be modified before
// that Flush.
func (v *Inline) InsertAbove(lines ...Line) {
	v.pending = append(v.pending, lines...)
}

// Resize tells the viewport the terminal's new size. A new width purges:
// the next Flush clears the screen and the scrollback (the terminal has
// already reflowed them unpredictably) and writes whatever the caller
// inserted since, re-wrapped at the new width, then the live region;
// lines queued before the Resize are dropped (they were wrapped for the
// old width). A
// height-only change keeps the scrollback: the region is redrawn where the
// terminal put the cursor, assuming it kept the cursor's row, or the last
// row if that no longer exists (xterm's behaviour); call Reanchor when
// the real row is known. With Options.KeepScrollback a new width does not
// purge either: the region is redrawn from its row down and the history
// stays as the terminal rewrapped it.
func (v *Inline) Resize(width, screenHeight int) {
	width, screenHeight = max(width, 1), max(screenHeight, 1)
	if width == v.width && screenHeight == v.screenH {
		return
	}
	switch {
	case width != v.width && v.keep:
		// The scrollback cannot be cleared, so it is not reprinted: the
		// region is claimed again from its row down and redrawn at the
		// new width; what is above stays as the terminal left it.
		v.width = width
		v.line.Resize(width, 1)
		v.blank = make([]Cell, width)
		v.reanchor = true
		v.enc.cx, v.enc.cy = -1, -1
		v.top = min(v.top, screenHeight-1)
	case width != v.width:
		v.purge = true
		clear(v.pending)
		v.pending = v.pending[:0]
		v.width = width
		v.line.Resize(width, 1)
		v.blank = make([]Cell, width)
	case screenHeight != v.screenH && !v.purge:
		cy := v.enc.cy
		if cy < 0 {
			_, h := v.front.Size()
			cy = v.top + max(h-1, 0)
		}
		kept := min(cy, screenHeight-1)
		v.top = max(v.top-(cy-kept), 0)
		v.enc.cy = kept
		v.enc.cx = -1
		v.reanchor = true
	}
	v.screenH = screenHeight
	v.enc.width, v.enc.height = width, screenHeight
	_, bh := v.back.Size()
	v.back.Resize(width, min(bh, screenHeight))
	_, fh := v.front.Size()
	v.front.Resize(width, min(fh, screenHeight))
	v.top = min(v.top, screenHeight)
}

// SetOptions switches to new terminal capabilities (a probe answered
// after the first frame); when colours or links changed, the region is
// drawn again on the next Flush.
func (v *Inline) SetOptions(opts Options) {
	v.keep = opts.KeepScrollback
	if v.enc.setOptions(opts) && v.started {
		v.reanchor = true
	}
}

// Reanchor tells the viewport that its region now starts at screen row
// row and that the terminal's content from there down, its pen and its
// cursor are unknown (after a child process ran in the terminal, say).
// The next Flush resets the pen, clears from that row down and redraws
// the region.
func (v *Inline) Reanchor(row int) {
	v.top = min(max(row, 0), v.screenH-1)
	v.enc.cx, v.enc.cy = -1, -1
	v.reanchor, v.invalid = true, true
}

// Flush writes the queued lines above the live region and the live
// region's changes, as one Write wrapped in a synchronized-update
// bracket, then blanks Live. Nothing changed and nothing queued writes
// nothing.
func (v *Inline) Flush() (Stats, error) {
	e := &v.enc
	e.stats = Stats{}
	empty := e.begin()
	if v.invalid {
		e.forget()
		v.visible = true
		v.invalid = false
	}
	switch {
	case v.purge:
		e.setLink("")
		e.readyErase(DefaultColor)
		e.buf = append(e.buf, "\x1b[2J\x1b[3J\x1b[H"...)
		e.stats.Clears += 2
		e.stats.Moves++
		e.cx, e.cy = 0, 0
		v.top = 0
		v.front.Resize(v.width, 0)
		v.purge, v.reanchor, v.started = false, false, true
	case !v.started || v.reanchor:
		// Claim the rows from the region down: whatever they showed is
		// not ours to keep.
		e.moveTo(0, v.top)
		e.readyErase(DefaultColor)
		e.buf = append(e.buf, "\x1b[J"...)
		e.stats.Clears++
		v.front.Resize(v.width, 0) // the region regrows from here
		v.started, v.reanchor = true, false
	}
	v.insertPending()
	v.fitRegion()
	_, h := v.back.Size()
	v.encodeRegion(h)
	e.setLink("")
	if len(v.raw) > 0 {
		e.buf = append(e.buf, v.raw...)
		v.raw = v.raw[:0]
		e.cx, e.cy = -1, -1
	}
	wrote := len(e.buf) > empty
	want := v.want
	want.X = min(max(want.X, 0), v.width-1)
	// An empty region at the bottom sits just below the screen; its
	// cursor goes on the last row.
	want.Y = min(v.top+min(max(want.Y, 0), max(h-1, 0)), v.screenH-1)
	act := DecideCursor(CursorState{X: e.cx, Y: e.cy, Visible: v.visible}, want, wrote)
	if !wrote && act == CursorNone {
		v.swap()
		return Stats{}, nil
	}
	// A hidden cursor left outside the region is parked in it: terminals
	// anchor a resize on the cursor's row, and a cursor above the region
	// (where a scroll region homed it) would let a shrinking window cut
	// the region off instead of the history.
	outside := e.cy < v.top || e.cy >= v.top+max(h, 1)
	if act&CursorReposition != 0 || wrote && !want.Visible && outside {
		e.moveTo(want.X, want.Y)
	}
	e.cursorVisibility(act, &v.visible)
	e.end()
	e.stats.Bytes = len(e.buf)
	e.stats.Writes = 1
	v.swap()
	if _, err := v.out.Write(e.buf); err != nil {
		v.Reanchor(v.top)
		return e.stats, fmt.Errorf("render: writing inline frame: %w", err)
	}
	return e.stats, nil
}

// encodeRegion writes the changes to the region's h rows: the cheaper
// of a plain redraw and a scroll of some of its rows followed by what is
// left. A scroll pays when rows moved: the streamed tail moving up as it
// grows, or the prompt and status line moving down as the region grows.
// The redraw stops once enough rows changed to look for a scroll; when
// there is one, it is priced in full and the redraw goes on only while it
// can still win (a tie goes to the redraw): the choice a finished redraw
// priced against the scroll would make, without drawing every row of a
// frame that scrolls.
func (v *Inline) encodeRegion(h int) {
	e := &v.enc
	snapshot := *e
	prefix := len(e.buf)
	stopAt := minScrollGain
	if v.redrawFirst {
		stopAt = -1
	}
	cells, rows, y := v.continueRows(v.front, 0, -1, 0, 0, stopAt)
	if rows < minScrollGain {
		e.stats.CellsChanged += cells
		return
	}
	if cap(v.hf) < h {
		v.hf, v.hb = make([]uint64, h), make([]uint64, h)
	}
	hint := findScroll(v.front, v.back, v.hf[:h], v.hb[:h])
	if !hint.set || !v.validScroll(hint) {
		cells, _, _ = v.continueRows(v.front, y, -1, cells, rows, -1)
		e.stats.CellsChanged += cells
		return
	}
	if y == h {
		// The redraw is complete: price the scroll against it.
		plain := *e
		*e = snapshot
		v.beginScrolled(hint, prefix)
		scrolledCells, _ := v.encodeRows(v.shifted, len(plain.buf))
		if scrolledCells >= 0 && len(e.buf) < len(plain.buf) {
			e.stats.CellsChanged += scrolledCells
			v.alt = plain.buf
			return
		}
		v.alt = e.buf
		*e = plain
		e.stats.CellsChanged += cells
		return
	}
	paused := *e
	*e = snapshot
	v.beginScrolled(hint, prefix)
	scrolledCells, _ := v.encodeRows(v.shifted, -1)
	scrolled := *e
	*e = paused
	if cells, _, _ = v.continueRows(v.front, y, len(scrolled.buf)+1, cells, rows, -1); cells >= 0 {
		e.stats.CellsChanged += cells
		v.alt = scrolled.buf
		return
	}
	v.alt = e.buf
	*e = scrolled
	e.stats.CellsChanged += scrolledCells
}

// beginScrolled starts the scrolled encoding in the spare buffer after
// the frame's first prefix bytes: the scroll, and the front as it leaves
// it in shifted.
func (v *Inline) beginScrolled(hint scrollHint, prefix int) {
	e := &v.enc
	e.buf = append(v.alt[:0], e.buf[:prefix]...)
	v.emitScroll(hint)
	v.shifted.CopyFrom(v.front)
	shiftRows(v.shifted, hint.top, hint.bottom, hint.n)
}

// encodeRows writes the changes from old (the front, or the front as a
// scroll leaves it) to Live and returns the cells and rows changed, or -1
// cells as soon as the frame grows past budget bytes (negative: no limit).
func (v *Inline) encodeRows(old *Buffer, budget int) (cells, rows int) {
	cells, rows, _ = v.continueRows(old, 0, budget, 0, 0, -1)
	return cells, rows
}

// continueRows goes on with an encoding of the rows against old from row
// y, the counts so far being cells and rows, as encodeRows does; when
// stopAt is positive it stops after the row that brings the rows changed
// to stopAt, and returns the row to go on from.
func (v *Inline) continueRows(old *Buffer, y, budget, cells, rows, stopAt int) (int, int, int) {
	e := &v.enc
	_, h := v.back.Size()
	for ; y < h; y++ {
		n := e.encodeRow(v.top+y, old.row(y), v.back.row(y))
		cells += n
		if n > 0 {
			rows++
		}
		if budget >= 0 && len(e.buf) >= budget {
			return -1, rows, y + 1
		}
		if rows == stopAt && y+1 < h {
			return cells, rows, y + 1
		}
	}
	return cells, rows, y
}

// validScroll reports whether the terminal can move the region's rows
// as h says. A deletion at the screen's first row may enter the
// scrollback on some terminals, where a live row must never go.
func (v *Inline) validScroll(h scrollHint) bool {
	_, rh := v.back.Size()
	return h.top >= 0 && h.bottom <= rh && h.bottom-h.top >= 2 && h.n != 0 &&
		abs(h.n) < h.bottom-h.top && !(h.n > 0 && v.top+h.top == 0)
}

// emitScroll moves the region's rows [top, bottom) by n (up when
// positive), the rows it exposes blank and the rest of the screen as it
// was. Up is a deletion of n lines at the top and an insertion of n at
// the bottom, not a scroll region: on the normal screen tmux (and others)
// put what scrolls out of the top of any scroll region into the
// scrollback. Down scrolls a region, which loses the rows pushed out of
// its bottom everywhere.
func (v *Inline) emitScroll(h scrollHint) {
	e := &v.enc
	e.readyErase(DefaultColor)
	if h.n > 0 {
		e.moveTo(0, v.top+h.top)
		e.csi(h.n, 'M')
		e.moveTo(0, v.top+h.bottom-h.n)
		e.csi(h.n, 'L')
		e.stats.Scrolls++ // DL and IL, moving rows as a scroll would
		e.cx = 0
		return
	}
	v.setRegion(v.top+h.top, v.top+h.bottom)
	e.csi(-h.n, 'T')
	e.stats.Scrolls++
	v.resetRegion()
}

// swap makes the frame just written the front and blanks the back: the
// two trade cells when they are of one size, as they are frame after
// frame while the region keeps its height.
func (v *Inline) swap() {
	if v.front.width == v.back.width && v.front.height == v.back.height {
		v.front.cells, v.back.cells = v.back.cells, v.front.cells
	} else {
		v.front.CopyFrom(v.back)
	}
	v.back.Clear()
}

// insertPending writes the queued lines above the region. While there is
// room below the region, the region is pushed down (scrolling the rows
// from its top to the bottom of the screen down) and lines fill the gap;
// once the region is at the bottom, lines are added at the bottom of a
// scroll region covering the rows above it, so the row scrolled off its
// top enters the terminal's scrollback.
func (v *Inline) insertPending() {
	if len(v.pending) == 0 {
		return
	}
	e := &v.enc
	lines := v.pending[v.adopt():]
	_, fh := v.front.Size()
	if room := v.screenH - (v.top + fh); room > 0 {
		d := min(len(lines), room)
		if fh > 0 && !v.frontBlank() {
			e.readyErase(DefaultColor)
			v.setRegion(v.top, v.screenH)
			e.csi(d, 'T')
			e.stats.Scrolls++
			v.resetRegion()
		}
		for i := range d {
			v.drawLine(v.top+i, lines[i])
		}
		v.top += d
		lines = lines[d:]
	}
	switch {
	case len(lines) == 0:
	case v.top >= 2:
		v.setRegion(0, v.top)
		e.scrolling = true
		e.moveTo(0, v.top-1)
		for i := range lines {
			e.readyErase(DefaultColor)
			if e.cx != 0 {
				e.buf = append(e.buf, '\r')
				e.cx = 0
			}
			e.buf = append(e.buf, '\n')
			e.stats.Scrolls++
			v.drawLine(v.top-1, lines[i])
		}
		e.scrolling = false
		v.resetRegion()
	default:
		// One row or none above the region: no scroll region fits (DECSTBM
		// needs two rows), so scroll the whole screen one row per line
		// and redraw the region, which moved up with it.
		for i := range lines {
			if v.top == 0 {
				v.overwriteLine(0, lines[i])
			}
			e.moveTo(0, v.screenH-1)
			e.readyErase(DefaultColor)
			e.buf = append(e.buf, '\n')
			e.stats.Scrolls++
			if v.top == 1 {
				v.overwriteLine(0, lines[i])
			}
			if fh > 0 {
				shiftRows(v.front, 0, fh, 1)
			}
		}
	}
	clear(v.pending)
	v.pending = v.pending[:0]
}

// adopt takes the queued lines that the region's top rows already show,
// cell for cell (a streamed paragraph that has just become final was on
// screen in the live region a frame ago), as inserted where they are:
// the region's top moves down past them and nothing is written. It
// returns how many it took.
func (v *Inline) adopt() int {
	_, fh := v.front.Size()
	k := 0
	for k < len(v.pending) && k < fh {
		v.line.Clear()
		v.line.SetLine(0, 0, v.pending[k])
		if !slices.Equal(v.line.row(0), v.front.row(k)) {
			break
		}
		k++
	}
	if k == 0 {
		return 0
	}
	shiftRows(v.front, 0, fh, k)
	v.front.Resize(v.width, fh-k)
	v.top += k
	return k
}

// frontBlank reports whether the region shows nothing but default blanks.
func (v *Inline) frontBlank() bool {
	for i := range v.front.cells {
		if v.front.cells[i] != (Cell{}) {
			return false
		}
	}
	return true
}

// drawLine draws l on screen row y, which is blank.
func (v *Inline) drawLine(y int, l Line) {
	v.line.Clear()
	v.line.SetLine(0, 0, l)
	v.enc.stats.CellsChanged += v.enc.encodeRow(y, v.blank, v.line.row(0))
}

// overwriteLine erases screen row y and draws l on it.
func (v *Inline) overwriteLine(y int, l Line) {
	e := &v.enc
	e.moveTo(0, y)
	e.readyErase(DefaultColor)
	e.buf = append(e.buf, "\x1b[2K"...)
	e.stats.Erases++
	v.drawLine(y, l)
}

// setRegion sets the scroll region to rows [top, bottom); the terminal
// homes the cursor.
func (v *Inline) setRegion(top, bottom int) {
	e := &v.enc
	e.buf = append(e.buf, '\x1b', '[')
	if top > 0 {
		e.buf = strconv.AppendInt(e.buf, int64(top+1), 10)
	}
	e.buf = append(e.buf, ';')
	e.buf = strconv.AppendInt(e.buf, int64(bottom), 10)
	e.buf = append(e.buf, 'r')
	e.stats.ScrollRegions++
	e.cx, e.cy = 0, 0
}

func (v *Inline) resetRegion() {
	e := &v.enc
	e.buf = append(e.buf, "\x1b[r"...)
	e.stats.ScrollRegions++
	e.cx, e.cy = 0, 0
}

// fitRegion brings the region on screen to the height of Live: growing
// past the bottom of the screen scrolls the screen up (into scrollback),
// shrinking erases the rows given up.
func (v *Inline) fitRegion() {
	e := &v.enc
	_, fh := v.front.Size()
	_, bh := v.back.Size()
	switch {
	case bh > fh:
		if excess := v.top + bh - v.screenH; excess > 0 {
			e.moveTo(0, v.screenH-1)
			e.readyErase(DefaultColor)
			for range excess {
				e.buf = append(e.buf, '\n')
			}
			e.stats.Scrolls++
			v.top -= excess
		}
	case bh < fh:
		e.moveTo(0, v.top+bh)
		e.readyErase(DefaultColor)
		e.buf = append(e.buf, "\x1b[J"...)
		e.stats.Clears++
	}
	v.front.Resize(v.width, bh)
}

// Close leaves the cursor at the start of the row below the live region,
// visible, with the pen reset and no link open, in one bracketed write.
// The region's last frame stays on screen as ordinary output; set its
// height to 0 and Flush first to remove it.
func (v *Inline) Close() error {
	if !v.started {
		return nil
	}
	e := &v.enc
	e.begin()
	e.setLink("")
	e.setPen(Style{})
	_, fh := v.front.Size()
	if below := v.top + fh; below < v.screenH {
		e.moveTo(0, below)
	} else {
		e.moveTo(0, v.screenH-1)
		e.buf = append(e.buf, '\r', '\n')
	}
	if !v.visible {
		e.cursorVisibility(CursorShow, &v.visible)
	}
	e.end()
	v.started = false
	if _, err := v.out.Write(e.buf); err != nil {
		return fmt.Errorf("render: closing the inline viewport: %w", err)
	}
	return nil
}

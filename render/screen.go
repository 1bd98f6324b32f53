package render

import (
	"fmt"
	"io"
	"strconv"
)

// Options are the terminal capabilities the encoder writes for.
type Options struct {
	// Colors is the colour level colours are degraded to on output.
	Colors ColorLevel
	// Hyperlinks enables OSC 8; without it links are dropped on output.
	Hyperlinks bool
	// NoBCE says the terminal erases to its default background whatever
	// the current one (terminfo's bce is missing): runs of blanks in
	// another background are then drawn, never erased.
	NoBCE bool
	// NoSync says the terminal is known not to have synchronized output
	// (mode 2026): frames go out without the bracket, which it would
	// only ignore.
	NoSync bool
	// KeepScrollback says the terminal ignores CSI 3 J (libvterm before
	// 0.3, in neovim's and emacs's terminals): the inline view cannot
	// clear the scrollback, so a width change redraws only the live
	// region and leaves the history as the terminal rewrapped it, rather
	// than print it a second time.
	KeepScrollback bool
}

const (
	syncBegin = "\x1b[?2026h"
	syncEnd   = "\x1b[?2026l"
)

// Screen is the full-screen surface on the alternate screen. Each frame
// the caller draws the whole surface into Back and calls Flush, which
// writes only what differs from the previous frame, as one synchronized
// write, and then hands back a blank Back for the next frame.
type Screen struct {
	out     io.Writer
	enc     encoder
	front   *Buffer
	back    *Buffer
	shifted *Buffer // the front as the terminal shows it after a scroll
	alt     []byte  // second frame buffer, for pricing the scroll
	want    CursorState
	visible bool // the terminal's cursor visibility
	entered bool
	repaint bool
	invalid bool // the terminal's pen and cursor are unknown
	hint    scrollHint
	raw     []byte
	// Row hashes of the front and back, for finding scrolled rows when
	// the caller gave no hint.
	frontHash, backHash []uint64
	dfr                 deferral
	// The rows of the last plain and scrolled encodings, for deferStyles.
	frontLog, shiftedLog rowLog
	// redrawFirst makes an unhinted frame finish its redraw before it
	// prices a scroll, so tests can check that stopping the redraw early
	// chooses the same bytes.
	redrawFirst bool
}

type scrollHint struct {
	top, bottom, n int
	set            bool
}

// NewScreen returns a screen of the given size writing to out. Nothing is
// written until the first Flush, which enters the alternate screen.
func NewScreen(out io.Writer, width, height int, opts Options) *Screen {
	width, height = max(width, 0), max(height, 0)
	return &Screen{
		out:     out,
		enc:     newEncoder(width, height, opts),
		front:   NewBuffer(width, height),
		back:    NewBuffer(width, height),
		shifted: NewBuffer(0, 0),
		visible: true,
		dfr:     deferral{stage: NewBuffer(0, 0)},
	}
}

// Back is the buffer the next frame is drawn into. It is the same
// *Buffer for the screen's whole life, and blank after every Flush.
func (s *Screen) Back() *Buffer { return s.back }

// SetCursor sets where the cursor should be after the next Flush, and
// whether it shows.
func (s *Screen) SetCursor(x, y int, visible bool) {
	s.want = CursorState{X: x, Y: y, Visible: visible}
}

// ScrollHint tells the next Flush that rows [top, bottom) of the back
// buffer hold the previous frame's rows shifted up by n (down when n is
// negative). Flush then scrolls that region on the terminal and repaints
// only the exposed rows, if that is cheaper than redrawing.
func (s *Screen) ScrollHint(top, bottom, n int) {
	s.hint = scrollHint{top: top, bottom: bottom, n: n, set: true}
}

// AppendRaw queues bytes (an image placement, say) to be written inside
// the next frame's bracket after its cells. A frame carrying raw bytes is
// never empty, and the cursor is repositioned after them.
func (s *Screen) AppendRaw(p []byte) { s.raw = append(s.raw, p...) }

// Resize changes the surface size. The next Flush repaints everything,
// clear included, inside one bracket.
func (s *Screen) Resize(width, height int) {
	width, height = max(width, 0), max(height, 0)
	s.back.Resize(width, height)
	s.front.Resize(width, height)
	s.enc.width, s.enc.height = width, height
	s.repaint = true
}

// SetOptions switches to new terminal capabilities (a probe answered
// after the first frame); when colours or links changed, the next Flush
// draws everything again.
func (s *Screen) SetOptions(opts Options) {
	if s.enc.setOptions(opts) {
		s.repaint = true
	}
}

// Invalidate declares the terminal's screen, pen and cursor unknown
// (after a child process drew on it, say): the next Flush resets the pen,
// clears the screen and redraws everything, inside its one bracket.
func (s *Screen) Invalidate() {
	s.repaint, s.invalid = true, true
}

// Flush writes the difference between the previous frame and Back as one
// Write wrapped in a synchronized-update bracket, then blanks Back. An
// unchanged frame with an unchanged cursor writes nothing.
func (s *Screen) Flush() (Stats, error) {
	e := &s.enc
	e.stats = Stats{}
	empty := e.begin()
	if !s.entered {
		e.buf = append(e.buf, "\x1b[?1049h"...)
		e.stats.Modes++
		s.entered, s.repaint = true, true
	}
	if s.invalid {
		e.forget()
		s.visible = true
		s.invalid = false
	}
	if s.repaint {
		e.readyErase(DefaultColor)
		e.buf = append(e.buf, "\x1b[2J"...)
		e.stats.Clears++
		e.cx, e.cy = -1, -1
		s.front.Clear()
		s.repaint = false
		s.hint.set = false
	}
	s.encodeFrame()
	if len(s.raw) > 0 {
		e.setLink("")
		e.buf = append(e.buf, s.raw...)
		s.raw = s.raw[:0]
		e.cx, e.cy = -1, -1
	}
	e.setLink("")
	wrote := len(e.buf) > empty
	want := s.want
	want.X = min(max(want.X, 0), max(e.width-1, 0))
	want.Y = min(max(want.Y, 0), max(e.height-1, 0))
	act := DecideCursor(CursorState{X: e.cx, Y: e.cy, Visible: s.visible}, want, wrote)
	if !wrote && act == CursorNone {
		s.swap()
		return Stats{}, nil
	}
	s.applyCursor(act, want)
	e.end()
	e.stats.Bytes = len(e.buf)
	e.stats.Writes = 1
	s.swap()
	if _, err := s.out.Write(e.buf); err != nil {
		s.repaint = true // the terminal's state is unknown now
		return e.stats, fmt.Errorf("render: writing frame: %w", err)
	}
	return e.stats, nil
}

func (s *Screen) applyCursor(act CursorAction, want CursorState) {
	e := &s.enc
	if act&CursorReposition != 0 {
		e.moveTo(want.X, want.Y)
	}
	e.cursorVisibility(act, &s.visible)
}

// swap makes the frame just written the front and blanks the back.
func (s *Screen) swap() {
	s.front.cells, s.back.cells = s.back.cells, s.front.cells
	s.back.Clear()
}

// encodeFrame writes the cell changes: the cheaper of a hinted or found
// scroll and a plain redraw, then priced again with expensive styles
// drawn last (deferred.go).
func (s *Screen) encodeFrame() {
	s.deferStyles(s.encodeBest())
}

// encodeBest encodes the cheaper of a scroll and a plain redraw and
// returns the buffer its rows were encoded against: the front, or the
// front as the scroll left it.
func (s *Screen) encodeBest() (old *Buffer) {
	e := &s.enc
	h := s.hint
	s.hint.set = false
	if h.set && s.validScroll(h) {
		// Encode the scroll first (usually the cheaper), then the plain
		// redraw with the scroll's length as its budget, so the loser is
		// abandoned as soon as it is known to lose.
		snapshot := *e
		prefix := len(e.buf)
		s.encodeScrolled(h, prefix, -1)
		scrolled := *e
		*e = snapshot
		cells, _ := s.encodeRows(s.front, len(scrolled.buf))
		if cells >= 0 && len(e.buf) < len(scrolled.buf) {
			e.stats.CellsChanged += cells
			s.alt = scrolled.buf
			return s.front
		}
		s.alt = e.buf
		*e = scrolled
		return s.shifted
	}
	// No hint: redraw, and only once that has touched enough rows look
	// for a scroll that would do better. The redraw stops at that row,
	// the scroll is priced in full, and the redraw goes on only while it
	// can still win (a tie goes to the redraw): the choice a finished
	// redraw priced against the scroll would make, without drawing every
	// row of a frame that scrolls.
	snapshot := *e
	prefix := len(e.buf)
	s.frontLog.begin(e)
	stopAt := detectRows
	if s.redrawFirst {
		stopAt = -1
	}
	cells, rows, y := s.continueRows(s.front, 0, -1, 0, 0, stopAt)
	if rows < detectRows {
		e.stats.CellsChanged += cells
		return s.front
	}
	if h = s.detectScroll(); !h.set || !s.validScroll(h) {
		cells, _, _ = s.continueRows(s.front, y, -1, cells, rows, -1)
		e.stats.CellsChanged += cells
		return s.front
	}
	if y == s.back.height {
		// The redraw is complete: price the scroll against it.
		e.stats.CellsChanged += cells
		plain := *e
		*e = snapshot
		if s.encodeScrolled(h, prefix, len(plain.buf)) && len(e.buf) < len(plain.buf) {
			s.alt = plain.buf
			return s.shifted
		}
		s.alt = e.buf
		*e = plain
		return s.front
	}
	paused := *e
	*e = snapshot
	s.encodeScrolled(h, prefix, -1)
	scrolled := *e
	*e = paused
	if cells, _, _ = s.continueRows(s.front, y, len(scrolled.buf)+1, cells, rows, -1); cells >= 0 {
		e.stats.CellsChanged += cells
		s.alt = scrolled.buf
		return s.front
	}
	s.alt = e.buf
	*e = scrolled
	return s.shifted
}

// validScroll reports whether h describes a scroll the terminal can do.
// A scroll by the region's whole height (a page) keeps no row, but it
// still blanks the region in a few bytes, after which blank cells cost
// nothing and a row's trailing blanks need no erase.
func (s *Screen) validScroll(h scrollHint) bool {
	return h.top >= 0 && h.bottom <= s.enc.height && h.bottom-h.top >= 2 &&
		h.n != 0 && abs(h.n) <= h.bottom-h.top
}

// encodeScrolled encodes the frame as the scroll h followed by the
// changes left, into the spare buffer after the frame's first prefix
// bytes. It reports false if the frame grew past budget (when budget is
// not negative).
func (s *Screen) encodeScrolled(h scrollHint, prefix, budget int) bool {
	e := &s.enc
	e.buf = append(s.alt[:0], e.buf[:prefix]...)
	s.emitScroll(h)
	s.shiftFront(h)
	cells, _ := s.encodeRows(s.shifted, budget)
	if cells < 0 {
		return false
	}
	e.stats.CellsChanged += cells
	return true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// encodeRows writes the changes from old (the front, or the front as a
// scroll leaves it) to the back buffer and returns the number of cells
// and rows changed, or -1 cells as soon as the frame grows past budget
// bytes (a negative budget is no limit). The rows are logged for
// deferStyles, one log per old buffer.
func (s *Screen) encodeRows(old *Buffer, budget int) (cells, rows int) {
	s.logFor(old).begin(&s.enc)
	cells, rows, _ = s.continueRows(old, 0, budget, 0, 0, -1)
	return cells, rows
}

// continueRows goes on with an encoding of the rows against old from row
// y, the counts so far being cells and rows, as encodeRows does; when
// stopAt is positive it stops after the row that brings the rows changed
// to stopAt, and returns the row to go on from.
func (s *Screen) continueRows(old *Buffer, y, budget, cells, rows, stopAt int) (int, int, int) {
	e := &s.enc
	log := s.logFor(old)
	for ; y < s.back.height; y++ {
		log.mark(e)
		n := e.encodeRow(y, old.row(y), s.back.row(y))
		cells += n
		if n > 0 {
			rows++
		}
		if budget >= 0 && len(e.buf) >= budget {
			return -1, rows, y + 1
		}
		if rows == stopAt && y+1 < s.back.height {
			return cells, rows, y + 1
		}
	}
	if !log.complete(s.back.height) {
		log.mark(e)
	}
	return cells, rows, y
}

func (s *Screen) logFor(old *Buffer) *rowLog {
	if old == s.shifted {
		return &s.shiftedLog
	}
	return &s.frontLog
}

// emitScroll scrolls rows [top, bottom) by n, using a scroll region when
// the rows are not the whole screen.
func (s *Screen) emitScroll(h scrollHint) {
	e := &s.enc
	e.readyErase(DefaultColor) // the exposed rows come in blank
	region := h.top != 0 || h.bottom != e.height
	if region {
		e.buf = append(e.buf, '\x1b', '[')
		e.buf = strconv.AppendInt(e.buf, int64(h.top+1), 10)
		e.buf = append(e.buf, ';')
		e.buf = strconv.AppendInt(e.buf, int64(h.bottom), 10)
		e.buf = append(e.buf, 'r')
		e.stats.ScrollRegions++
	}
	if h.n > 0 {
		e.csi(h.n, 'S')
	} else {
		e.csi(-h.n, 'T')
	}
	e.stats.Scrolls++
	if region {
		e.buf = append(e.buf, "\x1b[r"...)
		e.stats.ScrollRegions++
		e.cx, e.cy = 0, 0 // DECSTBM homes the cursor
	}
}

// shiftFront fills s.shifted with the front as the terminal shows it
// after the scroll.
func (s *Screen) shiftFront(h scrollHint) {
	s.shifted.CopyFrom(s.front)
	shiftRows(s.shifted, h.top, h.bottom, h.n)
}

// shiftRows moves rows [top, bottom) of b by n (up when positive) and
// blanks the rows that come in.
func shiftRows(b *Buffer, top, bottom, n int) {
	w := b.width
	if n > 0 {
		copy(b.cells[top*w:(bottom-n)*w], b.cells[(top+n)*w:bottom*w])
		clear(b.cells[(bottom-n)*w : bottom*w])
		return
	}
	n = -n
	copy(b.cells[(top+n)*w:bottom*w], b.cells[top*w:(bottom-n)*w])
	clear(b.cells[top*w : (top+n)*w])
}

// Close leaves the alternate screen with the pen reset, no link open and
// the cursor visible, in one bracketed write. It writes nothing if no
// frame was ever flushed.
func (s *Screen) Close() error {
	if !s.entered {
		return nil
	}
	s.entered = false
	e := &s.enc
	e.begin()
	e.setLink("")
	e.setPen(Style{})
	if !s.visible {
		e.cursorVisibility(CursorShow, &s.visible)
	}
	e.buf = append(e.buf, "\x1b[?1049l"...)
	e.end()
	if _, err := s.out.Write(e.buf); err != nil {
		return fmt.Errorf("render: leaving the alternate screen: %w", err)
	}
	return nil
}

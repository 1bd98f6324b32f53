package render

// CursorState is where the terminal cursor is and whether it shows.
type CursorState struct {
	X, Y    int
	Visible bool
}

// CursorAction is what a frame must do to the cursor: nothing, or any
// combination of repositioning it and showing or hiding it.
type CursorAction uint8

const (
	// CursorNone leaves the cursor alone, so the terminal's blink timer
	// is not reset.
	CursorNone CursorAction = 0
	// CursorReposition moves the cursor to where the frame wants it.
	CursorReposition CursorAction = 1 << iota
	// CursorShow makes the cursor visible.
	CursorShow
	// CursorHide makes the cursor invisible.
	CursorHide
)

// DecideCursor is the one place cursor commands are decided. term is the
// terminal's cursor before the frame's cursor commands, want is what the
// frame asks for, and wrote reports whether the frame wrote anything that
// moved the terminal cursor. A hidden cursor is never moved; a visible one
// is moved when writing disturbed it or it is asked elsewhere.
func DecideCursor(term, want CursorState, wrote bool) CursorAction {
	if !want.Visible {
		if term.Visible {
			return CursorHide
		}
		return CursorNone
	}
	var a CursorAction
	if wrote || term.X != want.X || term.Y != want.Y {
		a |= CursorReposition
	}
	if !term.Visible {
		a |= CursorShow
	}
	return a
}

// cursorVisibility writes the show or hide command act holds, if any, and
// records in visible what the terminal's cursor is after it. Every frame
// and every Close shows and hides the cursor through it.
func (e *encoder) cursorVisibility(act CursorAction, visible *bool) {
	switch {
	case act&CursorShow != 0:
		e.buf = append(e.buf, "\x1b[?25h"...)
		*visible = true
	case act&CursorHide != 0:
		e.buf = append(e.buf, "\x1b[?25l"...)
		*visible = false
	default:
		return
	}
	e.stats.Cursor++
}

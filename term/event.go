package term

import (
	"os"
	"strconv"
	"strings"
)

// Event is something the terminal reports: a key, a paste, a mouse action,
// a size or focus change, a resume after the terminal was given away, or a
// termination signal. The concrete types are the structs below; switch on
// them.
type Event interface{ isEvent() }

// KeyEvent is one key press. Printable characters and Ctrl/Alt chords on
// them have Key == KeyRune and the character in Rune; Ctrl+A is
// {KeyRune, 'a', ModCtrl}. Named keys (Enter, arrows, F-keys…) leave Rune 0.
type KeyEvent struct {
	Key  Key
	Rune rune
	Mod  Mod
}

// PasteEvent is one bracketed paste, delivered whole. Line endings are
// normalised to "\n" (terminals send "\r"); nothing else is changed, so the
// text may hold control characters and must be treated as untrusted.
type PasteEvent struct {
	Text string
}

// MouseEvent is a mouse press, release, drag or wheel step, in 0-based
// cell coordinates. Mouse reporting is off unless Options.Mouse is set.
type MouseEvent struct {
	X, Y    int
	Button  Button
	Mod     Mod
	Motion  bool // the pointer moved (with Button held, or ButtonNone)
	Release bool // a button was let go; Button may be ButtonNone on legacy terminals
}

// ResizeEvent reports the terminal's new size in cells.
type ResizeEvent struct {
	Width, Height int
}

// FocusEvent reports the terminal window gaining or losing focus
// (Options.Focus).
type FocusEvent struct {
	Focused bool
}

// ResumeEvent says the terminal was given away and taken back (a
// hand-off, Ctrl+Z and fg, or an outside SIGSTOP/SIGCONT). The screen no
// longer shows the last frame: invalidate the renderer and repaint fully.
type ResumeEvent struct{}

// SignalEvent says a termination signal (SIGTERM, SIGHUP, or SIGINT while
// the terminal was not in raw mode) arrived. The terminal has already been
// restored and accepts no more output; the application should save what it
// must and exit. If it is still running after Options.ExitGrace the signal
// is re-raised with its default action.
type SignalEvent struct {
	Signal os.Signal
}

// CapsEvent delivers what a probe started with StartProbe learnt: the
// terminal's capabilities, refined by its answers.
type CapsEvent struct {
	Caps Caps
}

func (KeyEvent) isEvent()    {}
func (PasteEvent) isEvent()  {}
func (MouseEvent) isEvent()  {}
func (ResizeEvent) isEvent() {}
func (FocusEvent) isEvent()  {}
func (ResumeEvent) isEvent() {}
func (SignalEvent) isEvent() {}
func (CapsEvent) isEvent()   {}

// Key names a key. KeyRune means "a character"; see KeyEvent.Rune.
type Key int

// The named keys. F1…F24 are contiguous, so KeyF1+n-1 is Fn.
const (
	KeyRune Key = iota
	KeyEnter
	KeyTab
	KeyBackspace
	KeyEscape
	KeyUp
	KeyDown
	KeyLeft
	KeyRight
	KeyHome
	KeyEnd
	KeyPageUp
	KeyPageDown
	KeyInsert
	KeyDelete
	KeyF1
	KeyF2
	KeyF3
	KeyF4
	KeyF5
	KeyF6
	KeyF7
	KeyF8
	KeyF9
	KeyF10
	KeyF11
	KeyF12
	KeyF13
	KeyF14
	KeyF15
	KeyF16
	KeyF17
	KeyF18
	KeyF19
	KeyF20
	KeyF21
	KeyF22
	KeyF23
	KeyF24
)

var keyNames = [...]string{
	KeyRune:      "rune",
	KeyEnter:     "enter",
	KeyTab:       "tab",
	KeyBackspace: "backspace",
	KeyEscape:    "esc",
	KeyUp:        "up",
	KeyDown:      "down",
	KeyLeft:      "left",
	KeyRight:     "right",
	KeyHome:      "home",
	KeyEnd:       "end",
	KeyPageUp:    "pgup",
	KeyPageDown:  "pgdown",
	KeyInsert:    "insert",
	KeyDelete:    "delete",
}

// String is the key's lower-case name ("enter", "f5").
func (k Key) String() string {
	if k >= KeyF1 && k <= KeyF24 {
		return "f" + strconv.Itoa(int(k-KeyF1)+1)
	}
	if k >= 0 && int(k) < len(keyNames) && keyNames[k] != "" {
		return keyNames[k]
	}
	return "key(" + strconv.Itoa(int(k)) + ")"
}

// Mod is a set of modifier keys held with a key or mouse event.
type Mod uint8

// Modifiers. Terminals report Shift reliably only on named keys; a shifted
// letter arrives as its upper-case rune without ModShift. ModMeta is the
// Super/Cmd key, reported only by terminals speaking the kitty keyboard
// protocol.
const (
	ModShift Mod = 1 << iota
	ModAlt
	ModCtrl
	ModMeta
)

// String joins the modifier names with "+" in a fixed order ("ctrl+alt").
func (m Mod) String() string {
	var parts []string
	if m&ModCtrl != 0 {
		parts = append(parts, "ctrl")
	}
	if m&ModAlt != 0 {
		parts = append(parts, "alt")
	}
	if m&ModShift != 0 {
		parts = append(parts, "shift")
	}
	if m&ModMeta != 0 {
		parts = append(parts, "meta")
	}
	return strings.Join(parts, "+")
}

// String renders the chord the way keymaps spell it: "ctrl+a", "alt+enter",
// "shift+tab", "x", "space".
func (e KeyEvent) String() string {
	var name string
	switch {
	case e.Key != KeyRune:
		name = e.Key.String()
	case e.Rune == ' ':
		name = "space"
	default:
		name = string(e.Rune)
	}
	if e.Mod == 0 {
		return name
	}
	return e.Mod.String() + "+" + name
}

// Button is the mouse button or wheel direction of a MouseEvent.
type Button uint8

// Mouse buttons and wheel steps.
const (
	ButtonNone Button = iota
	ButtonLeft
	ButtonMiddle
	ButtonRight
	WheelUp
	WheelDown
	WheelLeft
	WheelRight
	ButtonBack
	ButtonForward
)

// Package apptest is a terminal for tests of the app's loop: it takes
// keys the test sends, keeps every frame the loop writes, and shows what
// a terminal fed those frames would show (through the VT-emulator
// oracle).
package apptest

import (
	"io"
	"strings"
	"sync"
	"time"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
	"github.com/quire-sh/quire/term"
)

// Terminal satisfies app.Terminal.
type Terminal struct {
	events chan term.Event
	w, h   int

	mu     sync.Mutex
	frames [][]byte
	copied []string
	// oracle has been fed the first fed frames.
	oracle *rendertest.Oracle
	fed    int
}

// NewTerminal returns a w×h terminal.
func NewTerminal(w, h int) *Terminal {
	return &Terminal{events: make(chan term.Event, 256), w: w, h: h}
}

// Type sends text as keys, then the named keys (term.KeyEnter, …).
func (t *Terminal) Type(text string, keys ...term.Key) {
	for _, r := range text {
		t.events <- term.KeyEvent{Key: term.KeyRune, Rune: r}
	}
	for _, k := range keys {
		t.events <- term.KeyEvent{Key: k}
	}
}

// Send sends any terminal event.
func (t *Terminal) Send(e term.Event) { t.events <- e }

// Frames is how many frames the loop has written.
func (t *Terminal) Frames() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.frames)
}

// Output is every byte written, in order.
func (t *Terminal) Output() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b []byte
	for _, f := range t.frames {
		b = append(b, f...)
	}
	return b
}

// Screen is what a terminal fed the output shows now, row by row.
func (t *Terminal) Screen() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.oracle == nil {
		t.oracle = rendertest.NewOracle(t.w, t.h)
	}
	for ; t.fed < len(t.frames); t.fed++ {
		t.oracle.Write(t.frames[t.fed])
	}
	return strings.Join(t.oracle.ScreenText(), "\n")
}

// History is the terminal's scrollback and then its screen, row by row:
// all an inline session has left in the terminal.
func (t *Terminal) History() string {
	screen := t.Screen()
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(append(t.oracle.ScrollbackText(), screen), "\n")
}

// WaitFor waits until the screen shows want, and reports whether it did
// within timeout.
func (t *Terminal) WaitFor(want string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		if strings.Contains(t.Screen(), want) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (t *Terminal) Events() <-chan term.Event { return t.events }
func (t *Terminal) Size() (int, int)          { return t.w, t.h }
func (t *Terminal) Writer() io.Writer         { return writer{t} }
func (t *Terminal) Pending() int              { return 0 }
func (t *Terminal) LastWrite() time.Duration  { return 0 }
func (t *Terminal) Caps() term.Caps {
	return term.Caps{Colors: render.Color256, Hyperlinks: true}
}
func (t *Terminal) SetAltScreen(bool) error                        { return nil }
func (t *Terminal) SetMouse(bool) error                            { return nil }
func (t *Terminal) HandOff(fn func() error) error                  { return fn() }
func (t *Terminal) Suspend() error                                 { return nil }
func (t *Terminal) CursorPosition(time.Duration) (int, int, error) { return 0, t.h - 1, nil }

// Copy keeps what was copied.
func (t *Terminal) Copy(s string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.copied = append(t.copied, s)
	return nil
}

type writer struct{ t *Terminal }

func (w writer) Write(p []byte) (int, error) {
	w.t.mu.Lock()
	defer w.t.mu.Unlock()
	w.t.frames = append(w.t.frames, append([]byte(nil), p...))
	return len(p), nil
}

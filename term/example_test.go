package term_test

import (
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/quire-sh/quire/term"
)

// The shape of an application's use of the terminal: open, restore on
// every way out, read events, hand frames to the writer, lend the tty to
// an editor.
func Example() {
	t, err := term.Open(term.Options{AltScreen: true, Mouse: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	defer t.Close()
	defer t.RestoreOnPanic()

	caps := t.Probe(200 * time.Millisecond) // optional; Caps() has the environment's answer already
	_ = caps.Colors                         // the renderer's colour ceiling

	w, h := t.Size()
	frames := t.Writer() // the renderer writes each finished frame here, once
	fmt.Fprintf(frames, "\x1b[?2026h\x1b[H%dx%d\x1b[?2026l", w, h)

	for ev := range t.Events() {
		switch ev := ev.(type) {
		case term.KeyEvent:
			switch ev.String() {
			case "ctrl+z":
				_ = t.Suspend()
			case "ctrl+e":
				_ = t.HandOff(func() error {
					cmd := exec.Command(os.Getenv("EDITOR"), "notes.md")
					cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
					return cmd.Run()
				})
			case "q":
				return
			}
		case term.ResumeEvent:
			// invalidate the renderer's front buffer and repaint fully
		case term.ResizeEvent:
			// re-layout at ev.Width × ev.Height
		case term.SignalEvent:
			return // already restored; save and exit
		}
	}
}

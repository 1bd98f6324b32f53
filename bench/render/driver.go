package renderbench

import "io"

// Driver draws logical frames with one renderer.
type Driver interface {
	// Draw makes the terminal show f: it draws f into the renderer,
	// flushes, and returns once every byte of the frame is written.
	Draw(f *Frame) error
	// Close releases the renderer; it writes nothing that is counted.
	Close() error
}

// Impl is one renderer under test.
type Impl struct {
	// Name is the last element of a benchmark's name: quire, tcell, uv.
	Name string
	// Skip says why the renderer cannot run w, or "" when it can.
	Skip func(w *Workload) string
	// New prepares the renderer for w, writing to out, with the terminal
	// at the first frame's size and the cursor at the top left. Converting
	// w's rows to the renderer's native form happens here, before timing.
	New func(w *Workload, out io.Writer) (Driver, error)
}

// Impls returns the renderers under test, quire first.
func Impls() []Impl {
	return []Impl{quireImpl(), tcellImpl(), uvImpl(), uvScreenImpl()}
}

// The terminal every renderer is told it drives: xterm-256color with
// 24-bit colour, as COLORTERM=truecolor announces.
const (
	termType  = "xterm-256color"
	colorTerm = "truecolor"
)

// Sync brackets (DEC mode 2026) around a frame.
const (
	syncBegin = "\x1b[?2026h"
	syncEnd   = "\x1b[?2026l"
)

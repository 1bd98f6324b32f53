package renderbench

import "github.com/quire-sh/quire/render"

// Mode is the surface a workload draws on.
type Mode uint8

const (
	// FullScreen owns the whole (alternate) screen; a frame is every row.
	FullScreen Mode = iota
	// Inline draws a live region below the terminal's own scrollback; a
	// frame is the live region plus the finished lines inserted above it.
	Inline
)

func (m Mode) String() string {
	if m == Inline {
		return "inline"
	}
	return "fullscreen"
}

// Cell is one terminal cell of a logical frame.
type Cell struct {
	// Grapheme is one grapheme cluster; empty only for the right half of a
	// wide cell.
	Grapheme string
	// Width is 1 or 2, and 0 for the right half of a wide cell.
	Width uint8
	// Style indexes Workload.Styles; 0 is the default style.
	Style uint16
	// Link indexes Workload.Links; 0 is no link.
	Link uint16
}

// Row is one row of cells. Rows are immutable once built and shared
// between frames, so a frame that keeps a row keeps the same pointer.
type Row struct {
	// ID numbers the row within its workload, so drivers can keep a
	// native copy of each row in a slice rather than a map.
	ID int
	// Cells holds exactly one cell per column.
	Cells []Cell
	// Line is the same content as styled runs, for span-based APIs. It
	// stops at the last cell that is not a default blank; the columns
	// after it are default blanks.
	Line render.Line
}

// ScrollHint says that rows [Top, Bottom) of the previous frame moved up by N
// rows in this one (N < 0 moves them down). The zero value is no hint.
type ScrollHint struct {
	Top, Bottom, N int
}

// Frame is one logical frame.
type Frame struct {
	// Width and Height are the terminal's size while this frame is drawn;
	// a change from the previous frame is a resize.
	Width, Height int
	// Rows is the whole screen in FullScreen mode and the live region in
	// Inline mode.
	Rows []*Row
	// Scroll is the scroll hint relative to the previous frame.
	Scroll ScrollHint
	// Insert holds the finished lines an Inline frame adds to history,
	// above the live region, before the live region is drawn.
	Insert []*Row
}

// Workload is a named loop of frames. Frames[0] follows Frames[len-1]
// seamlessly, so a benchmark can play the loop any number of times.
// Renderers start at the size of First().
type Workload struct {
	// Name is "<workload>/<params>", e.g. "W3Scroll/by1/200x50".
	Name string
	Mode Mode
	// Styles and Links are the tables cells index into.
	Styles []render.Style
	Links  []string
	// Rows is every distinct row, indexed by Row.ID.
	Rows []*Row
	// Prologue is drawn once, before the loop and never again: the state
	// an application is in before the workload starts.
	Prologue []Frame
	Frames   []Frame
	// Note tells the reader of a result what the workload stresses.
	Note string
}

// LinkID is the OSC 8 id parameter used for link i, for renderers that
// take one from the application.
func LinkID(i uint16) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	if i == 0 {
		return "0"
	}
	var b [4]byte
	n := len(b)
	for ; i > 0; i /= 36 {
		n--
		b[n] = digits[i%36]
	}
	return "q" + string(b[n:])
}

// First is the first frame a renderer draws: the prologue's, if any.
func (w *Workload) First() *Frame {
	if len(w.Prologue) > 0 {
		return &w.Prologue[0]
	}
	return &w.Frames[0]
}

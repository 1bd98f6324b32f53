package renderbench

import (
	"io"
	"strings"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
)

// uvScreenImpl drives ultraviolet's higher-level TerminalScreen, which
// wraps the same TerminalRenderer. Only its inline path differs: history
// goes in with TerminalScreen.InsertAbove, which writes at once, outside
// the frame's synchronized update. Full-screen workloads would measure the
// uv column again, so they are skipped.
func uvScreenImpl() Impl {
	return Impl{
		Name: "uvscreen",
		Skip: func(w *Workload) string {
			if w.Mode != Inline {
				return "TerminalScreen renders full-screen frames with the TerminalRenderer measured as uv"
			}
			return ""
		},
		New: newUVScreenDriver,
	}
}

type uvScreenDriver struct {
	s      *uv.TerminalScreen
	rows   []uv.Line
	insert strings.Builder
	w, h   int
}

func newUVScreenDriver(w *Workload, out io.Writer) (Driver, error) {
	f0 := w.First()
	s := uv.NewTerminalScreen(out, uv.Environ{"TERM=" + termType, "COLORTERM=" + colorTerm})
	s.SetColorProfile(colorprofile.TrueColor)
	s.SetSynchronizedUpdates(true)
	s.Resize(f0.Width, len(f0.Rows))
	// The renderer's rows are the same as the uv driver's.
	native, err := newUVDriver(w, io.Discard)
	if err != nil {
		return nil, err
	}
	return &uvScreenDriver{s: s, rows: native.(*uvDriver).rows, w: f0.Width, h: len(f0.Rows)}, nil
}

func (d *uvScreenDriver) Draw(f *Frame) error {
	if f.Width != d.w || len(f.Rows) != d.h {
		d.s.Resize(f.Width, len(f.Rows))
		d.w, d.h = f.Width, len(f.Rows)
	}
	if len(f.Insert) > 0 {
		if err := d.s.InsertAbove(insertText(&d.insert, d.rows, f.Insert)); err != nil {
			return err
		}
	}
	for y, r := range f.Rows {
		line := d.rows[r.ID]
		for x := range line {
			if line[x].Width == 0 {
				continue
			}
			d.s.SetCell(x, y, &line[x])
		}
	}
	d.s.Render()
	return d.s.Flush()
}

func (d *uvScreenDriver) Close() error { return nil }

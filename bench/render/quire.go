package renderbench

import (
	"fmt"
	"io"

	"github.com/quire-sh/quire/render"
)

// quire's renderer is driven the way the app drives it: each frame every
// row's styled line is drawn into the blank back buffer, the scroll hint
// the layout knows is passed on, and Flush writes the difference.

func quireImpl() Impl {
	return Impl{
		Name: "quire",
		Skip: func(w *Workload) string {
			if w.Mode == Inline {
				return "quire's inline viewport (render.Inline) has not landed"
			}
			return ""
		},
		New: newQuireDriver,
	}
}

type quireDriver struct {
	screen *render.Screen
	w, h   int
}

func newQuireDriver(w *Workload, out io.Writer) (Driver, error) {
	f0 := &w.Frames[0]
	s := render.NewScreen(out, f0.Width, f0.Height, render.Options{Colors: render.ColorTrue, Hyperlinks: true})
	s.SetCursor(0, 0, false)
	return &quireDriver{screen: s, w: f0.Width, h: f0.Height}, nil
}

func (d *quireDriver) Draw(f *Frame) error {
	if f.Width != d.w || f.Height != d.h {
		d.screen.Resize(f.Width, f.Height)
		d.w, d.h = f.Width, f.Height
	}
	back := d.screen.Back()
	for y, r := range f.Rows {
		back.SetLine(0, y, r.Line)
	}
	if s := f.Scroll; s.N != 0 {
		d.screen.ScrollHint(s.Top, s.Bottom, s.N)
	}
	if _, err := d.screen.Flush(); err != nil {
		return fmt.Errorf("quire flush: %w", err)
	}
	return nil
}

func (d *quireDriver) Close() error { return nil }

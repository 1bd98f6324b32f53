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
		Skip: func(*Workload) string { return "" },
		New:  newQuireDriver,
	}
}

type quireDriver struct {
	screen *render.Screen
	w, h   int
}

func newQuireDriver(w *Workload, out io.Writer) (Driver, error) {
	f0 := w.First()
	opts := render.Options{Colors: render.ColorTrue, Hyperlinks: true}
	if w.Mode == Inline {
		v := render.NewInline(out, f0.Width, f0.Height, 0, opts)
		v.SetCursor(0, 0, false)
		return &quireInline{view: v, w: f0.Width, h: f0.Height}, nil
	}
	s := render.NewScreen(out, f0.Width, f0.Height, opts)
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

// quireInline drives render.Inline: finished lines go to InsertAbove, the
// live region is drawn into Live, and one Flush writes both.
type quireInline struct {
	view    *render.Inline
	w, h    int
	scratch []render.Line
}

func (d *quireInline) Draw(f *Frame) error {
	if f.Width != d.w || f.Height != d.h {
		d.view.Resize(f.Width, f.Height)
		d.w, d.h = f.Width, f.Height
	}
	if len(f.Insert) > 0 {
		d.scratch = d.scratch[:0]
		for _, r := range f.Insert {
			d.scratch = append(d.scratch, r.Line)
		}
		d.view.InsertAbove(d.scratch...)
	}
	live := d.view.Live()
	if _, h := live.Size(); h != len(f.Rows) {
		d.view.SetLiveHeight(len(f.Rows))
	}
	for y, r := range f.Rows {
		live.SetLine(0, y, r.Line)
	}
	if _, err := d.view.Flush(); err != nil {
		return fmt.Errorf("quire inline flush: %w", err)
	}
	return nil
}

func (d *quireInline) Close() error { return nil }

package renderbench

import (
	"fmt"
	"io"
	"sync"

	"github.com/gdamore/tcell/v2"

	"github.com/quire-sh/quire/render"
)

// tcell v2 drives a terminfo screen. It has no inline mode: it always owns
// the alternate screen. Its terminfo screen talks to a tcell.Tty; the fake
// one here reports a fixed size, reads nothing, and sends writes to the
// counter. Show writes a frame in one write and the closing
// synchronized-update sequence in a second.

func tcellImpl() Impl {
	return Impl{
		Name: "tcell",
		Skip: func(w *Workload) string {
			if w.Mode == Inline {
				return "tcell has no inline mode (alternate screen only)"
			}
			return ""
		},
		New: newTcellDriver,
	}
}

type tcellCell struct {
	str   string
	style tcell.Style
}

type tcellDriver struct {
	tty    *fakeTty
	screen tcell.Screen
	cells  *tcell.CellBuffer
	rows   [][]tcellCell
	w, h   int
}

// cellBufferHolder is the tcell screen's own cell buffer accessor; it is
// used to size the buffer to a new terminal size before drawing into it,
// which gives tcell its cheapest resize: one full draw and no clear.
type cellBufferHolder interface{ GetCells() *tcell.CellBuffer }

func newTcellDriver(w *Workload, out io.Writer) (Driver, error) {
	ti, err := tcell.LookupTerminfo(termType)
	if err != nil {
		return nil, fmt.Errorf("tcell terminfo %s: %w", termType, err)
	}
	// What tcell adds to the entry when COLORTERM=truecolor, applied to a
	// copy so the result does not depend on the environment.
	tc := *ti
	tc.SetFgRGB = "\x1b[38;2;%p1%d;%p2%d;%p3%dm"
	tc.SetBgRGB = "\x1b[48;2;%p1%d;%p2%d;%p3%dm"
	tc.SetFgBgRGB = "\x1b[38;2;%p1%d;%p2%d;%p3%d;48;2;%p4%d;%p5%d;%p6%dm"
	f0 := w.First()
	tty := newFakeTty(out, f0.Width, f0.Height)
	s, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, &tc)
	if err != nil {
		return nil, fmt.Errorf("tcell screen: %w", err)
	}
	if err := s.Init(); err != nil {
		return nil, fmt.Errorf("tcell init (is LC_ALL/LANG a UTF-8 locale?): %w", err)
	}
	s.HideCursor()
	holder, ok := s.(cellBufferHolder)
	if !ok {
		s.Fini()
		return nil, fmt.Errorf("tcell screen %T does not expose its cell buffer", s)
	}
	d := &tcellDriver{tty: tty, screen: s, cells: holder.GetCells(), w: f0.Width, h: f0.Height}
	styles := make([]tcell.Style, len(w.Styles))
	for i, st := range w.Styles {
		styles[i] = tcellStyle(st)
	}
	d.rows = make([][]tcellCell, len(w.Rows))
	for i, r := range w.Rows {
		row := make([]tcellCell, len(r.Cells))
		for x, c := range r.Cells {
			st := styles[c.Style]
			if c.Link != 0 {
				st = st.Url(w.Links[c.Link]).UrlId(LinkID(c.Link))
			}
			row[x] = tcellCell{str: c.Grapheme, style: st}
		}
		d.rows[i] = row
	}
	return d, nil
}

func (d *tcellDriver) Draw(f *Frame) error {
	if f.Width != d.w || f.Height != d.h {
		d.tty.setSize(f.Width, f.Height)
		d.cells.Resize(f.Width, f.Height)
		d.w, d.h = f.Width, f.Height
	}
	for y, r := range f.Rows {
		row := d.rows[r.ID]
		for x := 0; x < len(row); x++ {
			c := &row[x]
			if c.str == "" {
				continue
			}
			d.screen.Put(x, y, c.str, c.style)
		}
	}
	d.screen.Show()
	return nil
}

func (d *tcellDriver) Close() error {
	d.tty.mute()
	d.screen.Fini()
	return nil
}

func tcellColor(c render.Color) tcell.Color {
	switch c.Kind() {
	case render.KindANSI, render.KindIndexed:
		return tcell.PaletteColor(int(c.Index()))
	case render.KindRGB:
		r, g, b := c.RGB()
		return tcell.NewRGBColor(int32(r), int32(g), int32(b))
	}
	return tcell.ColorReset
}

func tcellStyle(s render.Style) tcell.Style {
	st := tcell.StyleDefault
	if s.Fg != render.DefaultColor {
		st = st.Foreground(tcellColor(s.Fg))
	}
	if s.Bg != render.DefaultColor {
		st = st.Background(tcellColor(s.Bg))
	}
	st = st.Bold(s.Attrs&render.Bold != 0).
		Dim(s.Attrs&render.Dim != 0).
		Italic(s.Attrs&render.Italic != 0).
		Reverse(s.Attrs&render.Reverse != 0).
		StrikeThrough(s.Attrs&render.Strikethrough != 0)
	if s.Attrs&render.Underline != 0 {
		st = st.Underline(true)
	}
	return st
}

// fakeTty is a tcell.Tty with a fixed size whose input never arrives.
type fakeTty struct {
	mu    sync.Mutex
	out   io.Writer
	size  tcell.WindowSize
	done  chan struct{}
	close sync.Once
}

func newFakeTty(out io.Writer, w, h int) *fakeTty {
	return &fakeTty{out: out, size: tcell.WindowSize{Width: w, Height: h}, done: make(chan struct{})}
}

func (t *fakeTty) Start() error { return nil }
func (t *fakeTty) Stop() error  { return nil }

// Drain wakes the input loop, which tcell requires before Stop.
func (t *fakeTty) Drain() error {
	t.close.Do(func() { close(t.done) })
	return nil
}

func (t *fakeTty) NotifyResize(func()) {}

func (t *fakeTty) WindowSize() (tcell.WindowSize, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.size, nil
}

func (t *fakeTty) setSize(w, h int) {
	t.mu.Lock()
	t.size = tcell.WindowSize{Width: w, Height: h}
	t.mu.Unlock()
}

// mute drops whatever tcell writes while shutting down.
func (t *fakeTty) mute() {
	t.mu.Lock()
	t.out = io.Discard
	t.mu.Unlock()
}

func (t *fakeTty) Read([]byte) (int, error) {
	<-t.done
	return 0, io.EOF
}

func (t *fakeTty) Write(p []byte) (int, error) {
	t.mu.Lock()
	out := t.out
	t.mu.Unlock()
	return out.Write(p)
}

func (t *fakeTty) Close() error { return t.Drain() }

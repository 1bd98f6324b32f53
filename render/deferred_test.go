package render_test

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

// A repaint of prose dotted with inline code in a 24-bit style sets that
// style once for all the spans, not once per span, and the terminal
// still shows the frame.
func TestRepaintSetsRepeatedLongStyleOnce(t *testing.T) {
	code := render.Style{Fg: render.RGB(0xe0, 0x6c, 0x75), Bg: render.RGB(0x28, 0x2c, 0x34)}
	const w, h = 60, 12
	draw := func(b *render.Buffer) {
		for y := range h {
			x := b.SetString(0, y, "each frame writes ", render.Style{}, "")
			x += b.SetString(x, y, "`Flush()` ", code, "")
			x += b.SetString(x, y, "and then the ", render.Style{}, "")
			x += b.SetString(x, y, "`swap()`", code, "")
			b.SetString(x, y, " of its buffers", render.Style{}, "")
		}
	}
	o := rendertest.NewOracle(w, h)
	o.Colors, o.Hyperlinks = render.ColorTrue, true
	s := render.NewScreen(o, w, h, plainOpts)
	want := render.NewBuffer(w, h)
	draw(want)
	draw(s.Back())
	if _, err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if d := o.Diff(want); d != "" {
		t.Fatalf("screen differs from the frame:\n%s", d)
	}
	out := string(o.Stream())
	if n := strings.Count(out, "38;2;224;108;117;48;2;40;44;52m"); n != 1 {
		t.Errorf("the code style was set %d times, want once: %q", n, out)
	}
}

// A style whose SGR is short (bold) is drawn in reading order: deferring
// it would cost more in moves than it saves.
func TestShortStylesStayInReadingOrder(t *testing.T) {
	const w, h = 40, 30
	o := rendertest.NewOracle(w, h)
	s := render.NewScreen(o, w, h, plainOpts)
	for y := range h {
		x := s.Back().SetString(0, y, "a ", render.Style{}, "")
		x += s.Back().SetString(x, y, "bold", render.Style{Attrs: render.Bold}, "")
		s.Back().SetString(x, y, " word", render.Style{}, "")
	}
	if _, err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	out := string(o.Stream())
	if n := strings.Count(out, "\x1b[1m"); n != h {
		t.Errorf("bold set %d times, want %d (once per row, in reading order): %q", n, h, out)
	}
}

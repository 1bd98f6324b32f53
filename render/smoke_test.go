package render_test

import (
	"testing"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

func TestSmoke(t *testing.T) {
	o := rendertest.NewOracle(20, 5)
	s := render.NewScreen(o, 20, 5, render.Options{Colors: render.ColorTrue, Hyperlinks: true})
	want := render.NewBuffer(20, 5)
	draw := func(b *render.Buffer) {
		b.SetString(0, 0, "hello コンニチハ", render.Style{Fg: render.RGB(255, 0, 0), Attrs: render.Bold}, "")
		b.SetString(2, 2, "link", render.Style{}, "https://x")
		b.SetString(0, 4, "👨‍👩‍👧 e\u0301 🇯🇵", render.Style{Bg: render.ANSI(4)}, "")
		b.Fill(10, 3, 5, 1, render.Style{Bg: render.Indexed(200)})
	}
	draw(s.Back())
	draw(want)
	st, err := s.Flush()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v %q", st, o.Stream())
	if d := o.Diff(want); d != "" {
		t.Fatal(d)
	}
	draw(s.Back())
	st, _ = s.Flush()
	if st.Bytes != 0 {
		t.Fatalf("idle frame wrote %d", st.Bytes)
	}
	if err := rendertest.CheckSync(o.Stream()); err != nil {
		t.Fatal(err)
	}
}

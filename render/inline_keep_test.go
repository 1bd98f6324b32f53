package render_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

// no3J is a terminal that ignores CSI 3 J, as libvterm before 0.3 does
// (the terminals of neovim and emacs-libvterm).
type no3J struct{ o *rendertest.Oracle }

func (t no3J) Write(p []byte) (int, error) {
	_, err := t.o.Write(bytes.ReplaceAll(p, []byte("\x1b[3J"), nil))
	return len(p), err
}

// TestInlineWidthChangeWithoutClearingScrollback: on a terminal that
// ignores CSI 3 J, an inline view told so (KeepScrollback) keeps every
// history line once across a width change and draws the live region
// right at the new width; the default, which purges and reprints, would
// show the history twice there.
func TestInlineWidthChangeWithoutClearingScrollback(t *testing.T) {
	for _, keep := range []bool{true, false} {
		t.Run(fmt.Sprint("keep=", keep), func(t *testing.T) {
			o := rendertest.NewOracle(40, 10)
			v := render.NewInline(no3J{o}, 40, 10, 0, render.Options{Colors: render.ColorTrue, KeepScrollback: keep})
			var history []render.Line
			for i := range 25 {
				history = append(history, render.Plain(fmt.Sprintf("history line %02d", i), render.Style{}))
			}
			v.InsertAbove(history...)
			live := func(w int) *render.Buffer {
				b := render.NewBuffer(w, 2)
				b.SetString(0, 0, strings.Repeat("─", w), render.Style{}, "")
				b.SetString(0, 1, "› prompt", render.Style{}, "")
				return b
			}
			draw := func(w int) {
				v.SetLiveHeight(2)
				v.Live().CopyFrom(live(w))
				v.SetCursor(2, 1, true)
				if _, err := v.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			draw(40)
			o.Resize(30, 10)
			v.Resize(30, 10)
			if !keep {
				v.InsertAbove(history...) // what the app reprints after a purge
			}
			draw(30)
			text := strings.Join(append(o.ScrollbackText(), o.ScreenText()...), "\n")
			n := strings.Count(text, "history line 07")
			switch {
			case keep && n != 1:
				t.Fatalf("a history line shows %d times after the width change, want once:\n%s", n, text)
			case !keep && n != 2:
				t.Fatalf("without KeepScrollback a terminal ignoring 3J should show the reprint twice (the case this option exists for), got %d:\n%s", n, text)
			}
			top, _ := v.Region()
			if d := o.DiffAt(top, live(30)); d != "" {
				t.Fatalf("the live region at the new width differs:\n%s", d)
			}
		})
	}
}

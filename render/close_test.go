package render_test

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

func TestScreenCloseRestoresTheTerminal(t *testing.T) {
	o := rendertest.NewOracle(10, 3)
	s := render.NewScreen(o, 10, 3, plainOpts)
	if err := s.Close(); err != nil || len(o.Stream()) != 0 {
		t.Fatalf("closing an unused screen wrote %q (err %v)", o.Stream(), err)
	}
	s.Back().SetString(0, 0, "x", render.Style{Fg: render.ANSI(1), Attrs: render.Underline}, "https://x")
	s.SetCursor(0, 0, false)
	if _, err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if !o.Emulator().IsAltScreen() {
		t.Fatal("first frame did not enter the alternate screen")
	}
	before := len(o.Stream())
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if o.Emulator().IsAltScreen() {
		t.Fatal("still on the alternate screen")
	}
	if _, _, vis := o.Cursor(); !vis {
		t.Fatal("cursor left hidden")
	}
	tail := string(o.Stream()[before:])
	if !strings.HasPrefix(tail, "\x1b[?2026h") || !strings.HasSuffix(tail, "\x1b[?2026l") || !strings.Contains(tail, "\x1b[m") {
		t.Fatalf("close wrote %q", tail)
	}
	if err := rendertest.CheckSync(o.Stream()); err != nil {
		t.Fatal(err)
	}
}

func TestInlineIdleFrameWritesNothing(t *testing.T) {
	out := &writes{}
	v := render.NewInline(out, 20, 10, 3, plainOpts)
	v.SetLiveHeight(2)
	draw := func() { v.Live().SetString(0, 1, "› prompt", render.Style{}, "") }
	draw()
	v.SetCursor(2, 1, true)
	if _, err := v.Flush(); err != nil {
		t.Fatal(err)
	}
	n := len(out.calls)
	draw()
	if st, err := v.Flush(); err != nil || st.Bytes != 0 || len(out.calls) != n {
		t.Fatalf("idle inline frame: %+v %v", st, err)
	}
}

// Raw bytes (a bell) ride in the next inline frame, inside its bracket,
// also when no cell changed, and the region is left as it was.
func TestInlineRawBytesFrame(t *testing.T) {
	out := &writes{}
	o := rendertest.NewOracle(20, 10)
	o.Write([]byte("\r\n\r\n\r\n")) // the shell's cursor is on row 3
	v := render.NewInline(ioMulti(o, out), 20, 10, 3, plainOpts)
	v.SetLiveHeight(2)
	draw := func() { v.Live().SetString(0, 1, "› prompt", render.Style{}, "") }
	draw()
	v.SetCursor(2, 1, true)
	if _, err := v.Flush(); err != nil {
		t.Fatal(err)
	}
	screen := strings.Join(o.ScreenText(), "\n")
	cx, cy, _ := o.Cursor()
	draw()
	v.AppendRaw([]byte("\a"))
	if _, err := v.Flush(); err != nil {
		t.Fatal(err)
	}
	if body := frameBody(t, out.last()); !strings.Contains(body, "\a") {
		t.Fatalf("frame body %q lacks the bell", body)
	}
	if got := strings.Join(o.ScreenText(), "\n"); got != screen || !strings.Contains(got, "› prompt") {
		t.Fatalf("the region changed:\n%s\nwas:\n%s", got, screen)
	}
	if x, y, _ := o.Cursor(); x != cx || y != cy {
		t.Fatalf("cursor at (%d,%d), was (%d,%d)", x, y, cx, cy)
	}
}

// While the region has room below it, inserted lines take its place and
// push it down (scrolling only the rows from the region down); once it is
// at the bottom they scroll a region above it into scrollback.
func TestInlineInsertTechniques(t *testing.T) {
	o := rendertest.NewOracle(20, 6)
	out := &writes{}
	o.Write([]byte("$ quire\r\n")) // the shell's line; the cursor is on row 1
	v := render.NewInline(ioMulti(o, out), 20, 6, 1, plainOpts)
	v.SetLiveHeight(2)
	v.Live().SetString(0, 0, "status", render.Style{}, "")
	v.Live().SetString(0, 1, "prompt", render.Style{}, "")
	if _, err := v.Flush(); err != nil {
		t.Fatal(err)
	}
	v.InsertAbove(render.Plain("one", render.Style{}), render.Plain("two", render.Style{}))
	v.Live().SetString(0, 0, "status", render.Style{}, "")
	v.Live().SetString(0, 1, "prompt", render.Style{}, "")
	if _, err := v.Flush(); err != nil {
		t.Fatal(err)
	}
	if body := frameBody(t, out.last()); !strings.Contains(body, "\x1b[2;6r\x1b[2T\x1b[r") || strings.Contains(body, "status") {
		t.Fatalf("push-down frame %q: want the region scrolled down, not redrawn", body)
	}
	if top, h := v.Region(); top != 3 || h != 2 {
		t.Fatalf("region at %d height %d", top, h)
	}
	v.InsertAbove(render.Plain("three", render.Style{}), render.Plain("four", render.Style{}), render.Plain("five", render.Style{}))
	v.Live().SetString(0, 0, "status", render.Style{}, "")
	v.Live().SetString(0, 1, "prompt", render.Style{}, "")
	if _, err := v.Flush(); err != nil {
		t.Fatal(err)
	}
	body := frameBody(t, out.last())
	if !strings.Contains(body, "\x1b[;4r") || strings.Contains(body, "status") {
		t.Fatalf("insert frame %q: want a scroll region above the live region", body)
	}
	got := append(o.ScrollbackText(), o.ScreenText()...)
	want := []string{"$ quire", "one", "two", "three", "four", "five", "status", "prompt"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("terminal holds %q, want %q", got, want)
	}
}

// After something else drew on the terminal, Invalidate makes the next
// frame redraw everything from a known state.
func TestScreenInvalidate(t *testing.T) {
	o := rendertest.NewOracle(20, 4)
	s := render.NewScreen(o, 20, 4, plainOpts)
	want := render.NewBuffer(20, 4)
	want.SetString(0, 1, "transcript", render.Style{Fg: render.ANSI(2)}, "")
	s.Back().CopyFrom(want)
	flush(t, s)
	o.Write([]byte("\x1b[31;4m\x1b]8;;http://junk\agarbage\r\nmore\x1b[?25h"))
	s.Invalidate()
	s.Back().CopyFrom(want)
	flush(t, s)
	if d := o.Diff(want); d != "" {
		t.Fatal(d)
	}
	if _, _, vis := o.Cursor(); vis {
		t.Fatal("cursor left visible")
	}
}

// After a child process printed below the live region, Reanchor at the
// row the cursor ended on redraws the region there; the child's output
// and the earlier history stay.
func TestInlineReanchor(t *testing.T) {
	o := rendertest.NewOracle(20, 8)
	v := render.NewInline(o, 20, 8, 0, plainOpts)
	v.InsertAbove(render.Plain("history", render.Style{}))
	v.SetLiveHeight(1)
	v.Live().SetString(0, 0, "› prompt", render.Style{}, "")
	if _, err := v.Flush(); err != nil {
		t.Fatal(err)
	}
	// The app leaves the region (as for a suspend), a child prints two
	// lines, and the cursor ends on row 4.
	v.SetLiveHeight(0)
	if _, err := v.Flush(); err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("\x1b[1m$ make\r\nok\r\n"))
	_, row, _ := o.Cursor()
	v.Reanchor(row)
	v.SetLiveHeight(1)
	v.Live().SetString(0, 0, "› prompt", render.Style{}, "")
	if _, err := v.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(o.ScreenText()[:4], "|"); got != "history|$ make|ok|› prompt" {
		t.Fatalf("screen %q", got)
	}
	live := render.NewBuffer(20, 1)
	live.SetString(0, 0, "› prompt", render.Style{}, "")
	if d := o.DiffAt(3, live); d != "" {
		t.Fatal(d)
	}
}

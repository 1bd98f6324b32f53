package render_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

// TestScreenMatchesOracle draws random frame sequences (CJK, emoji with
// ZWJ and flags, combining marks, controls, links, style changes, cursor
// moves, hinted scrolls, resizes) and checks after every flush that a
// terminal fed the bytes shows exactly the frame.
func TestScreenMatchesOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.IntRange(1, 30).Draw(t, "w")
		h := rapid.IntRange(1, 10).Draw(t, "h")
		level := render.ColorLevel(rapid.IntRange(0, 3).Draw(t, "level"))
		links := rapid.Bool().Draw(t, "links")
		o := rendertest.NewOracle(w, h)
		o.Colors, o.Hyperlinks = level, links
		s := render.NewScreen(o, w, h, render.Options{Colors: level, Hyperlinks: links, NoBCE: rapid.Bool().Draw(t, "nobce")})
		if rapid.Bool().Draw(t, "deferral") {
			render.ForceDeferral(s)
		}
		want := render.NewBuffer(w, h)
		frames := rapid.IntRange(1, 12).Draw(t, "frames")
		for f := range frames {
			switch rapid.IntRange(0, 9).Draw(t, "kind") {
			case 0:
				w = rapid.IntRange(1, 30).Draw(t, "nw")
				h = rapid.IntRange(1, 10).Draw(t, "nh")
				o.Resize(w, h)
				s.Resize(w, h)
				want.Resize(w, h)
			case 3:
				// Something else draws on the terminal; the app says so.
				o.Write([]byte("\x1b[1;4;31m\x1b]8;;http://junk\ajunk\r\n\x1b[2;3Hmore\x1b[?25h"))
				s.Invalidate()
			case 1, 2:
				top := rapid.IntRange(0, h-1).Draw(t, "top")
				bottom := rapid.IntRange(top+1, h).Draw(t, "bottom")
				n := rapid.IntRange(-(bottom-top), bottom-top).Draw(t, "n")
				want.Shift(top, bottom, n)
				if rapid.Bool().Draw(t, "hint") {
					s.ScrollHint(top, bottom, n)
				}
			}
			for range rapid.IntRange(0, 6).Draw(t, "ops") {
				mutate(t, want)
			}
			cx, cy := rapid.IntRange(0, w-1).Draw(t, "cx"), rapid.IntRange(0, h-1).Draw(t, "cy")
			vis := rapid.Bool().Draw(t, "vis")
			s.SetCursor(cx, cy, vis)
			s.Back().CopyFrom(want)
			before := len(o.Stream())
			if _, err := s.Flush(); err != nil {
				t.Fatal(err)
			}
			if d := o.Diff(want); d != "" {
				t.Fatalf("frame %d: screen differs from the frame:\n%s\nbytes: %q", f, d, o.Stream()[before:])
			}
			gx, gy, gvis := o.Cursor()
			if gvis != vis || vis && (gx != cx || gy != cy) {
				t.Fatalf("frame %d: cursor at (%d,%d) visible=%v, want (%d,%d) visible=%v", f, gx, gy, gvis, cx, cy, vis)
			}
			// The same frame again writes nothing.
			s.Back().CopyFrom(want)
			st, err := s.Flush()
			if err != nil {
				t.Fatal(err)
			}
			if st.Bytes != 0 {
				t.Fatalf("frame %d: repeating the frame wrote %d bytes: %q", f, st.Bytes, o.Stream()[len(o.Stream())-st.Bytes:])
			}
		}
		if err := rendertest.CheckSync(o.Stream()); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

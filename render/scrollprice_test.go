package render_test

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"

	"github.com/quire-sh/quire/render"
)

// TestStoppingTheRedrawEarlyChoosesTheSameBytes draws random frame
// sequences that scroll, stream and restyle, without hints, through a
// screen that stops redrawing a frame once enough rows changed to look
// for a scroll, and through one that finishes the redraw first: both
// write the same bytes, frame after frame.
func TestStoppingTheRedrawEarlyChoosesTheSameBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.IntRange(1, 30).Draw(t, "w")
		h := rapid.IntRange(3, 14).Draw(t, "h")
		level := render.ColorLevel(rapid.IntRange(0, 3).Draw(t, "level"))
		opts := render.Options{Colors: level, Hyperlinks: rapid.Bool().Draw(t, "links"), NoBCE: rapid.Bool().Draw(t, "nobce")}
		var early, first bytes.Buffer
		se, sf := render.NewScreen(&early, w, h, opts), render.NewScreen(&first, w, h, opts)
		render.RedrawFirst(sf)
		if rapid.Bool().Draw(t, "deferral") {
			render.ForceDeferral(se)
			render.ForceDeferral(sf)
		}
		want := render.NewBuffer(w, h)
		for f := range rapid.IntRange(1, 12).Draw(t, "frames") {
			if rapid.IntRange(0, 2).Draw(t, "scroll") > 0 {
				top := rapid.IntRange(0, h-2).Draw(t, "top")
				bottom := rapid.IntRange(top+2, h).Draw(t, "bottom")
				n := rapid.IntRange(-(bottom-top-1), bottom-top-1).Draw(t, "n")
				want.Shift(top, bottom, n)
			}
			for range rapid.IntRange(0, 6).Draw(t, "ops") {
				mutate(t, want)
			}
			cx, cy, vis := rapid.IntRange(0, w-1).Draw(t, "cx"), rapid.IntRange(0, h-1).Draw(t, "cy"), rapid.Bool().Draw(t, "vis")
			early.Reset()
			first.Reset()
			for _, s := range []*render.Screen{se, sf} {
				s.SetCursor(cx, cy, vis)
				s.Back().CopyFrom(want)
				if _, err := s.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(early.Bytes(), first.Bytes()) {
				t.Fatalf("frame %d: stopping early wrote\n%q\nfinishing first wrote\n%q", f, early.Bytes(), first.Bytes())
			}
		}
	})
}

// TestInlineStoppingTheRedrawEarlyChoosesTheSameBytes is the same check
// for the inline view's live region, whose rows scroll as a streamed tail
// grows under inserted lines and as the region grows and shrinks.
func TestInlineStoppingTheRedrawEarlyChoosesTheSameBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.IntRange(2, 30).Draw(t, "w")
		h := rapid.IntRange(3, 14).Draw(t, "h")
		row := rapid.IntRange(0, h-1).Draw(t, "row")
		opts := render.Options{Colors: render.ColorLevel(rapid.IntRange(0, 3).Draw(t, "level")), Hyperlinks: rapid.Bool().Draw(t, "links")}
		var early, first bytes.Buffer
		ve, vf := render.NewInline(&early, w, h, row, opts), render.NewInline(&first, w, h, row, opts)
		render.InlineRedrawFirst(vf)
		live := render.NewBuffer(w, 0)
		for f := range rapid.IntRange(1, 12).Draw(t, "frames") {
			var above []render.Line
			for range rapid.IntRange(0, 3).Draw(t, "inserts") {
				above = append(above, render.Line{Spans: []render.Span{{Text: genText(t, "line"), Style: genStyle(t)}}})
			}
			if rapid.IntRange(0, 2).Draw(t, "resize") == 0 {
				_, lh := live.Size()
				nh := rapid.IntRange(0, h).Draw(t, "live")
				live.Resize(w, nh)
				if nh > lh && rapid.Bool().Draw(t, "grows at the top") {
					live.Shift(0, nh, lh-nh)
				}
			}
			_, lh := live.Size()
			if lh >= 2 && rapid.IntRange(0, 2).Draw(t, "scroll") > 0 {
				top := rapid.IntRange(0, lh-2).Draw(t, "top")
				bottom := rapid.IntRange(top+2, lh).Draw(t, "bottom")
				live.Shift(top, bottom, rapid.IntRange(-(bottom-top-1), bottom-top-1).Draw(t, "n"))
			}
			for range rapid.IntRange(0, 5).Draw(t, "ops") {
				mutate(t, live)
			}
			cx, cy, vis := rapid.IntRange(0, w-1).Draw(t, "cx"), rapid.IntRange(0, max(lh-1, 0)).Draw(t, "cy"), rapid.Bool().Draw(t, "vis")
			early.Reset()
			first.Reset()
			for _, v := range []*render.Inline{ve, vf} {
				v.InsertAbove(above...)
				v.SetLiveHeight(lh)
				v.Live().CopyFrom(live)
				v.SetCursor(cx, cy, vis)
				if _, err := v.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(early.Bytes(), first.Bytes()) {
				t.Fatalf("frame %d: stopping early wrote\n%q\nfinishing first wrote\n%q", f, early.Bytes(), first.Bytes())
			}
		}
	})
}

package render_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

// TestInlineInsertsEachLineOnce interleaves InsertAbove and live-region
// frames (with the region growing and shrinking, starting anywhere on the
// screen) and checks after every flush that the terminal's scrollback
// plus the rows above the region hold the earlier output and every
// inserted line exactly once, in order, with the live region below them
// and nothing but blanks under it.
func TestInlineInsertsEachLineOnce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.IntRange(2, 30).Draw(t, "w")
		h := rapid.IntRange(1, 12).Draw(t, "h")
		row := rapid.IntRange(0, h-1).Draw(t, "row")
		o := rendertest.NewOracle(w, h)
		// Earlier shell output fills the rows above the starting row.
		var history []string
		var inserted []render.Line // every line inserted since the last purge
		for i := range row {
			history = append(history, clip(fmt.Sprintf("s%d", i), w))
		}
		if row > 0 {
			fmt.Fprint(o, strings.Join(history, "\r\n")+"\r\n")
		}
		v := render.NewInline(o, w, h, row, render.Options{Colors: render.ColorTrue, Hyperlinks: true})
		live := render.NewBuffer(w, 0)
		next := 0
		for f := range rapid.IntRange(1, 10).Draw(t, "frames") {
			for range rapid.IntRange(0, 5).Draw(t, "inserts") {
				text := fmt.Sprintf("L%d", next)
				next++
				pad := rapid.IntRange(0, 3).Draw(t, "pad")
				line := render.Line{Spans: []render.Span{
					{Text: text, Style: genStyle(t)},
					{Text: strings.Repeat("コ", pad), Style: genStyle(t), Link: rapid.SampledFrom(urlPool).Draw(t, "link")},
				}}
				v.InsertAbove(line)
				inserted = append(inserted, line)
				history = append(history, clip(text+strings.Repeat("コ", pad), w))
			}
			switch rapid.IntRange(0, 5).Draw(t, "window") {
			case 0:
				// A new width purges; the caller re-inserts its history
				// wrapped (here: clipped) at the new width.
				nw := rapid.IntRange(2, 30).Draw(t, "nw")
				if nw == w {
					break
				}
				w = nw
				o.Resize(w, h)
				v.Resize(w, h)
				live.Resize(w, 0)
				v.SetLiveHeight(0)
				history = history[:0]
				for _, l := range inserted {
					v.InsertAbove(l)
					history = append(history, clip(l.Text(), w))
				}
			case 1:
				// A height change that keeps the cursor's row on screen:
				// terminals agree on what that does (they differ when the
				// cursor's row is cut off).
				_, cy, _ := o.Cursor()
				nh := rapid.IntRange(cy+1, 12).Draw(t, "nh")
				o.Resize(w, nh)
				v.Resize(w, nh)
				h = nh
				_, lh := live.Size()
				live.Resize(w, min(lh, h))
				v.SetLiveHeight(min(lh, h))
			}
			if rapid.IntRange(0, 2).Draw(t, "resize") == 0 {
				lh := rapid.IntRange(0, h).Draw(t, "live")
				v.SetLiveHeight(lh)
				live.Resize(w, lh)
			}
			for range rapid.IntRange(0, 4).Draw(t, "ops") {
				mutate(t, live)
			}
			v.Live().CopyFrom(live)
			_, lh := live.Size()
			cx, cy := rapid.IntRange(0, w-1).Draw(t, "cx"), rapid.IntRange(0, max(lh-1, 0)).Draw(t, "cy")
			vis := rapid.Bool().Draw(t, "vis")
			v.SetCursor(cx, cy, vis)
			before := len(o.Stream())
			if _, err := v.Flush(); err != nil {
				t.Fatal(err)
			}
			bytes := o.Stream()[before:]
			top, rh := v.Region()
			if rh != lh {
				t.Fatalf("frame %d: region height %d, want %d", f, rh, lh)
			}
			if d := o.DiffAt(top, live); d != "" {
				t.Fatalf("frame %d: live region at row %d differs:\n%s\nbytes: %q", f, top, d, bytes)
			}
			screen := o.ScreenText()
			got := append(o.ScrollbackText(), screen[:top]...)
			// Trim the blank rows a terminal keeps above content that has
			// not yet reached them.
			for len(got) > len(history) && got[len(got)-1] == "" {
				got = got[:len(got)-1]
			}
			if !slices.Equal(got, history) {
				t.Fatalf("frame %d: history is\n%q\nwant\n%q\nbytes: %q", f, got, history, bytes)
			}
			// The inserted lines hold their styles and links too: they
			// are the last len(inserted) lines of the history above the
			// region.
			sb := len(o.ScrollbackText())
			for i, l := range inserted {
				want := render.NewBuffer(w, 1)
				want.SetLine(0, 0, l)
				at := sb + top - len(inserted) + i
				if d := o.HistoryDiff(at, want, 0); d != "" {
					t.Fatalf("frame %d: inserted line %d: %s\nbytes: %q", f, i, d, bytes)
				}
			}
			for y := top + lh; y < h; y++ {
				if screen[y] != "" {
					t.Fatalf("frame %d: row %d below the region shows %q", f, y, screen[y])
				}
			}
			gx, gy, gvis := o.Cursor()
			if gvis != vis || vis && lh > 0 && (gx != cx || gy != top+cy) {
				t.Fatalf("frame %d: cursor at (%d,%d) visible=%v, want (%d,%d) visible=%v", f, gx, gy, gvis, cx, top+cy, vis)
			}
		}
		if err := v.Close(); err != nil {
			t.Fatal(err)
		}
		if err := rendertest.CheckSync(o.Stream()); err != nil {
			t.Fatal(err)
		}
	})
}

// clip is what a line of text shows at width w.
func clip(s string, w int) string {
	b := render.NewBuffer(w, 1)
	b.SetString(0, 0, s, render.Style{}, "")
	return strings.TrimRight(rendertest.BufferRow(b, 0), " ")
}

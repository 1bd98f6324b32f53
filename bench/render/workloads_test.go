package renderbench

import (
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/quire-sh/quire/render"
)

// TestWorkloadInvariants checks what the harness promises every renderer:
// well-formed rows, span forms that match the cells, and scroll hints
// that are true, across the seam where each loop starts again.
func TestWorkloadInvariants(t *testing.T) {
	for _, s := range Sizes {
		for _, w := range Workloads(s) {
			t.Run(w.Name, func(t *testing.T) {
				if len(w.Frames) == 0 {
					t.Fatal("no frames")
				}
				for i, r := range w.Rows {
					if r.ID != i {
						t.Fatalf("row %d has ID %d", i, r.ID)
					}
					checkRow(t, w, r)
				}
				for i := range w.Frames {
					f := &w.Frames[i]
					want := f.Height
					if w.Mode == Inline {
						want = len(f.Rows)
					}
					if len(f.Rows) != want || want == 0 {
						t.Fatalf("frame %d: %d rows for height %d", i, len(f.Rows), f.Height)
					}
					for _, r := range append(append([]*Row{}, f.Rows...), f.Insert...) {
						if len(r.Cells) != f.Width {
							t.Fatalf("frame %d: row of %d cells at width %d", i, len(r.Cells), f.Width)
						}
					}
					prev := &w.Frames[(i+len(w.Frames)-1)%len(w.Frames)]
					if h := f.Scroll; h.N != 0 {
						for y := h.Top; y < h.Bottom-h.N; y++ {
							if f.Rows[y] != prev.Rows[y+h.N] && rowText(f.Rows[y]) != rowText(prev.Rows[y+h.N]) {
								t.Fatalf("frame %d: scroll hint %+v is false at row %d: %q was %q", i, h, y, rowText(f.Rows[y]), rowText(prev.Rows[y+h.N]))
							}
						}
					}
				}
			})
		}
	}
}

// checkRow: wide cells are followed by their right half, widths agree
// with the terminal's grapheme measure, and laying Line out again gives
// the same cells.
func checkRow(t *testing.T, w *Workload, r *Row) {
	t.Helper()
	for x := 0; x < len(r.Cells); x++ {
		c := r.Cells[x]
		switch c.Width {
		case 1, 2:
			if got := ansi.StringWidthWc(c.Grapheme); c.Width == 2 && got != 2 && ansi.GraphemeWidth.StringWidth(c.Grapheme) != 2 {
				t.Fatalf("row %d col %d: %q is %d wide here, %d to the terminal", r.ID, x, c.Grapheme, c.Width, got)
			}
			if int(c.Width) != render.StringWidth(c.Grapheme) || int(c.Width) != ansi.GraphemeWidth.StringWidth(c.Grapheme) {
				t.Fatalf("row %d col %d: %q width %d disagrees with render.StringWidth %d or the terminal's %d",
					r.ID, x, c.Grapheme, c.Width, render.StringWidth(c.Grapheme), ansi.GraphemeWidth.StringWidth(c.Grapheme))
			}
			if c.Width == 2 && (x+1 >= len(r.Cells) || r.Cells[x+1].Width != 0) {
				t.Fatalf("row %d col %d: wide %q has no right half", r.ID, x, c.Grapheme)
			}
			if c.Width == 2 {
				x++
			}
		default:
			t.Fatalf("row %d col %d: stray right half", r.ID, x)
		}
	}
	b := newBuilder("check", w.Mode, "")
	b.w.Styles, b.w.Links = w.Styles, w.Links
	for i, st := range w.Styles {
		b.styles[st] = uint16(i)
	}
	for i, l := range w.Links {
		b.links[l] = uint16(i)
	}
	again := b.row(len(r.Cells), render.Style{}, r.Line.Spans...)
	for x := range r.Cells {
		if again.Cells[x] != r.Cells[x] {
			t.Fatalf("row %d col %d: Line lays out as %+v, cells hold %+v", r.ID, x, again.Cells[x], r.Cells[x])
		}
	}
}

func TestLinkID(t *testing.T) {
	seen := map[string]uint16{}
	for i := uint16(0); i < 5000; i++ {
		id := LinkID(i)
		if j, dup := seen[id]; dup {
			t.Fatalf("LinkID(%d) = LinkID(%d) = %q", i, j, id)
		}
		seen[id] = i
	}
}

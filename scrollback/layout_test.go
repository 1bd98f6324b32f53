package scrollback

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestLayoutWindowBook is tui.md §25 item 17: heights [3,5,2,4], a
// viewport of 5 lines at line 4 shows entries 1 and 2.
func TestLayoutWindowBook(t *testing.T) {
	var c LayoutCache
	for _, h := range []int{3, 5, 2, 4} {
		c.Append(h, true)
	}
	first, end := c.Window(4, 5)
	if first != 1 || end != 3 {
		t.Fatalf("Window(4,5) = [%d,%d), want [1,3)", first, end)
	}
	if got := c.Top(3); got != 10 {
		t.Fatalf("entry 3 starts at %d, want 10", got)
	}
}

// TestLayoutAgainstLinearScan drives the cache with random appends,
// inserts, deletes, height changes (collapses, measurements, filter
// hiding) and width invalidations and checks every query against the
// O(n) definition.
func TestLayoutAgainstLinearScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var c LayoutCache
		var model []int
		var measured []bool
		steps := rapid.IntRange(1, 120).Draw(t, "steps")
		for s := 0; s < steps; s++ {
			switch op := rapid.IntRange(0, 6).Draw(t, "op"); {
			case op <= 1 || len(model) == 0:
				h := rapid.IntRange(0, 40).Draw(t, "h")
				m := rapid.Bool().Draw(t, "m")
				c.Append(h, m)
				model = append(model, h)
				measured = append(measured, m)
			case op == 2:
				i := rapid.IntRange(0, len(model)).Draw(t, "i")
				h := rapid.IntRange(0, 40).Draw(t, "h")
				c.Insert(i, h, false)
				model = slices.Insert(model, i, h)
				measured = slices.Insert(measured, i, false)
			case op == 3:
				i := rapid.IntRange(0, len(model)-1).Draw(t, "i")
				c.Delete(i)
				model = slices.Delete(model, i, i+1)
				measured = slices.Delete(measured, i, i+1)
			case op == 4: // collapse, expand, measure or hide one entry
				i := rapid.IntRange(0, len(model)-1).Draw(t, "i")
				h := rapid.IntRange(0, 40).Draw(t, "h")
				c.Set(i, h, true)
				model[i] = h
				measured[i] = true
			case op == 5: // width change
				c.Invalidate()
				for i := range measured {
					measured[i] = false
				}
			default: // query
			}
			checkLayout(t, &c, model, measured)
		}
	})
}

func checkLayout(t *rapid.T, c *LayoutCache, model []int, measured []bool) {
	if c.Len() != len(model) {
		t.Fatalf("Len = %d, want %d", c.Len(), len(model))
	}
	total := 0
	for i, h := range model {
		if got := c.Top(i); got != total {
			t.Fatalf("Top(%d) = %d, want %d (heights %v)", i, got, total, model)
		}
		if c.Height(i) != h || c.Measured(i) != measured[i] {
			t.Fatalf("entry %d: height %d measured %v, want %d %v", i, c.Height(i), c.Measured(i), h, measured[i])
		}
		total += h
	}
	if c.Total() != total {
		t.Fatalf("Total = %d, want %d", c.Total(), total)
	}
	for y := -1; y <= total+1; y++ {
		want := len(model)
		acc := 0
		for i, h := range model {
			if y >= acc && y < acc+h {
				want = i
				break
			}
			acc += h
		}
		if y < 0 {
			want = 0
		}
		if got := c.Find(y); got != want {
			t.Fatalf("Find(%d) = %d, want %d (heights %v)", y, got, want, model)
		}
	}
	for _, vh := range []int{1, 3, 10} {
		for top := 0; top <= total; top++ {
			f, e := c.Window(top, vh)
			lf, le := c.windowLinear(top, vh)
			if f != lf || e != le {
				t.Fatalf("Window(%d,%d) = [%d,%d), linear scan [%d,%d) (heights %v)", top, vh, f, e, lf, le, model)
			}
		}
	}
}

// TestLayoutAppendPatchesOnlyTheTail is tui.md §25 item 18 for the
// Fenwick layout: an append writes only the new tail node (every earlier
// node of the tree is untouched) and never rebuilds; an insert in the
// middle is structural and rebuilds once; a collapse in the middle is an
// O(log n) patch rather than the book's full recompute.
func TestLayoutAppendPatchesOnlyTheTail(t *testing.T) {
	var c LayoutCache
	for i := 0; i < 1000; i++ {
		c.Append(i%7+1, true)
	}
	c.Prepare()
	before := slices.Clone(c.sums.tree)
	rebuilds := c.Stats().Rebuilds
	c.Append(5, true)
	if c.Stats().Rebuilds != rebuilds {
		t.Fatal("append rebuilt the prefix sums")
	}
	if !slices.Equal(c.sums.tree[:len(before)], before) {
		t.Fatal("append changed prefix-sum nodes before the tail")
	}
	if c.Dirty() {
		t.Fatal("append marked the layout dirty")
	}

	c.Set(500, 1, true) // collapse a block in the middle
	if c.Dirty() || c.Stats().Rebuilds != rebuilds {
		t.Fatal("a height change in the middle should patch, not rebuild")
	}

	c.Insert(10, 4, false)
	if !c.Dirty() {
		t.Fatal("an insert in the middle must mark the layout dirty")
	}
	_ = c.Total()
	if c.Dirty() || c.Stats().Rebuilds != rebuilds+1 {
		t.Fatalf("the next query should rebuild exactly once, rebuilds %d → %d", rebuilds, c.Stats().Rebuilds)
	}
}

func TestLayoutInvalidateIsCheap(t *testing.T) {
	var c LayoutCache
	for i := 0; i < 100; i++ {
		c.Append(3, true)
	}
	c.Invalidate()
	for i := 0; i < 100; i++ {
		if c.Measured(i) {
			t.Fatalf("entry %d still measured after a width change", i)
		}
		if c.Height(i) != 3 {
			t.Fatalf("entry %d lost its height as estimate", i)
		}
	}
	c.Set(7, 4, true)
	if !c.Measured(7) || c.Measured(8) {
		t.Fatal("measuring one entry after a width change must mark only it")
	}
}

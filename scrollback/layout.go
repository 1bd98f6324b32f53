package scrollback

// LayoutCache holds the vertical layout of a list of entries at one width:
// each entry's height, whether that height is exact or a cheap estimate,
// and the prefix sums of the heights, so that the paint window of a
// viewport is found by binary search instead of a walk over the history.
//
// Entries are addressed by position (0-based). Heights change in three
// ways, with different costs:
//
//   - Append at the end (the streaming fast path) and Set anywhere (a
//     block grew, was measured, folded or hidden by a filter) patch the
//     prefix sums in O(log n).
//   - Insert and Delete before the end are structural: they mark the sums
//     dirty, and the next query rebuilds them in O(n).
//   - Invalidate (a width change) marks every height as an estimate in
//     O(1) and keeps the old heights as those estimates; callers then
//     measure only what they are about to show.
//
// The zero value is an empty cache ready to use.
type LayoutCache struct {
	heights []int32
	// measuredGen[i] == gen means heights[i] is exact at the current
	// width; Invalidate bumps gen so every entry becomes an estimate
	// without touching n slots.
	measuredGen []uint32
	gen         uint32
	sums        fenwick
	// dirty is set by structural changes; queries rebuild the sums first.
	dirty bool
	stats LayoutStats
}

// LayoutStats counts the work the cache did, for tests and benchmarks
// that assert the cost model rather than wall time.
type LayoutStats struct {
	Rebuilds     int // O(n) prefix-sum rebuilds
	PointUpdates int // O(log n) height patches (Set and Append)
	Measures     int // MarkMeasured calls that recorded an exact height
}

// Len is the number of entries.
func (c *LayoutCache) Len() int { return len(c.heights) }

// Stats reports the work done so far.
func (c *LayoutCache) Stats() LayoutStats { return c.stats }

// Append adds an entry at the end. It never rebuilds the sums: only the
// new tail node of the tree is written.
func (c *LayoutCache) Append(h int, measured bool) {
	c.heights = append(c.heights, clampHeight(h))
	c.measuredGen = append(c.measuredGen, c.genFor(measured))
	if !c.dirty {
		c.sums.push(int(c.heights[len(c.heights)-1]))
		c.stats.PointUpdates++
	}
}

// Insert adds an entry before position i (i == Len appends).
func (c *LayoutCache) Insert(i, h int, measured bool) {
	c.InsertN(i, 1, func(int) (int, bool) { return h, measured })
}

// InsertN adds k entries before position i; at(j) gives the height and
// measured flag of the j-th new entry.
func (c *LayoutCache) InsertN(i, k int, at func(j int) (h int, measured bool)) {
	if i == len(c.heights) {
		for j := 0; j < k; j++ {
			h, m := at(j)
			c.Append(h, m)
		}
		return
	}
	c.heights = append(c.heights[:i], append(make([]int32, k), c.heights[i:]...)...)
	c.measuredGen = append(c.measuredGen[:i], append(make([]uint32, k), c.measuredGen[i:]...)...)
	for j := 0; j < k; j++ {
		h, m := at(j)
		c.heights[i+j] = clampHeight(h)
		c.measuredGen[i+j] = c.genFor(m)
	}
	c.dirty = true
}

// Delete removes the entry at position i.
func (c *LayoutCache) Delete(i int) {
	c.heights = append(c.heights[:i], c.heights[i+1:]...)
	c.measuredGen = append(c.measuredGen[:i], c.measuredGen[i+1:]...)
	c.dirty = true
}

// Reset removes every entry.
func (c *LayoutCache) Reset() {
	c.heights = c.heights[:0]
	c.measuredGen = c.measuredGen[:0]
	c.dirty = true
}

// Set records the height of entry i and whether it is exact.
func (c *LayoutCache) Set(i, h int, measured bool) {
	nh := clampHeight(h)
	if old := c.heights[i]; old != nh {
		c.heights[i] = nh
		if !c.dirty {
			c.sums.add(i, int(nh-old))
			c.stats.PointUpdates++
		}
	}
	c.measuredGen[i] = c.genFor(measured)
	if measured {
		c.stats.Measures++
	}
}

// Invalidate marks every height as an estimate (the width changed). The
// old heights stay as the estimates; nothing is re-measured here.
func (c *LayoutCache) Invalidate() {
	c.gen++
	if c.gen == 1<<31 { // far from wrapping: restart the count so generations never alias
		clear(c.measuredGen)
		c.gen = 1
	}
}

// Height is entry i's current height (exact or estimated).
func (c *LayoutCache) Height(i int) int { return int(c.heights[i]) }

// Measured reports whether entry i's height is exact at the current width.
func (c *LayoutCache) Measured(i int) bool { return c.measuredGen[i] == c.gen+1 }

// Dirty reports whether a structural change is waiting for a rebuild.
func (c *LayoutCache) Dirty() bool { return c.dirty }

// Prepare rebuilds the prefix sums if a structural change made them dirty.
// Every query calls it, so callers need not.
func (c *LayoutCache) Prepare() {
	if c.dirty || c.sums.len() != len(c.heights) {
		c.sums.build(c.heights)
		c.dirty = false
		c.stats.Rebuilds++
	}
}

// Top is the first line of entry i: the sum of the heights before it.
// Top(Len()) is Total().
func (c *LayoutCache) Top(i int) int {
	c.Prepare()
	return c.sums.prefix(i)
}

// Total is the sum of all heights.
func (c *LayoutCache) Total() int { return c.Top(len(c.heights)) }

// Find returns the entry that holds line y, skipping entries of height
// zero; it returns Len() when y is at or past Total and 0 for y < 0.
func (c *LayoutCache) Find(y int) int {
	if y < 0 {
		return 0
	}
	c.Prepare()
	return c.sums.search(y)
}

// Window returns the entries a viewport of height lines starting at line
// top intersects: [first, end). Entries of height zero inside the range
// are included and draw nothing.
func (c *LayoutCache) Window(top, height int) (first, end int) {
	if height <= 0 {
		return c.Find(top), c.Find(top)
	}
	first = c.Find(top)
	end = c.Find(top+height-1) + 1
	if end > len(c.heights) {
		end = len(c.heights)
	}
	return first, end
}

// windowLinear is the O(n) definition Window must agree with (tests use
// it as the oracle): the first entry with a line at or below top, and the
// first entry starting at or past the viewport's bottom.
func (c *LayoutCache) windowLinear(top, height int) (first, end int) {
	n := len(c.heights)
	first, end = n, n
	y := 0
	for i, h := range c.heights {
		if first == n && h > 0 && y+int(h) > top {
			first = i
		}
		if y >= top+height {
			end = i
			break
		}
		y += int(h)
	}
	if end < first {
		end = first
	}
	return first, end
}

func (c *LayoutCache) genFor(measured bool) uint32 {
	if measured {
		return c.gen + 1
	}
	return c.gen
}

func clampHeight(h int) int32 {
	if h < 0 {
		return 0
	}
	if h > 1<<30 {
		return 1 << 30
	}
	return int32(h)
}

package render

// Without a ScrollHint the screen still looks for rows that moved: it
// hashes every row of both frames (a row the frame left as it was keeps
// its hash) and finds the vertical shift that would leave the most rows
// already right. The shift is only a
// candidate; Flush prices it against a plain redraw byte for byte, so a
// false match (a hash collision, a coincidence) costs time, never bytes.

// minScrollGain is how many rows a shift must fix before it is worth
// pricing; a redraw must have changed at least detectRows rows before a
// shift is looked for (a streamed line and a spinner change fewer).
const (
	minScrollGain = 2
	detectRows    = 4
)

// detectScroll returns the best scroll it can find between the front and
// back buffers, or an unset hint.
func (s *Screen) detectScroll() scrollHint {
	h := s.back.height
	if cap(s.frontHash) < h {
		s.frontHash, s.backHash = make([]uint64, h), make([]uint64, h)
	}
	return findScroll(s.front, s.back, s.frontHash[:h], s.backHash[:h])
}

// findScroll returns the vertical shift of rows that would leave the
// most rows of back already right if applied to front (two buffers of
// one size), or an unset hint. hf and hb are scratch space of the
// buffers' height.
func findScroll(front, back *Buffer, hf, hb []uint64) scrollHint {
	h := back.height
	if h < 3 || back.width == 0 || front.height != h {
		return scrollHint{}
	}
	changed := 0
	for y := range h {
		// A row the frame left as it was (byte for byte, as most are) has
		// the hash of the row it was.
		hf[y] = rowHash(front.row(y))
		if identicalCells(front.row(y), back.row(y)) {
			hb[y] = hf[y]
			continue
		}
		hb[y] = rowHash(back.row(y))
		if hf[y] != hb[y] {
			changed++
		}
	}
	if changed < minScrollGain {
		return scrollHint{}
	}
	best, bestGain := scrollHint{}, minScrollGain-1
	for n := -(h - 2); n <= h-2; n++ {
		if n == 0 {
			continue
		}
		// Runs of rows y whose new content is the old row y+n.
		start, gain := -1, 0
		for y := 0; y <= h; y++ {
			src := y + n
			if y < h && src >= 0 && src < h && hb[y] == hf[src] {
				if start < 0 {
					start, gain = y, 0
				}
				if hb[y] != hf[y] {
					gain++
				}
				continue
			}
			if start >= 0 && gain > bestGain {
				// Rows [start, y) came from [start+n, y+n): the region
				// spans both.
				top, bottom := min(start, start+n), max(y, y+n)
				if bottom-top >= 2 && abs(n) < bottom-top {
					best, bestGain = scrollHint{top: top, bottom: bottom, n: n, set: true}, gain
				}
			}
			start = -1
		}
	}
	return best
}

// rowHash is a cheap fingerprint of a row's cells.
func rowHash(row []Cell) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	for i := range row {
		c := &row[i]
		for j := 0; j < len(c.Grapheme); j++ {
			h = (h ^ uint64(c.Grapheme[j])) * prime
		}
		h = (h ^ uint64(c.Style.Fg)<<32 ^ uint64(c.Style.Bg)) * prime
		h = (h ^ uint64(c.Style.Attrs)<<8 ^ uint64(c.kind) ^ uint64(len(c.Link))<<16) * prime
		if c.Link != "" {
			h = (h ^ uint64(c.Link[len(c.Link)-1])) * prime
		}
	}
	return h
}

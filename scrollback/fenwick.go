package scrollback

// fenwick is a binary indexed tree over non-negative heights. It answers
// "how many lines lie above entry i" and "which entry holds line y" in
// O(log n), absorbs a height change anywhere in O(log n) and grows at the
// end in O(log n), so neither a token streamed into the last block nor a
// fold in the middle of a long transcript costs work proportional to its
// length. Only a structural change (an insert or delete before the end)
// needs the O(n) rebuild.
type fenwick struct {
	tree []int // 1-based; tree[0] is unused
}

func (f *fenwick) len() int { return len(f.tree) - 1 }

// build replaces the tree with one over heights in O(n).
func (f *fenwick) build(heights []int32) {
	n := len(heights)
	if cap(f.tree) >= n+1 {
		f.tree = f.tree[:n+1]
	} else {
		f.tree = make([]int, n+1, n+1+n/4)
	}
	f.tree[0] = 0
	for i, h := range heights {
		f.tree[i+1] = int(h)
	}
	for i := 1; i <= n; i++ {
		if p := i + i&-i; p <= n {
			f.tree[p] += f.tree[i]
		}
	}
}

// push appends one entry of height h. Node n covers (n-lowbit(n), n], so
// its value is h plus the sum of the entries it covers before n.
func (f *fenwick) push(h int) {
	if len(f.tree) == 0 {
		f.tree = append(f.tree, 0)
	}
	n := len(f.tree)
	v := h + f.prefix(n-1) - f.prefix(n-n&-n)
	f.tree = append(f.tree, v)
}

// add changes entry i (0-based) by delta.
func (f *fenwick) add(i, delta int) {
	for j := i + 1; j < len(f.tree); j += j & -j {
		f.tree[j] += delta
	}
}

// prefix is the sum of the first k entries.
func (f *fenwick) prefix(k int) int {
	s := 0
	for j := k; j > 0; j -= j & -j {
		s += f.tree[j]
	}
	return s
}

// search returns the largest k with prefix(k) <= y: the number of entries
// that end at or above line y, which is the 0-based index of the entry
// holding line y (entries of height zero are skipped over).
func (f *fenwick) search(y int) int {
	n := len(f.tree) - 1
	if n <= 0 {
		return 0
	}
	step := 1
	for step*2 <= n {
		step *= 2
	}
	k := 0
	for ; step > 0; step /= 2 {
		if k+step <= n && f.tree[k+step] <= y {
			k += step
			y -= f.tree[k]
		}
	}
	return k
}

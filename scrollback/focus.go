package scrollback

// Focus focuses a block and scrolls it into view.
func (t *Transcript) Focus(id ID) bool {
	i, ok := t.index[id]
	if !ok {
		return false
	}
	t.pg.focus = id
	t.ensureVisible(i)
	return true
}

// Focused is the focused block, or 0.
func (t *Transcript) Focused() ID {
	if _, ok := t.index[t.pg.focus]; ok {
		return t.pg.focus
	}
	return 0
}

// Unfocus clears the focus.
func (t *Transcript) Unfocus() { t.pg.focus = 0 }

// FocusNext moves the focus to the next visible block (n > 0) or the
// previous one (n < 0). Without a focus it starts from the block at the
// top of the viewport.
func (t *Transcript) FocusNext(n int) bool {
	i, ok := t.here()
	if !ok {
		return false
	}
	if _, focused := t.index[t.pg.focus]; !focused {
		n -= sign(n) // the first step focuses the block on screen
	}
	step := sign(n)
	for ; n != 0; n -= step {
		j := i + step
		for j >= 0 && j < len(t.blocks) && t.blocks[j].hidden {
			j += step
		}
		if j < 0 || j >= len(t.blocks) {
			break
		}
		i = j
	}
	if t.blocks[i].hidden {
		return false
	}
	return t.Focus(t.blocks[i].id)
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

// ensureVisible scrolls the least needed for block i to be on screen: its
// top when it is taller than the screen or above it, its bottom when it
// is below.
func (t *Transcript) ensureVisible(i int) {
	v := t.view(i)
	y0, h := t.lay.Top(i), v.height()
	top := t.top()
	switch {
	case y0 < top || h >= t.h:
		t.pg.follow = false
		t.setTop(y0)
	case y0+h > top+t.h:
		t.pg.follow = false
		t.setTop(y0 + h - t.h)
		if t.top() >= t.maxTop() {
			t.pg.follow = true
		}
	}
}

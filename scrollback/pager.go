package scrollback

// pager is the scroll state. The position is kept relative to a block
// (anchor id plus a line offset into it) rather than as an absolute line,
// so that measuring estimated blocks above the viewport, prepending
// history or folding a block elsewhere never moves what the user reads.
type pager struct {
	anchor ID
	offset int
	follow bool
	focus  ID

	scratch frameScratch
}

// top is the transcript line at the top of the viewport.
func (t *Transcript) top() int {
	maxTop := t.maxTop()
	if t.pg.follow {
		return maxTop
	}
	i, ok := t.index[t.pg.anchor]
	if !ok {
		return 0
	}
	y := t.lay.Top(i) + min(t.pg.offset, max(t.lay.Height(i)-1, 0))
	return min(y, maxTop)
}

func (t *Transcript) maxTop() int { return max(0, t.lay.Total()-t.h) }

// setTop scrolls so that line y is at the top, re-anchoring on the block
// that holds it.
func (t *Transcript) setTop(y int) {
	y = max(0, min(y, t.maxTop()))
	if len(t.blocks) == 0 {
		t.pg.anchor, t.pg.offset = 0, 0
		return
	}
	i := min(t.lay.Find(y), len(t.blocks)-1)
	t.pg.anchor = t.blocks[i].id
	t.pg.offset = y - t.lay.Top(i)
}

// leaveFollow pins the current position before a scroll away from the
// bottom.
func (t *Transcript) leaveFollow() {
	if t.pg.follow {
		t.pg.follow = false
		t.setTop(t.maxTop())
	}
}

// settle lays out what the next frame shows: the blocks whose content
// changed, then every block within one screen of the viewport (the
// estimate of a block is replaced by its exact height only here, so the
// first frame of a long resumed transcript measures O(screen) blocks).
func (t *Transcript) settle() int {
	t.settleStale()
	for range 8 {
		top := t.top()
		from, to := t.lay.Window(max(0, top-t.h), 3*t.h)
		changed := false
		for i := from; i < to; i = t.nextShown(i) {
			if t.lay.Measured(i) {
				continue
			}
			changed = true
			if t.blocks[i].hidden {
				t.lay.Set(i, 0, true)
				continue
			}
			t.view(i)
		}
		// The prompt pinned at the top may lie far above the window.
		if p, ok := t.turnPromptAt(top); ok && !t.lay.Measured(p) {
			changed = true
			t.view(p)
		}
		if !changed {
			break
		}
	}
	top := t.top()
	from, to := t.lay.Window(max(0, top-t.h), 3*t.h)
	if p, ok := t.turnPromptAt(top); ok {
		from = min(from, p) // keep the pinned prompt's lines too
	}
	t.evict(from, to)
	return top
}

// turnPromptAt is the position of the prompt of the turn that line y
// belongs to.
func (t *Transcript) turnPromptAt(y int) (int, bool) {
	if len(t.blocks) == 0 {
		return 0, false
	}
	k := t.blocks[min(t.lay.Find(y), len(t.blocks)-1)].turn
	if k < 0 {
		return 0, false
	}
	return t.index[t.turns[k].prompt], true
}

// ScrollLines scrolls n lines down (n < 0: up). Scrolling up leaves
// follow mode; scrolling down onto the last line enters it again.
func (t *Transcript) ScrollLines(n int) {
	if n == 0 {
		return
	}
	if n < 0 {
		t.leaveFollow()
		t.setTop(t.top() + n)
		return
	}
	if t.pg.follow {
		return
	}
	y := t.top() + n
	if y >= t.maxTop() {
		t.pg.follow = true
		return
	}
	t.setTop(y)
}

// ScrollHalfPages scrolls n half screens (less's d and u).
func (t *Transcript) ScrollHalfPages(n int) { t.ScrollLines(n * max(1, t.h/2)) }

// ScrollPages scrolls n screens (less's space and b). A page is the
// screen minus the rows the pinned prompt will cover where the page
// lands, so paging never skips a line beneath the header.
func (t *Transcript) ScrollPages(n int) {
	for ; n > 0; n-- {
		top := t.top()
		rows, _ := t.stickyAt(top + t.h)
		if rows > 0 {
			rows, _ = t.stickyAt(top + t.h - rows)
		}
		t.ScrollLines(max(1, t.h-rows))
	}
	for ; n < 0; n++ {
		rows, _ := t.stickyAt(max(0, t.top()-t.h))
		t.ScrollLines(-max(1, t.h-rows))
	}
}

// ScrollTop goes to the first line (less's g).
func (t *Transcript) ScrollTop() {
	t.jumped()
	t.pg.follow = false
	t.setTop(0)
}

// ScrollBottom goes to the last line and follows new output (less's G
// and F).
func (t *Transcript) ScrollBottom() {
	if !t.pg.follow {
		t.jumped()
	}
	t.pg.follow = true
}

// GotoLine puts transcript line n (1-based, less's <n>g) at the top.
func (t *Transcript) GotoLine(n int) {
	t.jumped()
	t.pg.follow = false
	t.setTop(n - 1)
	if t.top() >= t.maxTop() && t.maxTop() > 0 {
		t.pg.follow = true
	}
}

// Following reports whether the view sticks to the bottom.
func (t *Transcript) Following() bool { return t.pg.follow }

// SetFollow enters or leaves follow mode.
func (t *Transcript) SetFollow(on bool) {
	if on {
		t.pg.follow = true
		return
	}
	t.leaveFollow()
}

// JumpToBlock scrolls block id to the top of the viewport. The id is
// resolved to its current position first, so blocks inserted before it
// since the id was taken cannot make the jump land elsewhere.
func (t *Transcript) JumpToBlock(id ID) bool {
	i, ok := t.index[id]
	if !ok {
		return false
	}
	t.jumped()
	t.scrollToIndex(i)
	return true
}

func (t *Transcript) scrollToIndex(i int) {
	t.pg.follow = false
	t.view(i) // measure it, so the position is exact
	if t.lay.Top(i) >= t.maxTop() {
		t.pg.follow = true // the block is on the last screen
		return
	}
	t.pg.anchor, t.pg.offset = t.blocks[i].id, 0
}

// JumpToTurn scrolls to the prompt of turn k (0-based).
func (t *Transcript) JumpToTurn(k int) bool {
	if k < 0 || k >= len(t.turns) {
		return false
	}
	return t.JumpToBlock(t.turns[k].prompt)
}

// here is the block the user is on: the focused one, else the one at the
// top of the viewport.
func (t *Transcript) here() (int, bool) {
	if i, ok := t.index[t.pg.focus]; ok {
		return i, true
	}
	if len(t.blocks) == 0 {
		return 0, false
	}
	return min(t.lay.Find(t.top()), len(t.blocks)-1), true
}

// PrevTurn is less-style h: inside a response it goes to this turn's
// prompt; on a prompt it goes to the previous turn's prompt. The focus
// follows when a block is focused.
func (t *Transcript) PrevTurn() bool {
	i, ok := t.here()
	if !ok {
		return false
	}
	k := t.blocks[i].turn
	if k < 0 {
		return false
	}
	p := t.index[t.turns[k].prompt]
	atPrompt := i == p
	if _, focused := t.index[t.pg.focus]; !focused {
		atPrompt = t.top() <= t.lay.Top(p)
	}
	if !atPrompt && !t.blocks[p].hidden {
		return t.goToTurn(k)
	}
	for k--; k >= 0; k-- {
		if !t.blocks[t.index[t.turns[k].prompt]].hidden {
			return t.goToTurn(k)
		}
	}
	return false
}

// NextTurn is less-style l: the next turn's prompt.
func (t *Transcript) NextTurn() bool {
	i, ok := t.here()
	if !ok {
		return false
	}
	for k := t.blocks[i].turn + 1; k < len(t.turns); k++ {
		if !t.blocks[t.index[t.turns[k].prompt]].hidden {
			return t.goToTurn(k)
		}
	}
	return false
}

func (t *Transcript) goToTurn(k int) bool {
	id := t.turns[k].prompt
	if _, focused := t.index[t.pg.focus]; focused {
		t.pg.focus = id
	}
	return t.JumpToBlock(id)
}

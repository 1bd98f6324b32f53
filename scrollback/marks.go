package scrollback

// position is a saved place in the transcript: the block at the top of
// the screen and the line offset into it, so that it survives blocks
// being laid out, folded, prepended or re-wrapped.
type position struct {
	anchor ID
	offset int
	follow bool
}

func (t *Transcript) savedPosition() position {
	if t.pg.follow {
		return position{follow: true}
	}
	return position{anchor: t.pg.anchor, offset: t.pg.offset}
}

// SetMark remembers the current position under a letter (less's m).
func (t *Transcript) SetMark(name rune) {
	if t.marks == nil {
		t.marks = make(map[rune]position)
	}
	t.marks[name] = t.savedPosition()
}

// GotoMark returns to a position saved by SetMark (less's '). The mark
// '\” is the position before the last jump (a search, h/l, g/G, a
// numbered line, a mark), so ” goes back and forth like in less.
func (t *Transcript) GotoMark(name rune) bool {
	p, ok := t.marks[name]
	if !ok {
		return false
	}
	if _, exists := t.index[p.anchor]; !exists && !p.follow {
		return false
	}
	t.jumped()
	t.pg.follow = p.follow
	t.pg.anchor, t.pg.offset = p.anchor, p.offset
	return true
}

// jumped records the current position as the mark '\” before a jump.
func (t *Transcript) jumped() {
	if t.marks == nil {
		t.marks = make(map[rune]position)
	}
	t.marks['\''] = t.savedPosition()
}

// GotoPercent puts the line p percent into the transcript at the top
// (less's p).
func (t *Transcript) GotoPercent(p int) {
	p = max(0, min(p, 100))
	t.jumped()
	t.pg.follow = false
	t.setTop(t.lay.Total() * p / 100)
	if p == 100 {
		t.pg.follow = true
	}
}

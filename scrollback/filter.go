package scrollback

// SetFilter shows only blocks whose text matches pattern (less's &); a
// prompt stays visible when anything in its turn matches, as the heading
// of what was found. A block still streaming stays visible until it
// finishes. An empty pattern shows everything again. Matching uses the
// block's source text (and a tool call's name and target), so filtering
// a long transcript lays nothing out.
func (t *Transcript) SetFilter(pattern string) {
	s := &t.srch
	s.filterP = pattern
	s.filter = Compile(pattern)
	keepTurn := make(map[int]bool)
	for _, b := range t.blocks {
		b.hidden = s.filter != nil && b.finished && !t.filterMatch(b)
		if !b.hidden && s.filter != nil && b.turn >= 0 {
			keepTurn[b.turn] = true
		}
	}
	for k, tr := range t.turns {
		if keepTurn[k] {
			t.blocks[t.index[tr.prompt]].hidden = false
		}
	}
	for i, b := range t.blocks {
		t.refreshHeight(i, b)
	}
	s.matchesValid = false
	if i, ok := t.index[s.cur.id]; ok && t.blocks[i].hidden {
		s.cur = matchPos{} // the current match was filtered out
	}
	if s.filter == nil {
		return
	}
	// The view moves to the first match at or below where it was.
	if i, ok := t.index[t.pg.anchor]; ok && t.blocks[i].hidden {
		t.pg.offset = 0
	}
}

// Filter is the active filter pattern, or "".
func (t *Transcript) Filter() string { return t.srch.filterP }

func (t *Transcript) filterMatch(b *Block) bool {
	re := t.srch.filter
	if re.MatchString(b.Source()) {
		return true
	}
	if b.sub != nil && re.MatchString(b.sub.agent) {
		return true
	}
	if b.tool != nil {
		return re.MatchString(b.tool.name) || re.MatchString(b.tool.target)
	}
	return false
}

// filterFinished applies the active filter to a block that just finished.
func (t *Transcript) filterFinished(b *Block) {
	if t.srch.filter == nil {
		return
	}
	hidden := !t.filterMatch(b)
	if b.kind == KindPrompt {
		hidden = hidden && !t.turnHasVisible(b.turn)
	}
	if !hidden && b.turn >= 0 {
		if p := t.blocks[t.index[t.turns[b.turn].prompt]]; p.hidden {
			p.hidden = false
			t.refreshHeight(t.index[p.id], p)
		}
	}
	if hidden != b.hidden {
		b.hidden = hidden
		t.refreshHeight(t.index[b.id], b)
	}
}

func (t *Transcript) turnHasVisible(k int) bool {
	if k < 0 {
		return false
	}
	for i := t.index[t.turns[k].prompt] + 1; i < len(t.blocks) && t.blocks[i].turn == k; i++ {
		if !t.blocks[i].hidden {
			return true
		}
	}
	return false
}

// refreshHeight puts block i's current height (0 when hidden) into the
// layout without laying it out: a laid-out block keeps its exact height,
// others get an estimate.
func (t *Transcript) refreshHeight(i int, b *Block) {
	t.touchSearch(b) // hidden blocks count no matches
	switch {
	case b.hidden:
		t.lay.Set(i, 0, true)
	case b.view != nil && b.view.width == t.width:
		t.stale[b.id] = struct{}{}
		t.lay.Set(i, b.view.height(), false)
	default:
		t.lay.Set(i, t.estimate(b), false)
	}
}

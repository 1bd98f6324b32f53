package scrollback

// ToggleCollapse folds the focused block (or the one at the top of the
// viewport). A tool call with long output cycles open (folded to
// FoldLines) → fully open → collapsed; other blocks toggle between open
// and collapsed.
func (t *Transcript) ToggleCollapse() {
	i, ok := t.here()
	if !ok {
		return
	}
	b := t.blocks[i]
	switch {
	case b.collapsed:
		t.setFold(b, false, false)
	case (b.kind == KindTool || b.kind == KindSubagent) && !b.unfolded && t.view(i).foot != nil:
		t.setFold(b, false, true)
	default:
		t.setFold(b, true, false)
	}
}

// SetCollapsed collapses or opens one block.
func (t *Transcript) SetCollapsed(id ID, collapsed bool) {
	if b := t.Block(id); b != nil {
		t.setFold(b, collapsed, b.unfolded && !collapsed)
	}
}

// CollapseAll collapses (or, with collapsed false, opens fully) every
// block except prompts, which stay as the outline.
func (t *Transcript) CollapseAll(collapsed bool) {
	for _, b := range t.blocks {
		if b.kind != KindPrompt {
			t.setFold(b, collapsed, !collapsed && (b.kind == KindTool || b.kind == KindSubagent))
		}
	}
}

func (t *Transcript) setFold(b *Block, collapsed, unfolded bool) {
	if b.collapsed == collapsed && b.unfolded == unfolded {
		return
	}
	b.collapsed, b.unfolded = collapsed, unfolded
	t.changed(b)
	// Keep the anchor inside the block it points at.
	if b.id == t.pg.anchor {
		t.settleStale()
		if i, ok := t.index[b.id]; ok {
			t.pg.offset = min(t.pg.offset, max(t.lay.Height(i)-1, 0))
		}
	}
}

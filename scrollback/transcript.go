package scrollback

import (
	"strings"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// Options configures a Transcript.
type Options struct {
	// Width and Height are the viewport's size in cells; Resize changes
	// them.
	Width, Height int
	// Theme styles the blocks; the zero Theme means DefaultTheme().
	Theme Theme
	// Assistant renders assistant text (markdown). The default wraps it
	// as plain text.
	Assistant RendererFactory
	// Cwd makes relative tool targets into file:// links. A
	// session_started event replaces it.
	Cwd string
	// FoldLines is how many lines of a long tool body show before the
	// "… N more lines" note (default 12).
	FoldLines int
	// StickyLines caps the height of the pinned prompt (default 3).
	StickyLines int
	// CacheLines bounds the rendered lines kept for blocks away from the
	// viewport (default 20,000); heights stay known when lines are
	// dropped, and a dropped block is laid out again when it is shown.
	CacheLines int
}

// Transcript is the model behind the pager: blocks in insertion order with
// O(1) lookup by id, the turns they form, their layout at the current
// width, and the pager's state over them (scroll position, follow, focus,
// search, filter, inline emission). It does no I/O and is not safe for
// concurrent use: the app's event loop owns it.
type Transcript struct {
	opt   Options
	theme Theme
	width int
	h     int
	cwd   string
	// now is the time a live session last gave (SetNow); zero in a
	// replay.
	now time.Time

	blocks []*Block
	index  map[ID]int
	nextID ID
	turns  []turn

	lay LayoutCache
	// stale holds measured blocks whose content changed since they were
	// laid out; the next frame lays out exactly these again.
	stale map[ID]struct{}
	// cached holds blocks with a view, and cachedLines their line count.
	cached      map[ID]int
	cachedLines int

	red   reducer
	pg    pager
	marks map[rune]position // less's m and '; kept apart from pg, which a cancelled search restores
	srch  search
	inl   inline
}

// turn is one prompt and everything after it up to the next prompt.
type turn struct {
	prompt ID
	number int // the engine's turn number, when known
}

// New returns an empty transcript.
func New(opt Options) *Transcript {
	if opt.Theme == (Theme{}) {
		opt.Theme = DefaultTheme()
	}
	if opt.Assistant == nil {
		opt.Assistant = PlainFactory(opt.Theme.Assistant)
	}
	if opt.FoldLines <= 0 {
		opt.FoldLines = 12
	}
	if opt.StickyLines <= 0 {
		opt.StickyLines = 3
	}
	if opt.CacheLines <= 0 {
		opt.CacheLines = 20000
	}
	t := &Transcript{
		opt:    opt,
		theme:  opt.Theme,
		width:  max(opt.Width, 1),
		h:      max(opt.Height, 1),
		cwd:    opt.Cwd,
		index:  make(map[ID]int),
		stale:  make(map[ID]struct{}),
		cached: make(map[ID]int),
		nextID: 1,
	}
	t.red.init()
	t.pg.follow = true
	return t
}

// Len is the number of blocks.
func (t *Transcript) Len() int { return len(t.blocks) }

// At returns the block at position i in insertion order.
func (t *Transcript) At(i int) *Block { return t.blocks[i] }

// Block returns the block with the given id, or nil.
func (t *Transcript) Block(id ID) *Block {
	if i, ok := t.index[id]; ok {
		return t.blocks[i]
	}
	return nil
}

// Index is the current position of a block; positions move when history
// is prepended, ids never do.
func (t *Transcript) Index(id ID) (int, bool) {
	i, ok := t.index[id]
	return i, ok
}

// Turns is the number of turns (prompts).
func (t *Transcript) Turns() int { return len(t.turns) }

// TurnPrompt is the prompt block of turn i.
func (t *Transcript) TurnPrompt(i int) ID { return t.turns[i].prompt }

// TurnNumber is the engine's number of turn i (event.Event.Turn), or 0
// when the log did not say; rewinding and forking name turns this way.
func (t *Transcript) TurnNumber(i int) int { return t.turns[i].number }

// Theme is how the transcript looks, for views beside it that show the
// same kinds of text (the approval panel's diffs).
func (t *Transcript) Theme() Theme { return t.theme }

// Width and Height are the viewport size.
func (t *Transcript) Width() int  { return t.width }
func (t *Transcript) Height() int { return t.h }

// LayoutStats reports the layout cache's work, for tests and benchmarks.
func (t *Transcript) LayoutStats() LayoutStats { return t.lay.Stats() }

// Measured reports whether block i's height is exact at the current width.
func (t *Transcript) Measured(i int) bool { return t.lay.Measured(i) }

// Clear removes every block. Ids keep counting: a block added after Clear
// never takes an id a cleared block had.
func (t *Transcript) Clear() {
	t.blocks = t.blocks[:0]
	clear(t.index)
	clear(t.stale)
	clear(t.cached)
	t.cachedLines = 0
	t.turns = t.turns[:0]
	t.lay.Reset()
	t.red.reset()
	t.pg = pager{follow: true}
	clear(t.marks)
	t.srch.matchesValid = false
	t.srch.cur = matchPos{}
	t.inl = inline{}
}

// Resize sets the viewport size. A width change invalidates every height
// in O(1): blocks are laid out again only as they come into view.
func (t *Transcript) Resize(width, height int) {
	width, height = max(width, 1), max(height, 1)
	t.h = height
	if width == t.width {
		return
	}
	t.width = width
	t.lay.Invalidate()
	t.srch.matchesValid = false
}

// addBlock appends a new block to the transcript.
func (t *Transcript) addBlock(kind Kind) *Block {
	b := &Block{id: t.nextID, kind: kind, turn: len(t.turns) - 1}
	t.nextID++
	if kind == KindPrompt {
		t.turns = append(t.turns, turn{prompt: b.id})
		b.turn = len(t.turns) - 1
	}
	if kind == KindReasoning {
		b.collapsed = true
	}
	t.index[b.id] = len(t.blocks)
	t.blocks = append(t.blocks, b)
	t.lay.Append(t.estimate(b), false)
	t.touchSearch(b)
	return b
}

// changed records that b's content or state changed: a measured block is
// laid out again at the next frame, an unmeasured one gets a new estimate
// now (O(log n) either way, never a walk over the transcript).
func (t *Transcript) changed(b *Block) {
	t.touchSearch(b)
	i := t.index[b.id]
	if t.lay.Measured(i) || b.view != nil {
		t.stale[b.id] = struct{}{}
		return
	}
	t.lay.Set(i, t.estimate(b), false)
}

// estimate is a cheap height guess that never lays text out.
func (t *Transcript) estimate(b *Block) int {
	if b.hidden {
		return 0
	}
	w := max(t.width-4, 8)
	n := b.src.Len()
	body := 0
	if n > 0 {
		// Each source line takes ceil(len/w) rows: between n/w and n/w
		// plus one per line, and never fewer rows than lines.
		body = max(b.lines+1, n/w+(b.lines+1)/2)
	}
	switch b.kind {
	case KindReasoning:
		if b.collapsed {
			return blockMargin + 1
		}
		return blockMargin + 1 + body
	case KindSubagent:
		switch {
		case b.collapsed:
			return blockMargin + 1
		case !b.finished:
			return blockMargin + 2 // the header and the progress line
		case !b.unfolded && body > t.opt.FoldLines+1:
			body = t.opt.FoldLines + 1
		}
		return blockMargin + 1 + body
	case KindTool:
		if b.tool != nil && b.tool.diff != "" {
			body = strings.Count(b.tool.diff, "\n") + 1
		}
		if b.collapsed {
			return blockMargin + 1
		}
		if !b.unfolded && body > t.opt.FoldLines+1 {
			body = t.opt.FoldLines + 1
		}
		return blockMargin + 1 + body
	}
	if b.collapsed && body > 1 {
		body = 2
	}
	return blockMargin + max(body, 1)
}

// view returns block i laid out at the current width, laying it out and
// recording its exact height if needed.
func (t *Transcript) view(i int) *blockView {
	b := t.blocks[i]
	_, stale := t.stale[b.id]
	if b.view != nil && b.view.width == t.width && !stale && t.lay.Measured(i) {
		return b.view
	}
	delete(t.stale, b.id)
	if old, ok := t.cached[b.id]; ok {
		t.cachedLines -= old
	}
	v := t.layout(b, t.width)
	b.view = v
	t.cached[b.id] = v.height()
	t.cachedLines += v.height()
	h := v.height()
	if b.hidden {
		h = 0
	}
	t.lay.Set(i, h, true)
	return v
}

// peek lays block i out without caching the result, for scans over the
// whole transcript (search, filter) that must not pin every block's lines
// in memory. It still records the exact height.
func (t *Transcript) peek(i int) *blockView {
	b := t.blocks[i]
	if b.view != nil && b.view.width == t.width {
		if _, stale := t.stale[b.id]; !stale {
			return b.view
		}
	}
	keepBody, keepWidth, keepFed, keepDone, keepRevs := b.body, b.bodyWidth, b.fed, b.bodyDone, b.revs
	v := t.layout(b, t.width)
	if b.finished && b.view == nil {
		// Drop the renderer again; the block is laid out afresh when shown.
		b.body, b.bodyWidth, b.fed, b.bodyDone, b.revs = keepBody, keepWidth, keepFed, keepDone, keepRevs
	}
	if !b.hidden && !t.lay.Measured(i) {
		t.lay.Set(i, v.height(), true)
	}
	return v
}

// settleStale lays out again the measured blocks whose content changed.
func (t *Transcript) settleStale() {
	for id := range t.stale {
		if i, ok := t.index[id]; ok {
			t.view(i)
		}
		delete(t.stale, id)
	}
}

// evict drops the lines of finished blocks outside [keepFrom, keepTo)
// once more than CacheLines lines are held.
func (t *Transcript) evict(keepFrom, keepTo int) {
	if t.cachedLines <= t.opt.CacheLines {
		return
	}
	for id, n := range t.cached {
		i, ok := t.index[id]
		if !ok {
			delete(t.cached, id)
			t.cachedLines -= n
			continue
		}
		if i >= keepFrom && i < keepTo {
			continue
		}
		t.forget(t.blocks[i])
	}
}

// forget drops block b's layout, and a finished block's renderer with
// it; the block is laid out afresh from its source when next shown.
func (t *Transcript) forget(b *Block) {
	b.view = nil
	if b.finished {
		b.body = nil
	}
	if n, ok := t.cached[b.id]; ok {
		delete(t.cached, b.id)
		t.cachedLines -= n
	}
}

// Prepend reduces events that happened before everything in the
// transcript (older history of a resumed session, loaded as the user
// scrolls up) and puts their blocks in front. The new blocks get fresh
// ids; what is on screen does not move.
func (t *Transcript) Prepend(events []event.Event) {
	if len(events) == 0 {
		return
	}
	older := New(t.opt)
	older.width, older.h = t.width, t.h
	older.nextID = t.nextID
	older.cwd = t.cwd
	for _, e := range events {
		older.Apply(e)
	}
	older.endTurn(nil) // history is complete: nothing of it streams
	t.nextID = older.nextID
	k := len(older.blocks)
	if k == 0 {
		return
	}
	for _, b := range older.blocks {
		b.view, b.body = nil, nil
		b.hidden = t.srch.filter != nil && !t.filterMatch(b)
	}
	t.blocks = append(older.blocks, t.blocks...)
	t.turns = append(older.turns, t.turns...)
	for i, b := range t.blocks {
		t.index[b.id] = i
		if i >= k && b.turn >= 0 {
			b.turn += len(older.turns)
		}
	}
	lastOlderTurn := len(older.turns) - 1
	for i := k; i < len(t.blocks) && t.blocks[i].turn < 0; i++ {
		// Blocks before the first prompt now belong to the last older turn.
		t.blocks[i].turn = lastOlderTurn
	}
	t.lay.InsertN(0, k, func(j int) (int, bool) { return t.estimate(older.blocks[j]), false })
	t.inl.next += k
	t.srch.matchesValid = false
}

package scrollback

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
)

// tallTurns has turns whose answers are taller than the screen.
func tallTurns(n, answerLines int) *script {
	s := &script{}
	for k := 0; k < n; k++ {
		s.prompt(fmt.Sprintf("prompt %d", k))
		var b strings.Builder
		for i := 0; i < answerLines; i++ {
			fmt.Fprintf(&b, "turn %d line %d\n", k, i)
		}
		s.say(b.String())
		s.end(event.TurnCompleted)
	}
	return s
}

func promptTop(tr *Transcript, k int) int {
	i, _ := tr.Index(tr.TurnPrompt(k))
	return tr.lay.Top(i)
}

// TestPrevNextTurn is tui.md §25 item 23.
func TestPrevNextTurn(t *testing.T) {
	tr := newTranscript(30, 10, tallTurns(3, 30).evs...)
	tr.Frame()
	tr.JumpToTurn(1)
	tr.ScrollLines(12) // inside turn 1's answer
	tr.Frame()
	if tr.top() <= promptTop(tr, 1) {
		t.Fatal("setup: not inside the response")
	}
	tr.PrevTurn()
	if got := tr.top(); got != promptTop(tr, 1) {
		t.Fatalf("first h: top %d, want this turn's prompt at %d", got, promptTop(tr, 1))
	}
	if got := screen(tr.Frame())[1]; got != "› prompt 1" {
		t.Fatalf("first h shows %q", got)
	}
	tr.PrevTurn()
	if got := tr.top(); got != promptTop(tr, 0) {
		t.Fatalf("second h: top %d, want previous prompt at %d", got, promptTop(tr, 0))
	}
	tr.NextTurn()
	if got := tr.top(); got != promptTop(tr, 1) {
		t.Fatalf("l: top %d, want next prompt at %d", got, promptTop(tr, 1))
	}
	tr.NextTurn()
	if got := screen(tr.Frame())[1]; got != "› prompt 2" {
		t.Fatalf("second l shows %q", got)
	}
	if tr.NextTurn() {
		t.Fatal("l on the last turn should do nothing")
	}

	// With a focused block, h goes from the answer to its prompt, then on.
	tr.Focus(tr.At(4).ID()) // turn 1's answer
	tr.PrevTurn()
	if tr.Focused() != tr.TurnPrompt(1) {
		t.Fatalf("h with focus: focused %d, want prompt of turn 1", tr.Focused())
	}
	tr.PrevTurn()
	if tr.Focused() != tr.TurnPrompt(0) {
		t.Fatalf("second h with focus: focused %d, want prompt of turn 0", tr.Focused())
	}
}

// TestJumpToBlockAfterPrepend is tui.md §25 item 22: blocks inserted
// before the target since its id was taken do not change where a jump
// lands.
func TestJumpToBlockAfterPrepend(t *testing.T) {
	newer := tallTurns(3, 5)
	tr := newTranscript(30, 8, newer.evs...)
	target := tr.At(2).ID() // turn 1's prompt
	tr.Prepend(tallTurns(4, 7).evs)
	if tr.Len() != 6+8+0 || tr.Turns() != 7 {
		t.Fatalf("after prepend: %d blocks, %d turns", tr.Len(), tr.Turns())
	}
	if tr.At(0).ID() <= target {
		t.Fatal("prepended blocks must get fresh ids")
	}
	tr.JumpToBlock(target)
	if got := screen(tr.Frame())[1]; got != "› prompt 1" {
		t.Fatalf("jump landed on %q", got)
	}
	if b := tr.Block(target); b.Turn() != 5 {
		t.Fatalf("target's turn index %d after prepending 4 turns, want 5", b.Turn())
	}
}

// TestWidthChangeMeasuresOnlyNearTheViewport is tui.md §25 item 19.
func TestWidthChangeMeasuresOnlyNearTheViewport(t *testing.T) {
	tr := newTranscript(60, 20, longTranscript(500).evs...)
	tr.Frame()
	tr.GotoLine(tr.lay.Total() / 2)
	tr.Frame()
	tr.Resize(45, 20)
	for i := 0; i < tr.Len(); i++ {
		if tr.Measured(i) {
			t.Fatalf("block %d still measured after a width change", i)
		}
	}
	f := tr.Frame()
	top := tr.top()
	measured := 0
	for i := 0; i < tr.Len(); i++ {
		if !tr.Measured(i) {
			continue
		}
		measured++
		y0, y1 := tr.lay.Top(i), tr.lay.Top(i+1)
		if y1 < top-2*tr.h || y0 > top+3*tr.h {
			t.Fatalf("block %d (lines %d-%d) measured far from the viewport at %d", i, y0, y1, top)
		}
	}
	if measured == 0 || measured > 40 {
		t.Fatalf("%d blocks measured after settling", measured)
	}
	for _, l := range f.Lines {
		if l.Width() > 45 {
			t.Fatalf("line %q wider than the new width", l.Text())
		}
	}
}

// TestResumeMeasuresOViewport is tui.md §25 item 20: 50,000 entries, and
// the first frame lays out a screenful, not the history.
func TestResumeMeasuresOViewport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 50,000-block transcript")
	}
	s := &script{}
	for len(s.evs) < 50000 {
		s.add(event.Event{Kind: event.Notice, Text: fmt.Sprintf("entry %d\nwith a second line", len(s.evs))})
	}
	tr := newTranscript(80, 40, s.evs...)
	before := tr.LayoutStats().Measures
	f := tr.Frame()
	if n := tr.LayoutStats().Measures - before; n > 200 {
		t.Fatalf("first frame measured %d of 50,000 blocks", n)
	}
	if got := screen(f)[39]; got != "  with a second line" {
		t.Fatalf("bottom row %q", got)
	}
	if f.Position.Total < 40 || !f.Position.Follow {
		t.Fatalf("position %v", f.Position)
	}
}

func TestStickyGeometry(t *testing.T) {
	tests := []struct {
		name                                  string
		promptTop, promptH, nextTop, top, max int
		rows, clip                            int
	}{
		{"prompt on screen", 10, 2, 40, 10, 3, 0, 0},
		{"prompt above screen", 10, 2, 40, 11, 3, 2, 0},
		{"well past", 10, 2, 40, 30, 3, 2, 0},
		{"next prompt two rows away", 10, 2, 40, 38, 3, 2, 0},
		{"pushed one row", 10, 2, 40, 39, 3, 1, 1},
		{"next prompt at top", 10, 2, 40, 40, 3, 0, 0},
		{"tall prompt capped", 10, 8, 40, 20, 3, 3, 0},
		{"tall prompt pushed", 10, 8, 40, 38, 3, 2, 1},
		{"above the prompt", 10, 2, 40, 5, 3, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, clip := StickyGeometry(tt.promptTop, tt.promptH, tt.nextTop, tt.top, tt.max)
			if rows != tt.rows || clip != tt.clip {
				t.Fatalf("got rows %d clip %d, want %d %d", rows, clip, tt.rows, tt.clip)
			}
		})
	}
}

func TestStickyHeaderIsPushedOutByTheNextPrompt(t *testing.T) {
	tr := newTranscript(30, 6, tallTurns(2, 10).evs...)
	tr.ScrollTop()
	tr.ScrollLines(4)
	f := tr.Frame()
	if f.Sticky != 1 || screen(f)[0] != "› prompt 0" || screen(f)[1] != "turn 0 line 2" {
		t.Fatalf("sticky prompt not pinned (sticky %d):\n%s", f.Sticky, dump(f))
	}
	// Prompt 1's margin starts at line 13: at top 13 the header is gone.
	tr.GotoLine(13)
	f = tr.Frame()
	if f.Sticky != 1 || screen(f)[0] != "› prompt 0" {
		t.Fatalf("header should still show one row above the next prompt:\n%s", dump(f))
	}
	tr.ScrollLines(1)
	f = tr.Frame()
	if f.Sticky != 0 || screen(f)[0] != "" || screen(f)[1] != "› prompt 1" {
		t.Fatalf("next prompt should push the header out:\n%s", dump(f))
	}
	tr.ScrollLines(2)
	if f = tr.Frame(); f.Sticky != 1 || screen(f)[0] != "› prompt 1" {
		t.Fatalf("the new turn's prompt should be pinned:\n%s", dump(f))
	}
}

func TestFollowMode(t *testing.T) {
	s := (&script{}).prompt("stream please")
	tr := newTranscript(30, 5, s.evs...)
	for i := 0; i < 20; i++ {
		tr.Apply(event.Event{Kind: event.AssistantDelta, Text: fmt.Sprintf("line %d\n", i)})
		if got := screen(tr.Frame())[4]; i >= 2 && got != fmt.Sprintf("line %d", i) {
			t.Fatalf("following: bottom row %q after line %d", got, i)
		}
	}
	tr.ScrollLines(-3)
	if tr.Following() {
		t.Fatal("scrolling up must leave follow mode")
	}
	before := screen(tr.Frame())
	tr.Apply(event.Event{Kind: event.AssistantDelta, Text: "line 20\n"})
	if after := screen(tr.Frame()); strings.Join(after, "|") != strings.Join(before, "|") {
		t.Fatalf("view moved while not following:\n%v\n%v", before, after)
	}
	tr.ScrollLines(2)
	if tr.Following() {
		t.Fatal("not at the bottom yet")
	}
	tr.ScrollLines(5)
	if !tr.Following() {
		t.Fatal("scrolling down onto the bottom should follow again")
	}
	tr.ScrollPages(-1)
	tr.ScrollBottom()
	tr.Apply(event.Event{Kind: event.AssistantDelta, Text: "line 21\n"})
	f := tr.Frame()
	if got := screen(f)[4]; got != "line 21" || !f.Position.Follow {
		t.Fatalf("bottom should re-enter follow; bottom row %q", got)
	}
	if got := f.Position.String(); got != "lines 21-25/25 100% (following)" {
		t.Fatalf("position %q", got)
	}
}

func TestPageKeysNeverSkipLines(t *testing.T) {
	tr := newTranscript(30, 8, tallTurns(1, 60).evs...)
	tr.ScrollTop()
	seen := map[string]bool{}
	for range 20 {
		f := tr.Frame()
		for r, l := range screen(f) {
			if r >= f.Sticky {
				seen[l] = true
			}
		}
		tr.ScrollPages(1)
	}
	for i := 0; i < 60; i++ {
		if l := fmt.Sprintf("turn 0 line %d", i); !seen[l] {
			t.Fatalf("paging never showed %q", l)
		}
	}
}

func TestCollapseAllAndFocus(t *testing.T) {
	tr := newTranscript(40, 30, longTranscript(3).evs...)
	tr.CollapseAll(true)
	got := screen(tr.Frame())
	want := []string{
		"", "› question 0 about the parser", "", "Answer 0: the lexer splits tokens and", "  ▸ 1 more line", "", "✓ read src/file0.go  12ms ▸ 3 lines",
	}
	if strings.Join(got[:7], "\n") != strings.Join(want, "\n") {
		t.Fatalf("collapsed:\n%s", strings.Join(got, "\n"))
	}
	tr.ScrollTop()
	tr.FocusNext(1)
	if tr.Focused() != tr.At(0).ID() {
		t.Fatalf("first FocusNext focuses the block on screen, got %d", tr.Focused())
	}
	tr.FocusNext(2)
	f := tr.Frame()
	if tr.Focused() != tr.At(2).ID() || f.FocusTop != 5 || f.FocusEnd != 7 {
		t.Fatalf("focus %d rows [%d,%d)", tr.Focused(), f.FocusTop, f.FocusEnd)
	}
	tr.ToggleCollapse()
	if tr.At(2).Collapsed() {
		t.Fatal("toggle should open the focused block")
	}
	tr.CollapseAll(false)
	if got := screen(tr.Frame()); got[4] != "the parser builds a tree from them." {
		t.Fatalf("expanded:\n%s", strings.Join(got, "\n"))
	}
}

// TestStreamingFrameWorkIsConstant checks the cost model on a long
// transcript: while an answer streams at the bottom, each frame lays out
// only the streaming block and never rebuilds the prefix sums, and a fold
// far above the viewport is a patch, not a rebuild.
func TestStreamingFrameWorkIsConstant(t *testing.T) {
	tr := newTranscript(80, 30, longTranscript(5000).evs...)
	tr.Apply(event.Event{Kind: event.UserMessage, Text: "more"})
	tr.Frame()
	before := tr.LayoutStats()
	for i := 0; i < 50; i++ {
		tr.Apply(event.Event{Kind: event.AssistantDelta, Text: fmt.Sprintf("word%d ", i)})
		tr.Frame()
	}
	after := tr.LayoutStats()
	if after.Rebuilds != before.Rebuilds {
		t.Fatalf("streaming rebuilt the prefix sums %d times", after.Rebuilds-before.Rebuilds)
	}
	if n := after.Measures - before.Measures; n > 50+5 {
		t.Fatalf("50 streamed frames laid out %d blocks", n)
	}
	tr.SetCollapsed(tr.At(10).ID(), true)
	tr.Frame()
	if tr.LayoutStats().Rebuilds != before.Rebuilds {
		t.Fatal("folding a block rebuilt the prefix sums")
	}
}

// TestEvictionBoundsCachedLines scrolls through a whole transcript with a
// small line cache: lines of blocks far from the screen are dropped, and
// scrolling back lays them out again identically.
func TestEvictionBoundsCachedLines(t *testing.T) {
	tr := New(Options{Width: 50, Height: 12, CacheLines: 300})
	for _, e := range longTranscript(400).evs {
		tr.Apply(e)
	}
	tr.ScrollTop()
	first := screen(tr.Frame())
	peak := 0
	for !tr.Following() {
		tr.ScrollPages(1)
		tr.Frame()
		peak = max(peak, tr.cachedLines)
	}
	if peak > 300+3*12+50 {
		t.Fatalf("cached lines peaked at %d with a budget of 300", peak)
	}
	if len(tr.cached) > 120 {
		t.Fatalf("%d blocks still hold lines", len(tr.cached))
	}
	tr.ScrollTop()
	if again := screen(tr.Frame()); strings.Join(again, "\n") != strings.Join(first, "\n") {
		t.Fatalf("after eviction the top reads:\n%s\nwas:\n%s", strings.Join(again, "\n"), strings.Join(first, "\n"))
	}
}

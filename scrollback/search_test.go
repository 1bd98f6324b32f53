package scrollback

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
)

func TestCompileSmartCaseAndLiteralFallback(t *testing.T) {
	tests := []struct {
		pattern, text string
		match         bool
	}{
		{"parser", "The Parser", true},  // all lower case: case-insensitive
		{"Parser", "the parser", false}, // an upper-case letter: case-sensitive
		{"Parser", "the Parser", true},
		{`F1\d\(`, "func F12() {}", true}, // a valid regex is a regex
		{"F12(", "func F12() {}", true},   // an invalid one is literal text
		{"a.c", "abc", true},
		{"[x", "a[x]", true},
	}
	for _, tt := range tests {
		if got := Compile(tt.pattern).MatchString(tt.text); got != tt.match {
			t.Errorf("Compile(%q) on %q = %v, want %v", tt.pattern, tt.text, got, tt.match)
		}
	}
	if Compile("") != nil {
		t.Error("an empty pattern matches nothing")
	}
}

// TestSearchThousandsOfBlocks drives / n N over 4,000 blocks.
func TestSearchThousandsOfBlocks(t *testing.T) {
	tr := newTranscript(60, 20, longTranscript(1000).evs...)
	tr.Frame()

	tr.BeginSearch(false)
	tr.SetSearchPattern("func F123\\(\\)")
	tr.CommitSearch()
	if st := fullSearch(tr); st.Count != 1 || st.Current != 1 {
		t.Fatalf("status %+v, want the one match, current", st)
	}
	f := tr.Frame()
	var cur *Match
	for i := range f.Matches {
		if f.Matches[i].Current {
			cur = &f.Matches[i]
		}
	}
	if cur == nil || screen(f)[cur.Row] != "  │ func F123() {}" || cur.Col != 4 || cur.Width != 11 {
		t.Fatalf("current match %+v on\n%s", cur, dump(f))
	}

	// Lower case: smart case matches "Question" and "question".
	tr.ScrollTop()
	tr.BeginSearch(false)
	tr.SetSearchPattern("question 99")
	tr.CommitSearch()
	if st := fullSearch(tr); st.Count != 11 || st.Current != 1 {
		t.Fatalf("status %+v, want 11 matches (99, 990-999)", st)
	}
	var order []string
	for i := range 12 {
		order = append(order, currentLine(tr))
		if i < 11 {
			tr.SearchNext(false)
		}
	}
	if order[0] != "› question 99 about the parser" || order[1] != "› question 990 about the parser" ||
		order[10] != "› question 999 about the parser" || order[11] != order[0] {
		t.Fatalf("n visits %q", order)
	}
	tr.SearchNext(true) // N goes back, wrapping around
	if got := currentLine(tr); got != "› question 999 about the parser" {
		t.Fatalf("N from the first match went to %q", got)
	}
	if st := fullSearch(tr); st.Current != 11 {
		t.Fatalf("current ordinal %d, want 11", st.Current)
	}

	// ? searches backwards from the screen.
	tr.ScrollBottom()
	tr.Frame()
	tr.BeginSearch(true)
	tr.SetSearchPattern("Answer 5")
	tr.CommitSearch()
	if got := currentLine(tr); !strings.HasPrefix(got, "Answer 599:") {
		t.Fatalf("? from the bottom found %q first", got)
	}
	tr.SearchNext(false) // n keeps ?'s direction
	if got := currentLine(tr); !strings.HasPrefix(got, "Answer 598:") {
		t.Fatalf("n after ? went to %q", got)
	}
}

func currentLine(tr *Transcript) string {
	f := tr.Frame()
	for _, m := range f.Matches {
		if m.Current {
			return screen(f)[m.Row]
		}
	}
	return "<no current match on screen>"
}

func TestIncrementalSearchCancelRestores(t *testing.T) {
	tr := newTranscript(60, 10, longTranscript(200).evs...)
	tr.Frame()
	before := screen(tr.Frame())
	tr.BeginSearch(false)
	for _, p := range []string{"q", "qu", "question 1", "question 12"} {
		tr.SetSearchPattern(p)
	}
	if tr.Following() {
		t.Fatal("an incremental search that found a match should have moved the view")
	}
	if !strings.Contains(currentLine(tr), "question 12") {
		t.Fatalf("incremental search shows %q", currentLine(tr))
	}
	if tr.SetSearchPattern("no such words") {
		t.Fatal("a pattern with no match reports false")
	}
	tr.CancelSearch()
	if after := screen(tr.Frame()); strings.Join(after, "\n") != strings.Join(before, "\n") || !tr.Following() {
		t.Fatalf("cancel did not restore the view:\n%s", strings.Join(after, "\n"))
	}
	if st := fullSearch(tr); st.Pattern != "" {
		t.Fatalf("cancel should restore the previous (empty) pattern, got %q", st.Pattern)
	}
}

func TestSearchCountFollowsStreaming(t *testing.T) {
	tr := newTranscript(40, 10, longTranscript(50).evs...)
	tr.BeginSearch(false)
	tr.SetSearchPattern("zebra")
	tr.CommitSearch()
	if fullSearch(tr).Count != 0 {
		t.Fatal("no zebra yet")
	}
	s := &script{turn: 50}
	s.prompt("zebra?")
	s.add(event.Event{Kind: event.AssistantDelta, Text: "a zebra, "})
	s.add(event.Event{Kind: event.AssistantDelta, Text: "another zebra"})
	for _, e := range s.evs {
		tr.Apply(e)
	}
	if got := fullSearch(tr).Count; got != 3 {
		t.Fatalf("count %d after streaming, want 3", got)
	}
	f := tr.Frame()
	if len(f.Matches) != 3 {
		t.Fatalf("%d highlighted matches on screen, want 3:\n%s", len(f.Matches), dump(f))
	}
}

func TestFilterShowsOnlyMatchingBlocks(t *testing.T) {
	tr := newTranscript(60, 12, longTranscript(2000).evs...)
	tr.Frame()
	tr.SetFilter(`file1234\.go`)
	tr.ScrollTop()
	requireScreen(t, tr.Frame(),
		"",
		"› question 1234 about the parser",
		"",
		"✓ read src/file1234.go  12ms",
		"  │ package p1234",
		"  │",
		"  │ func F1234() {}",
		"", "", "", "", "",
	)
	if tr.Filter() != `file1234\.go` {
		t.Fatal("Filter() should report the pattern")
	}
	// A block finishing while the filter is on is filtered too.
	s := &script{turn: 2000}
	s.prompt("unrelated")
	s.say("nothing to see")
	s.prompt("read file1234.go again")
	for _, e := range s.evs {
		tr.Apply(e)
	}
	got := strings.Join(screen(tr.Frame()), "\n")
	if strings.Contains(got, "unrelated") || strings.Contains(got, "nothing to see") || !strings.Contains(got, "› read file1234.go again") {
		t.Fatalf("filtered screen:\n%s", got)
	}
	tr.SetFilter("")
	tr.ScrollBottom()
	if got := strings.Join(screen(tr.Frame()), "\n"); !strings.Contains(got, "nothing to see") {
		t.Fatalf("clearing the filter should show everything:\n%s", got)
	}
	if total := tr.Frame().Position.Total; total < 2000*10 {
		t.Fatalf("total %d lines after clearing the filter", total)
	}
}

func TestFilterAndSearchTogether(t *testing.T) {
	tr := newTranscript(60, 12, longTranscript(300).evs...)
	tr.SetFilter("F2\\d\\(")
	tr.BeginSearch(false)
	tr.SetSearchPattern("package")
	tr.CommitSearch()
	if got := fullSearch(tr).Count; got != 10 {
		t.Fatalf("search inside a filter counts %d, want the 10 visible", got)
	}
	for range 10 {
		if l := currentLine(tr); !strings.HasPrefix(l, "  │ package p2") {
			t.Fatalf("search landed on hidden text %q", l)
		}
		tr.SearchNext(false)
	}
	_ = fmt.Sprint()
}

// fullSearch is the status once the count has finished, as the status
// line shows it after enough frames.
func fullSearch(tr *Transcript) SearchStatus {
	for {
		if st := tr.Search(); !st.Counting {
			return st
		}
	}
}

func TestSearchCountsOverFramesAndCommitFindsFarMatches(t *testing.T) {
	tr := newTranscript(60, 20, longTranscript(3000).evs...) // 9,000 blocks
	tr.ScrollTop()
	tr.BeginSearch(false)
	if tr.SetSearchPattern("question 2999 about") {
		t.Fatal("a match 9,000 blocks away is beyond one keystroke's preview")
	}
	if !tr.CommitSearch() {
		t.Fatal("Enter should search the whole transcript")
	}
	if got := currentLine(tr); got != "› question 2999 about the parser" {
		t.Fatalf("commit landed on %q", got)
	}
	st := tr.Search()
	if !st.Counting || st.Count != 0 || st.Current != 0 {
		t.Fatalf("first status %+v: the count should still be under way", st)
	}
	if !strings.Contains(st.String(), "counting") {
		t.Fatalf("status line %q", st)
	}
	calls := 1
	for st.Counting {
		st = tr.Search()
		calls++
	}
	if st.Count != 1 || st.Current != 1 || calls < 9 {
		t.Fatalf("final status %+v after %d calls", st, calls)
	}
}

package markdown

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
)

// TestHighlightBudgetIgnoresLoad: whether a line is highlighted depends
// on the CPU time its patterns need, not on how fast the clock runs
// while they run. A short wall-clock limit stands for a loaded machine
// (the match runs out of time before it runs out of work); the outcome
// must be the one an idle machine gets.
func TestHighlightBudgetIgnoresLoad(t *testing.T) {
	l := chroma.MustNewLexer(&chroma.Config{Name: "backtracker"}, func() chroma.Rules {
		return chroma.Rules{"root": {
			{Pattern: `(x+x+)+y`, Type: chroma.Keyword},
			{Pattern: `[^\n]`, Type: chroma.Text},
			{Pattern: `\n`, Type: chroma.Text},
		}}
	})
	ll, err := compileLineLexer(l)
	if err != nil {
		t.Fatal(err)
	}
	lex := func(line string, lim matchLimits) ([]chroma.Token, bool) {
		ll.limits = &lim
		st := ll.start()
		return st.line(line + "\n")
	}
	idle := matchLimits{cpu: 500 * time.Millisecond, wait: time.Minute, most: time.Minute}
	loaded := matchLimits{cpu: 500 * time.Millisecond, wait: 20 * time.Microsecond, most: time.Minute}

	// Slow but bounded backtracking: highlighted either way.
	slow := strings.Repeat("x", 14) + "z"
	want, ok := lex(slow, idle)
	if !ok {
		t.Fatalf("the slow line ran out of CPU time on an idle machine")
	}
	if got, ok := lex(slow, loaded); !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("under load the slow line lexes as %v (ok %v), idle as %v", got, ok, want)
	}
	// A wall-clock limit that never grows (how lines were limited before)
	// tips the same line over: what this test exists to catch.
	if _, ok := lex(slow, matchLimits{cpu: loaded.cpu, wait: loaded.wait, most: loaded.wait}); ok {
		t.Fatalf("the slow line beat a 20µs wall-clock limit: the test no longer shows load")
	}

	// Runaway backtracking: shown plain either way, after the CPU time.
	runaway := strings.Repeat("x", 40) + "z"
	for _, lim := range []matchLimits{
		{cpu: 50 * time.Millisecond, wait: 20 * time.Microsecond, most: time.Minute},
		{cpu: 50 * time.Millisecond, wait: 60 * time.Millisecond, most: time.Minute},
	} {
		if _, ok := lex(runaway, lim); ok {
			t.Fatalf("a runaway line was highlighted (wait %v)", lim.wait)
		}
	}
}

package markdown

import (
	"reflect"
	"runtime"
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
	lex := func(line string, lim matchLimits) ([]chroma.Token, bool) {
		ll, err := compileLineLexer(l, lim)
		if err != nil {
			t.Fatal(err)
		}
		st := ll.start()
		return st.line(line + "\n")
	}
	idle := matchLimits{cpu: time.Minute, wait: time.Minute, most: time.Minute}
	// A line slow enough to outlast the engine's shortest wall-clock limit
	// (its clock ticks every 100ms) however fast the machine runs, found
	// by lengthening it until it needs 400ms of CPU time.
	var slow string
	var want []chroma.Token
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for n := 14; ; n++ {
		slow = strings.Repeat("x", n) + "z"
		c0 := threadCPU()
		toks, ok := lex(slow, idle)
		if !ok {
			t.Fatalf("a %d-byte line ran out of a minute", n)
		}
		if threadCPU()-c0 > 400*time.Millisecond || n == 30 {
			want = toks
			break
		}
	}
	loaded := matchLimits{cpu: time.Minute, wait: time.Microsecond, most: time.Minute}
	if got, ok := lex(slow, loaded); !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("under load the slow line lexes as %v (ok %v), idle as %v", got, ok, want)
	}
	// A wall-clock limit that never grows (how lines were limited before)
	// tips the same line over: what this test exists to catch.
	if _, ok := lex(slow, matchLimits{cpu: time.Minute, wait: time.Microsecond, most: time.Microsecond}); ok {
		t.Fatalf("the slow line beat the shortest wall-clock limit: the test no longer shows load")
	}

	// Runaway backtracking: shown plain either way, after the CPU time.
	runaway := strings.Repeat("x", 40) + "z"
	for _, lim := range []matchLimits{
		{cpu: 50 * time.Millisecond, wait: time.Microsecond, most: time.Second},
		{cpu: 50 * time.Millisecond, wait: 60 * time.Millisecond, most: time.Second},
	} {
		if _, ok := lex(runaway, lim); ok {
			t.Fatalf("a runaway line was highlighted (wait %v)", lim.wait)
		}
	}
}

package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestSequenceDiagram(t *testing.T) {
	sq, ok := parseSequence("sequenceDiagram\n  participant A as Alice\n  A->>Bob: Hello\n  Bob-->>A: Hi\n  A-)Bob: later\n  Bob--xA")
	if !ok {
		t.Fatal("does not parse")
	}
	rows, ok := drawSequence(sq, 80)
	if !ok {
		t.Fatal("does not draw")
	}
	want := strings.Join([]string{
		"┌───────┐  ┌─────┐",
		"│ Alice │  │ Bob │",
		"└───┬───┘  └──┬──┘",
		"    │  Hello  │",
		"    ├────────▶│",
		"    │   Hi    │",
		"    │◀╌╌╌╌╌╌╌╌┤",
		"    │  later  │",
		"    ├────────▷│",
		"    │         │",
		"    │×╌╌╌╌╌╌╌╌┤",
		"    │         │",
	}, "\n")
	if got := strings.Join(rows, "\n"); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestSequenceNumbersAndRefusals(t *testing.T) {
	sq, ok := parseSequence("sequenceDiagram\n  autonumber\n  A->>B: one\n  B->>A: two")
	if !ok || sq.messages[0].label != "1. one" || sq.messages[1].label != "2. two" {
		t.Fatalf("autonumber: %+v", sq)
	}
	for _, src := range []string{
		"sequenceDiagram\n  A->>A: myself",
		"sequenceDiagram\n  A->>B: hi\n  Note right of B: a note",
		"sequenceDiagram\n  loop every minute\n  A->>B: hi\n  end",
		"sequenceDiagram",
		"sequenceDiagram\n  A=>B: not an arrow",
		"graph TD; A --> B",
	} {
		if _, ok := parseSequence(src); ok {
			t.Errorf("%q parsed", src)
		}
	}
	sq, _ = parseSequence("sequenceDiagram\n  A->>B: a message far too long for the narrow screen it is drawn on")
	if _, ok := drawSequence(sq, 30); ok {
		t.Error("drew a diagram wider than its 30 columns")
	}
}

// Random conversations: every participant shows once in the header and
// every message with a head draws exactly one.
func TestSequenceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	arrows := []string{"->>", "-->>", "->", "-->", "-x", "--x", "-)", "--)"}
	for range 300 {
		n := 2 + rng.IntN(5)
		var b strings.Builder
		b.WriteString("sequenceDiagram\n")
		heads := 0
		for range 1 + rng.IntN(10) {
			from := rng.IntN(n)
			to := (from + 1 + rng.IntN(n-1)) % n
			op := arrows[rng.IntN(len(arrows))]
			if !strings.HasSuffix(op, "->") {
				heads++
			}
			fmt.Fprintf(&b, "  P%d%sP%d: m%d\n", from, op, to, rng.IntN(100))
		}
		sq, ok := parseSequence(b.String())
		if !ok {
			t.Fatalf("%q does not parse", b.String())
		}
		rows, ok := drawSequence(sq, 400)
		if !ok {
			t.Fatalf("%q does not draw", b.String())
		}
		all := strings.Join(rows, "\n")
		for _, name := range sq.names {
			if c := strings.Count(rows[1], name); c != 1 {
				t.Fatalf("%s in the header %d times:\n%s", name, c, all)
			}
		}
		got := 0
		for _, r := range "▶◀▷◁×" {
			got += strings.Count(all, string(r))
		}
		if got != heads {
			t.Fatalf("%d heads for %d headed messages:\n%s\n%s", got, heads, b.String(), all)
		}
	}
}

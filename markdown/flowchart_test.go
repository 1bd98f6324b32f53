package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func drawn(t *testing.T, src string, width int) []string {
	t.Helper()
	fc, ok := parseFlowchart(src)
	if !ok {
		t.Fatalf("%q does not parse", src)
	}
	rows, ok := drawFlowchart(fc, width)
	if !ok {
		t.Fatalf("%q does not draw in %d columns", src, width)
	}
	return rows
}

// The example of the spec, exactly.
func TestFlowchartTopDown(t *testing.T) {
	got := strings.Join(drawn(t, "graph TD; A[Start] --> B[End]", 80), "\n")
	want := strings.Join([]string{
		"┌───────┐",
		"│ Start │",
		"└───┬───┘",
		"    │",
		"    ▼",
		"┌───────┐",
		"│  End  │",
		"└───────┘",
	}, "\n")
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// flip turns rows upside down (vertical) or mirrors them (horizontal),
// swapping the glyphs that point the other way.
func flip(rows []string, vertical bool) []string {
	w := 0
	for _, r := range rows {
		w = max(w, len([]rune(r)))
	}
	pairs := "▼▲┌└┐┘┬┴╭╰╮╯"
	if !vertical {
		pairs = "▶◀┌┐└┘├┤╭╮╰╯"
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		rs := []rune(r + strings.Repeat(" ", w-len([]rune(r))))
		if !vertical {
			for a, b := 0, len(rs)-1; a < b; a, b = a+1, b-1 {
				rs[a], rs[b] = rs[b], rs[a]
			}
		}
		for j := range rs {
			rs[j] = swapRune(rs[j], pairs)
		}
		line := strings.TrimRight(string(rs), " ")
		if vertical {
			out[len(rows)-1-i] = line
		} else {
			out[i] = line
		}
	}
	return out
}

// Bottom-up and right-left diagrams are the top-down and left-right
// drawings flipped. Labels still read forwards, so the comparison uses
// palindromes, and a last check a label that is not one.
func TestFlowchartFlippedDirections(t *testing.T) {
	body := "\n  a[ABA] --> b{XYX}\n  a --> c((CDC))\n  b -->|aha| d[ABBA]\n  c --> d\n  d --> a"
	for _, tc := range []struct{ flipped, base string }{{"BT", "TD"}, {"RL", "LR"}} {
		got := drawn(t, "graph "+tc.flipped+body, 120)
		base := drawn(t, "graph "+tc.base+body, 120)
		if want := flip(base, tc.flipped == "BT"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n%s\nwant %s flipped:\n%s", tc.flipped, strings.Join(got, "\n"), tc.base, strings.Join(want, "\n"))
		}
	}
	// A label that is no palindrome is not mirrored either.
	if rl := strings.Join(drawn(t, "graph RL\n  a -->|yes| b", 120), "\n"); !strings.Contains(rl, " yes ") {
		t.Errorf("RL lost the label's reading order:\n%s", rl)
	}
}

func TestFlowchartParses(t *testing.T) {
	for _, tc := range []struct {
		src          string
		nodes, edges int
		labels       []string
	}{
		{"graph LR\nA-->B", 2, 1, nil},
		{"flowchart TB\n  A[One] & B(Two) --> C{{Three}}\n  %% a comment\n  classDef x fill:#f00", 3, 2, nil},
		{"graph TD\n  A -- carries --> B\n  B -.->|maybe| C\n  C ==> D\n  D --- E", 5, 4, []string{"carries", "maybe"}},
		{"graph TD\n  A[\"quoted, with <br> a break\"] --> B", 2, 1, nil},
	} {
		fc, ok := parseFlowchart(tc.src)
		if !ok {
			t.Errorf("%q does not parse", tc.src)
			continue
		}
		if len(fc.nodes) != tc.nodes || len(fc.edges) != tc.edges {
			t.Errorf("%q: %d nodes and %d edges, want %d and %d", tc.src, len(fc.nodes), len(fc.edges), tc.nodes, tc.edges)
		}
		for i, want := range tc.labels {
			if fc.edges[i].label != want {
				t.Errorf("%q: edge %d labelled %q, want %q", tc.src, i, fc.edges[i].label, want)
			}
		}
	}
	if fc, _ := parseFlowchart("graph TD\n  A[\"quoted, with <br> a break\"] --> B"); fc.nodes[0].label != "quoted, with a break" {
		t.Errorf("label %q", fc.nodes[0].label)
	}
}

// What cannot be drawn whole is not drawn at all: the block stays code.
func TestFlowchartRefusesWhatItCannotDraw(t *testing.T) {
	for _, src := range []string{
		"sequenceDiagram\n  Alice->>Bob: Hi",
		"graph TD\n  subgraph one\n  A --> B\n  end",
		"graph TD\n  A --> A",
		"graph TD\n  A <--> B",
		"graph XY\n  A --> B",
		"graph TD",
		"graph TD\n  A -->",
		"graph TD\n  A[unclosed --> B",
	} {
		if _, ok := parseFlowchart(src); ok {
			t.Errorf("%q parsed", src)
		}
	}
	fc, ok := parseFlowchart("graph LR\n  A[a wide first node] --> B[another wide node]")
	if !ok {
		t.Fatal("no parse")
	}
	if _, ok := drawFlowchart(fc, 30); ok {
		t.Error("drew a diagram wider than its 30 columns")
	}
}

// Random graphs: drawing never panics; a drawing that is made shows
// every node's label and one arrowhead per arrowed edge, within width.
func TestFlowchartRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	drawnCount := 0
	for n := range 400 {
		nodes := 2 + rng.IntN(7)
		var b strings.Builder
		dir := []string{"TD", "LR", "BT", "RL"}[n%4]
		fmt.Fprintf(&b, "graph %s\n", dir)
		arrows := 0
		for i := range nodes {
			fmt.Fprintf(&b, "  n%d[N%d]\n", i, i)
		}
		seen := map[[2]int]bool{}
		for range rng.IntN(nodes * 2) {
			a, c := rng.IntN(nodes), rng.IntN(nodes)
			if a == c || seen[[2]int{a, c}] {
				continue
			}
			seen[[2]int{a, c}] = true
			op := "-->"
			if rng.IntN(4) == 0 {
				op = "---"
			} else {
				arrows++
			}
			label := ""
			if rng.IntN(5) == 0 {
				label = "|e|"
			}
			fmt.Fprintf(&b, "  n%d %s%s n%d\n", a, op, label, c)
		}
		fc, ok := parseFlowchart(b.String())
		if !ok {
			t.Fatalf("%q does not parse", b.String())
		}
		rows, ok := drawFlowchart(fc, 200)
		if !ok {
			continue
		}
		drawnCount++
		all := strings.Join(rows, "\n")
		for i := range nodes {
			if c := strings.Count(all, fmt.Sprintf("N%d", i)); c != 1 {
				t.Fatalf("label N%d shown %d times in\n%s\n%s", i, c, b.String(), all)
			}
		}
		heads := 0
		for _, r := range "▼▲▶◀" {
			heads += strings.Count(all, string(r))
		}
		if heads != arrows {
			t.Fatalf("%d arrowheads for %d arrowed edges in\n%s\n%s", heads, arrows, b.String(), all)
		}
		for _, r := range rows {
			if textWidth(r) > 200 {
				t.Fatalf("row wider than 200: %q", r)
			}
		}
	}
	if drawnCount < 300 {
		t.Errorf("only %d of 400 random graphs were drawn", drawnCount)
	}
}

// FuzzDiagram: any block body parses as a diagram or not without
// panicking, and a drawing is never wider than asked and shows every
// node's, participant's or slice's label.
func FuzzDiagram(f *testing.F) {
	f.Add("graph TD; A[Start] --> B[End]", 80)
	f.Add("graph LR\n  A -- x --> B & C\n  C -.-> A\n  B ==>|y| D((d))", 40)
	f.Add("flowchart BT\n  a --> b --> c --> a", 20)
	f.Add("sequenceDiagram\n  autonumber\n  participant A as Alice\n  A->>B: hi\n  B--xA: no", 60)
	f.Add("stateDiagram-v2\n  direction LR\n  [*] --> A\n  A --> B : go\n  B --> [*]", 50)
	f.Add("pie showData title T\n  \"a\" : 1\n  \"b\" : 2.5", 40)
	f.Fuzz(func(t *testing.T, src string, width int) {
		width = 1 + abs(width)%200
		var rows, labels []string
		fc, ok := parseFlowchart(src)
		if !ok {
			fc, ok = parseState(src)
		}
		if ok {
			if rows, ok = drawFlowchart(fc, width); !ok {
				return
			}
			for _, n := range fc.nodes {
				labels = append(labels, n.label)
			}
		} else if sq, ok := parseSequence(src); ok {
			if rows, ok = drawSequence(sq, width); !ok {
				return
			}
			labels = sq.names
		} else if pc, ok := parsePie(src); ok {
			if rows, ok = drawPie(pc, width); !ok {
				return
			}
			for _, s := range pc.slices {
				labels = append(labels, s.label)
			}
		}
		all := strings.Join(rows, "\n")
		for _, r := range rows {
			if textWidth(r) > width {
				t.Fatalf("row %q wider than %d", r, width)
			}
		}
		for _, l := range labels {
			if !strings.Contains(all, l) {
				t.Fatalf("label %q missing from\n%s", l, all)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

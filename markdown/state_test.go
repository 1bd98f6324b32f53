package markdown

import (
	"strings"
	"testing"
)

func TestStateDiagram(t *testing.T) {
	fc, ok := parseState("stateDiagram-v2\n  [*] --> Still\n  Still --> [*]\n  Still --> Moving : push\n  Moving --> Still\n  Moving --> Crash\n  Crash --> [*]")
	if !ok {
		t.Fatal("does not parse")
	}
	if len(fc.nodes) != 5 || len(fc.edges) != 6 {
		t.Fatalf("%d states and %d transitions, want 5 (start and end included) and 6", len(fc.nodes), len(fc.edges))
	}
	for _, dir := range []string{"TD", "LR"} {
		fc.dir = dir
		rows, ok := drawFlowchart(fc, 100)
		if !ok {
			t.Fatalf("%s does not draw", dir)
		}
		all := strings.Join(rows, "\n")
		for _, want := range []string{"●", "◉", "Still", "Moving", "Crash", "push", "╭"} {
			if strings.Count(all, want) < 1 {
				t.Errorf("%s drawing lacks %q:\n%s", dir, want, all)
			}
		}
		if strings.Count(all, "●") != 1 || strings.Count(all, "◉") != 1 {
			t.Errorf("%s: one start and one end, got:\n%s", dir, all)
		}
	}
}

func TestStateDiagramSyntax(t *testing.T) {
	fc, ok := parseState("stateDiagram\n  direction LR\n  state \"Waiting for input\" as W\n  R : Running the tool\n  [*] --> W\n  W --> R : Enter\n  R --> [*]")
	if !ok {
		t.Fatal("does not parse")
	}
	if fc.dir != "LR" || fc.nodes[fc.byID["W"]].label != "Waiting for input" || fc.nodes[fc.byID["R"]].label != "Running the tool" {
		t.Fatalf("parsed %+v", fc)
	}
	for _, src := range []string{
		"stateDiagram-v2\n  state Moving {\n  a --> b\n  }",
		"stateDiagram-v2\n  A --> A",
		"stateDiagram-v2\n  note right of A : hi",
		"stateDiagram-v2\n  state fork <<fork>>",
		"stateDiagram-v2",
		"graph TD; A --> B",
	} {
		if _, ok := parseState(src); ok {
			t.Errorf("%q parsed", src)
		}
	}
}

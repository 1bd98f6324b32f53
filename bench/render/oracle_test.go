package renderbench

import (
	"strings"
	"testing"
)

// peerFindings are the (renderer, workload without its size) pairs the
// oracle is known to reject at 80×24, with the reason; README.md explains
// each. The test below keeps this list honest in both directions.
var peerFindings = map[string]string{
	"uv W4InsertHistory/10":          uvPrependFinding,
	"uvscreen W4InsertHistory/10":    uvInsertAboveFinding,
	"uvscreen W1StreamAppend/inline": uvInsertAboveFinding,
}

const (
	uvPrependFinding     = "PrependString miscounts rows (a line exactly as wide as the terminal counts as 0; newlines at the screen bottom scroll instead of moving the cursor), so the live region is overdrawn and lines are lost or duplicated"
	uvInsertAboveFinding = "InsertAbove erases to the end of the line after each line, which on a line as wide as the terminal (cursor in the pending-wrap state) erases its last character"
)

// unsized is a workload's name without its size, the last element.
func unsized(w *Workload) string { return w.Name[:strings.LastIndexByte(w.Name, '/')] }

// TestQuireMatchesOracle: every frame quire draws is what the terminal
// shows, on every workload quire runs, including the seam where a loop
// starts again.
func TestQuireMatchesOracle(t *testing.T) {
	for _, w := range Workloads(Size{80, 24}) {
		impl := quireImpl()
		if why := impl.Skip(w); why != "" {
			t.Logf("%s: skipped: %s", w.Name, why)
			continue
		}
		t.Run(w.Name, func(t *testing.T) {
			v, err := Verify(impl, w, 1)
			if err != nil {
				t.Fatal(err)
			}
			if v.Bad > 0 {
				t.Errorf("%d of %d frames wrong; first: %s", v.Bad, v.Frames, v.First)
			}
			if v.Unsynced > 0 {
				t.Errorf("%d of %d frames not one synchronized update; first: %s", v.Unsynced, v.Frames, v.FirstUnsynced)
			}
		})
	}
}

// TestPeersMatchOracle checks the drivers and the oracle against two
// independent renderers: where a peer is right the harness must agree,
// and where it is known wrong the oracle must still say so.
func TestPeersMatchOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("peer verification is slow under -race; the benchmarks verify every peer")
	}
	s := Size{80, 24}
	// The long streaming loops are left to the benchmarks, which verify
	// every peer on every workload.
	for _, w := range []*Workload{StreamInline(s), IdleTick(s), Scroll(s, 3), InsertHistory(s, 10), Resize(s), WideScroll(s), LinkList(s)} {
		for _, impl := range Impls()[1:] {
			if impl.Skip(w) != "" {
				continue
			}
			t.Run(w.Name+"/"+impl.Name, func(t *testing.T) {
				v, err := Verify(impl, w, 1)
				if err != nil {
					t.Fatal(err)
				}
				known, expectWrong := peerFindings[impl.Name+" "+unsized(w)]
				switch {
				case expectWrong && v.Bad == 0:
					t.Errorf("known finding no longer reproduces (%s); update peerFindings and README.md", known)
				case !expectWrong && v.Bad > 0:
					t.Errorf("%d of %d frames wrong; first: %s", v.Bad, v.Frames, v.First)
				case expectWrong:
					t.Logf("known finding reproduced: %d of %d frames wrong; first: %s", v.Bad, v.Frames, v.First)
				}
			})
		}
	}
}

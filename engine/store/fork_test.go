package store

import (
	"os"
	"testing"

	"github.com/quire-sh/quire/engine/event"
)

func TestForkKeepsAPrefix(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("src", "/p")
	if err != nil {
		t.Fatal(err)
	}
	events := sessionEvents("src", "/p", 3) // 13 events per turn after the start
	recordAll(t, w, events)
	upto := uint64(14) // the start and turn 1
	fw, err := w.Fork(upto)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fw.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	mustEqualEvents(t, got, events[:upto])
	sum := fw.Summary()
	if sum.ForkedFrom != "src" || sum.Turns != 1 || sum.LastSeq != upto || sum.Cwd != "/p" || fw.LastSeq() != upto || sum.ID == "src" {
		t.Fatalf("fork summary = %+v", sum)
	}
	// The fork continues where it was cut; the source is untouched.
	next := events[upto]
	if err := fw.Record(next, true); err != nil {
		t.Fatal(err)
	}
	fw.Close()
	all, _ := w.ReadAll()
	mustEqualEvents(t, all, events)
	w.Close()

	// Forking a closed session works through the store.
	// Up to the first turn's message, after its answer's fragments.
	fw2, err := st.Fork("src", 9)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = fw2.ReadAll()
	mustEqualEvents(t, got, events[:9])
	fw2.Close()
}

// TestConversationOnlyRewindKeepsFileHistory: forking away turns 2 and 3
// (conversation only) keeps their file changes on disk, and a later file
// rewind past turn 1 in the fork still undoes all of them.
func TestConversationOnlyRewindKeepsFileHistory(t *testing.T) {
	f := newCkFixture(t)
	os.WriteFile(f.path("a"), []byte("a0"), 0o644)
	seq := uint64(0)
	rec := func(e event.Event) {
		seq++
		e.V, e.Seq = 1, seq
		if err := f.w.Record(e, e.Kind == event.UserMessage); err != nil {
			t.Fatal(err)
		}
	}
	turn := func(n int, files func()) uint64 {
		rec(event.Event{Kind: event.UserMessage, Text: "p"})
		start := seq
		rec(event.Event{Kind: event.TurnStarted, Turn: n})
		files()
		f.endTurn(n)
		rec(event.Event{Kind: event.TurnEnded, Turn: n, End: &event.TurnEnd{State: event.TurnCompleted}})
		return start
	}
	turn(1, func() { f.write(1, "a", "a1") })
	p2 := turn(2, func() { f.write(2, "a", "a2"); f.write(2, "b", "b2") })
	turn(3, func() { f.write(3, "c", "c3") })

	fw, err := f.w.Fork(p2 - 1) // keep turn 1 only
	if err != nil {
		t.Fatal(err)
	}
	defer fw.Close()
	if got := f.disk(); got != "a=a2 b=b2 c=c3" {
		t.Fatalf("a conversation-only rewind changed files: %q", got)
	}
	cp := fw.Checkpoints(f.root, plainFiles{})
	pts, _ := cp.Points()
	if len(pts) != 1 || pts[0].Turn != 1 || len(pts[0].Files) != 3 {
		t.Fatalf("fork checkpoints = %+v, want turns 2 and 3 merged into turn 1", pts)
	}
	rep, err := cp.Rewind(1, RewindOptions{Apply: true})
	if err != nil || len(rep.Conflicts()) != 0 {
		t.Fatalf("rewind in fork: %+v, %v", rep, err)
	}
	if got := f.disk(); got != "a=a0" {
		t.Fatalf("rewind in fork left %q, want every change undone", got)
	}
}

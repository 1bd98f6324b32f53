package scrollback

import "testing"

func TestLessKeysDrivePager(t *testing.T) {
	tr := newTranscript(30, 10, tallTurns(3, 30).evs...)
	do := func(key string, count int) {
		t.Helper()
		a, ok := LessKey(key)
		if !ok {
			t.Fatalf("key %q unbound", key)
		}
		tr.Do(a, count)
		tr.Frame()
	}
	do("g", 0)
	if tr.top() != 0 || tr.Following() {
		t.Fatal("g should go to the top and stop following")
	}
	do("j", 3)
	do("k", 1)
	if tr.top() != 2 {
		t.Fatalf("3j k: top %d, want 2", tr.top())
	}
	do("d", 0)
	if tr.top() != 7 {
		t.Fatalf("d: top %d, want 7 (half of 10 rows)", tr.top())
	}
	do("g", 40)
	if tr.top() != 39 {
		t.Fatalf("40g: top %d, want line 40 at the top", tr.top())
	}
	do("l", 0)
	if tr.top() != promptTop(tr, 2) {
		t.Fatalf("l: top %d, want turn 2's prompt", tr.top())
	}
	do("h", 2)
	if tr.top() != promptTop(tr, 0) {
		t.Fatalf("2h from turn 2's prompt: top %d, want turn 0's prompt", tr.top())
	}
	do("G", 0)
	if !tr.Following() {
		t.Fatal("G follows")
	}
	do("tab", 0)
	if tr.Focused() == 0 {
		t.Fatal("tab focuses a block")
	}
	focused := tr.Focused()
	do("o", 0)
	if !tr.Block(focused).Collapsed() {
		t.Fatal("o collapses the focused block")
	}
	do("esc", 0)
	if tr.Focused() != 0 {
		t.Fatal("esc clears the focus")
	}
}

func TestMarksAndPercent(t *testing.T) {
	tr := newTranscript(30, 10, tallTurns(3, 30).evs...)
	tr.Frame()
	tr.GotoLine(20)
	tr.SetMark('a')
	tr.GotoPercent(50)
	tr.Frame()
	if got, total := tr.top(), tr.lay.Total(); got < total/2-total/10 || got > total/2+total/10 {
		t.Fatalf("50%%: top %d of %d", got, total) // the percentage is of the estimated total
	}
	tr.Prepend(tallTurns(2, 5).evs) // marks survive history arriving above
	if !tr.GotoMark('a') {
		t.Fatal("mark a lost")
	}
	f := tr.Frame()
	if got := screen(f)[f.Sticky]; got != "turn 0 line 17" {
		t.Fatalf("mark a shows %q below the pinned prompt:\n%s", got, dump(f))
	}
	tr.GotoMark('\'') // back to where we were before the jump
	if got, total := tr.top(), tr.lay.Total(); got < total/2-20 {
		t.Fatalf("'' went to %d", got)
	}
	tr.GotoMark('\'')
	if f := tr.Frame(); screen(f)[f.Sticky] != "turn 0 line 17" {
		t.Fatalf("second '' shows:\n%s", dump(f))
	}
	if tr.GotoMark('z') {
		t.Fatal("an unset mark cannot be visited")
	}
	tr.Do(ActPercent, 100)
	if !tr.Following() {
		t.Fatal("100% is the bottom")
	}
}

package store

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

func TestPrune(t *testing.T) {
	clock := &testClock{t: baseTime}
	st := newTestStore(t, Options{Now: clock.now, Retention: 30 * 24 * time.Hour})
	day := 24 * time.Hour
	mk := func(id string, age time.Duration, filesAge time.Duration) *Writer {
		clock.t = baseTime.Add(-age)
		w, err := st.Create(id, "/p")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Record(event.Event{V: 1, Seq: 1, Kind: event.UserMessage, Text: id}, true); err != nil {
			t.Fatal(err)
		}
		return w
	}
	age := func(w *Writer, d time.Duration) {
		old := baseTime.Add(-d)
		for _, name := range []string{"", eventsFile, summaryFile, lockName} {
			os.Chtimes(filepath.Join(w.dir, name), old, old)
		}
	}
	fresh := mk("fresh", day, 0)
	fresh.Close()
	age(fresh, day)
	old := mk("old", 40*day, 0)
	old.Close()
	age(old, 40*day)
	touched := mk("touched", 40*day, 0) // old summary, but its files changed a moment ago
	touched.Close()
	running := mk("running", 40*day, 0) // open: never removed
	age(running, 40*day)
	defer running.Close()
	// A creation that crashed long ago.
	tmp := filepath.Join(st.sessionsRoot(), cwdKey("/p"), tmpPrefix+"crashed")
	os.Mkdir(tmp, 0o700)
	os.Chtimes(tmp, baseTime.Add(-2*day), baseTime.Add(-2*day))

	clock.t = baseTime
	rep, err := st.Prune(context.Background())
	if err != nil || len(rep.Problems) != 0 {
		t.Fatalf("prune: %+v, %v", rep, err)
	}
	sort.Strings(rep.Removed)
	if got := strings.Join(rep.Removed, " "); got != ".tmp-crashed old" {
		t.Fatalf("removed %q, want the old session and the crashed creation", got)
	}
	l, _ := st.List(context.Background(), ListOptions{})
	var ids []string
	for _, s := range l.Sessions {
		ids = append(ids, s.ID)
	}
	sort.Strings(ids)
	if got := strings.Join(ids, " "); got != "fresh running touched" {
		t.Fatalf("left %q", got)
	}
}

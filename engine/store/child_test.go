package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// mkSession creates a session whose log starts as a child of parent (or
// a top-level one when parent is ""), with one prompt.
func mkSession(t *testing.T, st *Store, id, parent string) *Writer {
	t.Helper()
	w, err := st.Create(id, "/p")
	if err != nil {
		t.Fatal(err)
	}
	info := &event.SessionInfo{ID: id, Cwd: "/p", Model: "m"}
	if parent != "" {
		info.Parent = &event.ParentLink{Session: parent, CallID: "t1", Agent: "explorer", Description: "Find the config loader"}
	}
	for _, e := range []event.Event{
		{V: 1, Seq: 1, Kind: event.SessionStarted, Session: info},
		{V: 1, Seq: 2, Kind: event.UserMessage, Turn: 1, Text: "a long task prompt\nwith details"},
	} {
		if err := w.Record(e, true); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// A child session's summary links it to its parent and is titled with
// its task; --continue never picks it.
func TestChildSessionSummaryAndLatest(t *testing.T) {
	clock := &testClock{t: baseTime}
	st := newTestStore(t, Options{Now: clock.now})
	p := mkSession(t, st, "20261130-070000-aaaaaa", "")
	p.Close()
	clock.t = baseTime.Add(time.Minute)
	c := mkSession(t, st, "20261130-070001-bbbbbb", "20261130-070000-aaaaaa")
	c.Close()
	l, err := st.List(context.Background(), ListOptions{Verify: true})
	if err != nil || len(l.Sessions) != 2 {
		t.Fatalf("list %+v %v", l, err)
	}
	child := l.Sessions[0]
	if child.Parent != "20261130-070000-aaaaaa" || child.ParentCall != "t1" || child.Agent != "explorer" || child.Title != "Find the config loader" {
		t.Fatalf("child summary %+v", child)
	}
	latest, err := st.Latest(context.Background(), "/p")
	if err != nil || latest.ID != "20261130-070000-aaaaaa" {
		t.Fatalf("latest %s %v, want the parent although the child is newer", latest.ID, err)
	}
}

func TestWriteTableNestsChildren(t *testing.T) {
	now := baseTime
	sessions := []Summary{
		{ID: "20261130-065905-cccccc", Cwd: "/p", Title: "Find the loader", Agent: "explorer", Parent: "20261130-065900-aaaaaa", LastActive: now, Turns: 1, Tokens: 900},
		{ID: "20261130-065910-dddddd", Cwd: "/p", Title: "newer top level", LastActive: now.Add(-time.Minute), Turns: 1},
		{ID: "20261130-065900-aaaaaa", Cwd: "/p", Title: "fix it", LastActive: now.Add(-2 * time.Minute), Turns: 2, Tokens: 3000},
		{ID: "20261130-065904-bbbbbb", Cwd: "/p", Title: "Review the diff", Parent: "20261130-065900-aaaaaa", LastActive: now.Add(-3 * time.Minute), Turns: 1},
		{ID: "20261130-060000-eeeeee", Cwd: "/p", Title: "Orphan\x1b[2J", Agent: "x\x1b", Parent: "20261129-000000-ffffff", LastActive: now.Add(-time.Hour), Turns: 1},
	}
	var buf bytes.Buffer
	if err := WriteTable(&buf, sessions, now, ""); err != nil {
		t.Fatal(err)
	}
	golden(t, "sessions_nested.golden", buf.Bytes())
	var order []string
	for _, s := range Nest(sessions) {
		order = append(order, s.ID[len(s.ID)-6:])
	}
	if got := fmtList(order); got != "dddddd aaaaaa cccccc bbbbbb eeeeee" {
		t.Fatalf("nested order %s", got)
	}
}

func fmtList(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x)
	}
	return b.String()
}

// A child is pruned with its parent, not before: while the parent is
// kept, so is the child, however old.
func TestPruneKeepsAChildWhileItsParentIsKept(t *testing.T) {
	clock := &testClock{t: baseTime}
	st := newTestStore(t, Options{Now: clock.now, Retention: 30 * 24 * time.Hour})
	day := 24 * time.Hour
	age := func(w *Writer, d time.Duration) {
		old := baseTime.Add(-d)
		for _, name := range []string{"", eventsFile, summaryFile, lockName} {
			os.Chtimes(filepath.Join(w.dir, name), old, old)
		}
	}
	clock.t = baseTime.Add(-40 * day)
	child := mkSession(t, st, "20261020-070001-bbbbbb", "20261020-070000-aaaaaa")
	child.Close()
	age(child, 40*day)
	clock.t = baseTime.Add(-day)
	parent := mkSession(t, st, "20261020-070000-aaaaaa", "") // resumed yesterday
	parent.Close()
	age(parent, day)
	clock.t = baseTime
	rep, err := st.Prune(context.Background())
	if err != nil || len(rep.Removed) != 0 {
		t.Fatalf("prune removed %v (%v) while the parent is kept", rep.Removed, err)
	}
	os.RemoveAll(parent.dir)
	rep, err = st.Prune(context.Background())
	if err != nil || len(rep.Removed) != 1 || rep.Removed[0] != "20261020-070001-bbbbbb" {
		t.Fatalf("prune removed %v (%v) once the parent was gone", rep.Removed, err)
	}
}

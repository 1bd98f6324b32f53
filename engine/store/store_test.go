package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	bolt "go.etcd.io/bbolt"
)

func TestRecordReadBackAndAppend(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("", "/home/u/proj")
	if err != nil {
		t.Fatal(err)
	}
	events := sessionEvents(w.ID(), "/home/u/proj", 4)
	recordAll(t, w, events[:20])
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Record(events[20], false); !errors.Is(err, ErrClosed) {
		t.Fatalf("record after close: %v", err)
	}

	w, err = st.Append(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if w.LastSeq() != 20 {
		t.Fatalf("reopened at seq %d, want 20", w.LastSeq())
	}
	recordAll(t, w, events[20:])
	all, err := w.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	mustEqualEvents(t, all, events)
	sum := w.Summary()
	if sum.Title != "prompt 1: fix the \"bug\" ✓" || sum.Turns != 4 || sum.Tokens != 480 || sum.Model != "test-model" || sum.LastSeq != uint64(len(events)) {
		t.Fatalf("summary = %+v", sum)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := readSummaryFile(sum.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != sum.Title || got.Turns != 4 || got.LastSeq != sum.LastSeq {
		t.Fatalf("session.json = %+v, want %+v", got, sum)
	}
}

func TestRecordRefusesSeqsThatDoNotIncrease(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("s1", "/p")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, tc := range []struct {
		seq     uint64
		wantErr bool
	}{{1, false}, {1, true}, {0, true}, {5, false}, {3, true}, {6, false}} {
		err := w.Record(event.Event{V: 1, Seq: tc.seq, Kind: event.Notice, Text: "x"}, false)
		if (err != nil) != tc.wantErr {
			t.Fatalf("seq %d: err = %v, want error %v", tc.seq, err, tc.wantErr)
		}
	}
}

// TestGroupCommit checks that non-durable events reach the disk on their
// own: once enough are waiting, or once the window has passed; and that a
// durable event is committed, with all before it, when Record returns.
func TestGroupCommit(t *testing.T) {
	committed := func(w *Writer) uint64 {
		seq, err := w.view.lastSeq()
		if err != nil {
			t.Fatal(err)
		}
		return seq
	}
	waitCommitted := func(w *Writer, want uint64, why string) {
		deadline := time.Now().Add(10 * time.Second)
		for committed(w) != want {
			if time.Now().After(deadline) {
				t.Fatalf("%s: committed %d, want %d", why, committed(w), want)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	// Notices, not text fragments: fragments recorded in a row join
	// into one waiting event (TestFragmentsJoinWhileTheyWait).
	delta := func(seq uint64) event.Event {
		return event.Event{V: 1, Seq: seq, Kind: event.Notice, Text: "x"}
	}

	// By count: the window is an hour, so only the count can commit.
	st := newTestStore(t, Options{GroupWindow: time.Hour, GroupEvents: 10})
	w, err := st.Create("count", "/p")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for seq := uint64(1); seq <= 9; seq++ {
		if err := w.Record(delta(seq), false); err != nil {
			t.Fatal(err)
		}
	}
	if got := committed(w); got != 0 {
		t.Fatalf("committed %d before the window or the count was reached", got)
	}
	if err := w.Record(delta(10), false); err != nil {
		t.Fatal(err)
	}
	waitCommitted(w, 10, "the 10th waiting event")
	if err := w.Record(delta(11), false); err != nil {
		t.Fatal(err)
	}
	if err := w.Record(event.Event{V: 1, Seq: 12, Kind: event.UserMessage, Text: "x"}, true); err != nil {
		t.Fatal(err)
	}
	if got := committed(w); got != 12 {
		t.Fatalf("a durable record returned before its commit: committed %d", got)
	}

	// By window: one waiting event, far below the count.
	st2 := newTestStore(t, Options{GroupWindow: 20 * time.Millisecond, GroupEvents: 1000})
	w2, err := st2.Create("window", "/p")
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	if err := w2.Record(delta(1), false); err != nil {
		t.Fatal(err)
	}
	waitCommitted(w2, 1, "a lone event after the window")
}

func TestTailAndRange(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("t", "/p")
	if err != nil {
		t.Fatal(err)
	}
	events := sessionEvents("t", "/p", 10)
	recordAll(t, w, events)
	w.Close()
	r, err := st.OpenReader("t")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The answers' fragments were stored joined: each turn keeps 9
	// events of the 13 recorded (TestFragmentsJoinWhileTheyWait).
	stored, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	mustEqualEvents(t, stored, events)
	if want := 1 + 9*10; len(stored) != want {
		t.Fatalf("%d events stored, want %d", len(stored), want)
	}
	for _, tc := range []struct {
		name     string
		got      func() ([]event.Event, error)
		from, to int // indexes into stored, to exclusive
	}{
		{"tail 5", func() ([]event.Event, error) { return r.Tail(5) }, len(stored) - 5, len(stored)},
		{"tail beyond", func() ([]event.Event, error) { return r.Tail(10000) }, 0, len(stored)},
		{"tail 0", func() ([]event.Event, error) { return r.Tail(0) }, 0, 0},
		// seqs 3..9 are the first turn's start, its answer (seqs 4..8,
		// stored as 8) and its message
		{"range 3..9", func() ([]event.Event, error) { return r.Events(3, 9) }, 2, 5},
		{"range inside a joined answer", func() ([]event.Event, error) { return r.Events(5, 7) }, 0, 0},
		// seq 50 is the fourth turn's approval request, its sixth event
		{"range 50..end", func() ([]event.Event, error) { return r.Events(50, 0) }, 1 + 9*3 + 5, len(stored)},
		{"range past end", func() ([]event.Event, error) { return r.Events(1000, 0) }, 0, 0},
		{"last 2 turns", func() ([]event.Event, error) { return r.TailTurns(2) }, len(stored) - 18, len(stored)},
		{"more turns than there are", func() ([]event.Event, error) { return r.TailTurns(50) }, 0, len(stored)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.got()
			if err != nil {
				t.Fatal(err)
			}
			mustEqualEvents(t, got, stored[tc.from:tc.to])
		})
	}
}

func TestLargeOutputsStoredOnce(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("b", "/p")
	if err != nil {
		t.Fatal(err)
	}
	events := sessionEvents("b", "/p", 6) // every turn has the same big output and preview
	recordAll(t, w, events)
	var blobs, bytes int
	err = w.view.read(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBlobs).ForEach(func(k, v []byte) error {
			blobs++
			bytes += len(v)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if blobs != 2 {
		t.Fatalf("%d blobs for one repeated output and one repeated preview, want 2", blobs)
	}
	w.Close()
	st2, _ := Open(st.Root(), Options{})
	r, err := st2.OpenReader("b")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	mustEqualEvents(t, got, events)
}

func TestNewerVersionsRefused(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("v", "/p")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Record(event.Event{V: event.SchemaVersion + 1, Seq: 1, Kind: "from_the_future"}, true); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ReadAll(); err == nil || !strings.Contains(err.Error(), "event schema v2; this binary reads up to v1") {
		t.Fatalf("reading an event from a newer quire: %v", err)
	}
	err = guard(func() error {
		return w.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keyFormat, []byte("9")) })
	})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	_, err = st.OpenReader("v")
	wantErrIs(t, err, ErrTooNew)
	if !strings.Contains(err.Error(), "store format v9; this binary reads up to v1") || !strings.Contains(err.Error(), eventsFile) {
		t.Fatalf("error does not name both versions and the file: %v", err)
	}
}

func TestOldEventsUpgradedInMemory(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("old", "/p")
	if err != nil {
		t.Fatal(err)
	}
	// V 0: written before versions were enforced.
	if err := w.Record(event.Event{Seq: 1, Kind: event.Notice, Text: "hi"}, true); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(w.path)
	got, err := w.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got[0].V != event.SchemaVersion {
		t.Fatalf("event read with V %d, want it upgraded to %d", got[0].V, event.SchemaVersion)
	}
	after, _ := os.ReadFile(w.path)
	if string(before) != string(after) {
		t.Fatal("reading rewrote the file")
	}
	w.Close()
}

func TestAppendInUse(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("busy", "/p")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	start := time.Now()
	_, err = st.Append("busy")
	wantErrIs(t, err, ErrInUse)
	_, err = st.OpenReader("busy")
	wantErrIs(t, err, ErrInUse)
	if time.Since(start) > 10*time.Second {
		t.Fatal("waited for the running session")
	}
	_, err = st.Append("nope")
	wantErrIs(t, err, ErrNotFound)
	_, err = st.Create("busy", "/p")
	if err == nil {
		t.Fatal("created a second session with the same id")
	}
}

func TestListAndLatest(t *testing.T) {
	clock := &testClock{t: baseTime}
	st := newTestStore(t, Options{Now: clock.now})
	mk := func(id, cwd, prompt string) {
		clock.t = clock.t.Add(time.Minute)
		w, err := st.Create(id, cwd)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Record(event.Event{V: 1, Seq: 1, Kind: event.UserMessage, Text: prompt}, true); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	mk("a1", "/src/a", "first in a")
	mk("b1", "/src/b", "first in b")
	mk("a2", "/src/a", "second in a")
	running, err := st.Create("a3", "/src/a")
	if err != nil {
		t.Fatal(err)
	}
	defer running.Close()

	ids := func(l Listing) string {
		var s []string
		for _, x := range l.Sessions {
			id := x.ID
			if x.Running {
				id += "*"
			}
			s = append(s, id)
		}
		return strings.Join(s, " ")
	}
	ctx := context.Background()
	for _, tc := range []struct {
		opts ListOptions
		want string
	}{
		{ListOptions{}, "a3* a2 b1 a1"},
		{ListOptions{Cwd: "/src/a"}, "a3* a2 a1"},
		{ListOptions{Cwd: "/src/a/"}, "a3* a2 a1"},
		{ListOptions{Cwd: "/src/c"}, ""},
		{ListOptions{Limit: 2}, "a3* a2"},
		{ListOptions{Verify: true}, "a3* a2 b1 a1"},
	} {
		l, err := st.List(ctx, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(l); got != tc.want || len(l.Problems) != 0 {
			t.Errorf("List(%+v) = %q %v, want %q", tc.opts, got, l.Problems, tc.want)
		}
	}
	l, _ := st.List(ctx, ListOptions{Cwd: "/src/a"})
	if l.Sessions[1].Title != "second in a" || l.Sessions[1].Cwd != "/src/a" {
		t.Fatalf("summary = %+v", l.Sessions[1])
	}
	latest, err := st.Latest(ctx, "/src/a")
	if err != nil || latest.ID != "a2" {
		t.Fatalf("Latest = %v, %v; want a2 (a3 is running)", latest.ID, err)
	}
	if _, err := st.Latest(ctx, "/nowhere"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Latest in an empty cwd: %v", err)
	}
}

func TestSummaryRebuiltWhenMissing(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("s", "/p")
	if err != nil {
		t.Fatal(err)
	}
	recordAll(t, w, sessionEvents("s", "/p", 2))
	w.Close()
	dir := w.dir
	for _, damage := range []func(){
		func() { os.Remove(filepath.Join(dir, summaryFile)) },
		func() { os.WriteFile(filepath.Join(dir, summaryFile), []byte(`{"id":`), 0o600) },
	} {
		damage()
		l, err := st.List(context.Background(), ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Sessions) != 1 || l.Sessions[0].Turns != 2 || l.Sessions[0].Title == "" {
			t.Fatalf("listing = %+v", l)
		}
		if _, err := readSummaryFile(dir); err != nil {
			t.Fatalf("session.json not rewritten: %v", err)
		}
	}
}

func TestResolve(t *testing.T) {
	st := newTestStore(t, Options{})
	for _, id := range []string{"20261130-070000-aaaaaa", "20261130-070000-aaabbb", "20261130-080000-cccccc"} {
		w, err := st.Create(id, "/p")
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	for _, tc := range []struct {
		in, want string
		err      error
	}{
		{"20261130-080000-cccccc", "20261130-080000-cccccc", nil},
		{"20261130-08", "20261130-080000-cccccc", nil},
		{"20261130-070000-aaa", "", ErrAmbiguous},
		{"2027", "", ErrNotFound},
		{"../etc", "", ErrNotFound},
	} {
		got, err := st.Resolve(tc.in)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("Resolve(%q) = %q, %v; want %q, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestCreateRecoversFromCrashedCreation(t *testing.T) {
	st := newTestStore(t, Options{})
	tmp := filepath.Join(st.sessionsRoot(), cwdKey("/p"), tmpPrefix+"x")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(tmp, eventsFile), []byte("half a database"), 0o600)
	l, _ := st.List(context.Background(), ListOptions{})
	if len(l.Sessions)+len(l.Problems) != 0 {
		t.Fatalf("a half-created session is visible: %+v", l)
	}
	w, err := st.Create("x", "/p")
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
}

func TestCwdKey(t *testing.T) {
	long := "/" + strings.Repeat("directory/", 40)
	for _, tc := range []struct{ a, b string }{
		{"/a/b", "/a%2Fb"},
		{long + "x", long + "y"},
		{"/a b", "/a+b"},
	} {
		ka, kb := cwdKey(tc.a), cwdKey(tc.b)
		if ka == kb {
			t.Errorf("cwdKey(%q) == cwdKey(%q) == %q", tc.a, tc.b, ka)
		}
		for _, k := range []string{ka, kb} {
			if len(k) > maxDirName || strings.Contains(k, "/") {
				t.Errorf("key %q is not a short file name", k)
			}
		}
	}
}

// TestToolArgumentsKeptByteForByte: encoding/json compacts raw JSON, but
// the history rebuilt on resume must carry the arguments exactly as the
// model wrote them.
func TestToolArgumentsKeptByteForByte(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("args", "/p")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	spaced := json.RawMessage(`{ "path": "a.go",  "limit": 10 }`)
	tight := json.RawMessage(`{"path":"b.go"}`)
	events := []event.Event{
		{V: 1, Seq: 1, Kind: event.AssistantMessage, Calls: []event.ToolCall{{ID: "1", Name: "read", Arguments: tight}, {ID: "2", Name: "read", Arguments: spaced}}},
		{V: 1, Seq: 2, Kind: event.ToolCallRequested, Call: &event.ToolCall{ID: "2", Name: "read", Arguments: spaced}},
	}
	recordAll(t, w, events)
	got, err := w.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []struct{ got, want json.RawMessage }{
		{got[0].Calls[0].Arguments, tight},
		{got[0].Calls[1].Arguments, spaced},
		{got[1].Call.Arguments, spaced},
	} {
		if string(a.got) != string(a.want) {
			t.Errorf("arguments read back as %s, want %s", a.got, a.want)
		}
	}
}

// The engine's Recorder, plus Close: the writer is what the engine and the
// app hold.
var _ interface {
	Record(e event.Event, durable bool) error
	Close() error
} = (*Writer)(nil)

// TestClosedDatabaseFails: a database gone from under the writer fails
// every commit, and Close says so.
func TestClosedDatabaseFails(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("gone", "/p")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Record(event.Event{V: 1, Seq: 1, Kind: event.UserMessage, Text: "a"}, true); err != nil {
		t.Fatal(err)
	}
	w.db.Close() // the disk goes away under the writer
	err1 := w.Record(event.Event{V: 1, Seq: 2, Kind: event.UserMessage, Text: "b"}, true)
	if err1 == nil || !strings.Contains(err1.Error(), w.path) {
		t.Fatalf("commit to a closed database: %v", err1)
	}
	if err := w.Record(event.Event{V: 1, Seq: 2, Kind: event.AssistantDelta, Text: "c"}, false); err == nil {
		t.Fatal("a failing writer reported nothing")
	}
	if err := w.Close(); err == nil {
		t.Fatal("Close hid the failure")
	}
}

func TestCloseDiscardingEmpty(t *testing.T) {
	st, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	record := func(w *Writer, evs ...event.Event) {
		for i, e := range evs {
			e.V, e.Seq, e.Time = event.SchemaVersion, uint64(i+1), time.Now()
			if err := w.Record(e, e.Kind == event.UserMessage); err != nil {
				t.Fatal(err)
			}
		}
	}
	empty, err := st.Create("", cwd)
	if err != nil {
		t.Fatal(err)
	}
	record(empty, event.Event{Kind: event.SessionStarted, Session: &event.SessionInfo{ID: empty.ID(), Cwd: cwd}})
	used, err := st.Create("", cwd)
	if err != nil {
		t.Fatal(err)
	}
	record(used,
		event.Event{Kind: event.SessionStarted, Session: &event.SessionInfo{ID: used.ID(), Cwd: cwd}},
		event.Event{Kind: event.UserMessage, Turn: 1, Text: "keep me"},
		event.Event{Kind: event.TurnStarted, Turn: 1})

	if removed, err := empty.CloseDiscardingEmpty(); err != nil || !removed {
		t.Fatalf("an empty session was not removed: %v, %v", removed, err)
	}
	if removed, err := used.CloseDiscardingEmpty(); err != nil || removed {
		t.Fatalf("a session with a prompt was removed: %v, %v", removed, err)
	}
	list, err := st.List(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Sessions) != 1 || list.Sessions[0].ID != used.ID() || len(list.Problems) != 0 {
		t.Fatalf("listing after closing: %+v", list)
	}
}

// A session started by a custom /command is titled with what was typed,
// not with the text it expanded to.
func TestTitleOfACommandIsWhatWasTyped(t *testing.T) {
	st := newTestStore(t, Options{})
	w, err := st.Create("", "/home/u/proj")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	recordAll(t, w, []event.Event{
		{V: event.SchemaVersion, Seq: 1, Kind: event.SessionStarted, Session: &event.SessionInfo{ID: w.ID(), Cwd: "/home/u/proj"}},
		{V: event.SchemaVersion, Seq: 2, Kind: event.UserMessage, Turn: 1, Text: "You are a careful reviewer.\nReview a.go.", Command: "/review a.go"},
	})
	if got := w.Summary().Title; got != "/review a.go" {
		t.Fatalf("title %q", got)
	}
	all, err := w.ReadAll()
	if err != nil || len(all) != 2 || all[1].Command != "/review a.go" || all[1].Text != "You are a careful reviewer.\nReview a.go." {
		t.Fatalf("read back %+v, %v", all, err)
	}
}

// TestFragmentsJoinWhileTheyWait: text fragments recorded in a row
// (assistant or reasoning text of one turn, output of one call) are
// stored as one event holding all their text, with the last one's seq and
// time, so a streamed answer costs one stored event per commit instead of
// one per fragment; nothing else joins, and a commit in between keeps the
// fragments before it apart from those after.
func TestFragmentsJoinWhileTheyWait(t *testing.T) {
	st := newTestStore(t, Options{GroupWindow: time.Hour})
	w, err := st.Create("", "/p")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var seq uint64
	rec := func(kind event.Kind, turn int, call, text string, durable bool) {
		t.Helper()
		seq++
		e := event.Event{V: event.SchemaVersion, Seq: seq, Time: baseTime.Add(time.Duration(seq) * time.Second), Kind: kind, Turn: turn, CallID: call, Text: text}
		if err := w.Record(e, durable); err != nil {
			t.Fatal(err)
		}
	}
	rec(event.UserMessage, 1, "", "go", true)           // 1
	rec(event.ReasoningDelta, 1, "", "th", false)       // 2
	rec(event.ReasoningDelta, 1, "", "ink", false)      // 3
	rec(event.AssistantDelta, 1, "", "Hel", false)      // 4
	rec(event.AssistantDelta, 1, "", "lo, ", false)     // 5
	rec(event.AssistantDelta, 1, "", "wörld", false)    // 6
	rec(event.Notice, 1, "", "a notice", false)         // 7
	rec(event.AssistantDelta, 1, "", "!", false)        // 8
	rec(event.ToolOutputDelta, 1, "c1", "out ", false)  // 9
	rec(event.ToolOutputDelta, 1, "c1", "put", false)   // 10
	rec(event.ToolOutputDelta, 1, "c2", "other", false) // 11
	rec(event.AssistantDelta, 2, "", "next ", false)    // 12: another turn
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	rec(event.AssistantDelta, 2, "", "turn", false) // 13: after a commit
	rec(event.UserMessage, 3, "", "again", true)    // 14
	got, err := w.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range got {
		fmt.Fprintf(&b, "%d:%s:%s|", e.Seq, e.Kind, e.Text)
		if want := baseTime.Add(time.Duration(e.Seq) * time.Second); !e.Time.Equal(want) {
			t.Errorf("event %d has the time %v, want its last fragment's %v", e.Seq, e.Time, want)
		}
	}
	want := "1:user_message:go|3:reasoning_delta:think|6:assistant_delta:Hello, wörld|7:notice:a notice|8:assistant_delta:!|" +
		"10:tool_output:out put|11:tool_output:other|12:assistant_delta:next |13:assistant_delta:turn|14:user_message:again|"
	if b.String() != want {
		t.Fatalf("stored:\n%s\nwant:\n%s", b.String(), want)
	}
	if w.LastSeq() != 14 || w.Summary().LastSeq != 14 {
		t.Fatalf("last seq %d, summary's %d, want 14", w.LastSeq(), w.Summary().LastSeq)
	}
}

// A streamed answer's text waits up to FragmentWindow when nothing else
// does; an ordinary event recorded meanwhile brings the commit forward to
// its own GroupWindow, fragments included.
func TestFragmentsWaitTheirOwnWindow(t *testing.T) {
	st := newTestStore(t, Options{GroupWindow: 30 * time.Millisecond, FragmentWindow: time.Hour})
	w, err := st.Create("fragments", "/p")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	committed := func() uint64 {
		seq, err := w.view.lastSeq()
		if err != nil {
			t.Fatal(err)
		}
		return seq
	}
	for seq := uint64(1); seq <= 3; seq++ {
		if err := w.Record(event.Event{V: 1, Seq: seq, Kind: event.AssistantDelta, Text: "x"}, false); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(150 * time.Millisecond) // five group windows
	if got := committed(); got != 0 {
		t.Fatalf("fragments were committed after %d group windows: committed %d", 5, got)
	}
	if err := w.Record(event.Event{V: 1, Seq: 4, Kind: event.Notice, Text: "n"}, false); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for committed() != 4 {
		if time.Now().After(deadline) {
			t.Fatalf("a notice behind waiting fragments was not committed in its window: committed %d", committed())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestSummaryFileRefreshesLastActiveEveryTenSeconds: commits that change
// nothing a listing shows rewrite session.json's "last active" only once
// summaryEvery has passed; a change a listing shows is written at once.
func TestSummaryFileRefreshesLastActiveEveryTenSeconds(t *testing.T) {
	now := baseTime
	st := newTestStore(t, Options{Now: func() time.Time { return now }})
	w, err := st.Create("", "/home/u/proj")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	dir := w.Summary().Dir
	lastActive := func() time.Time {
		t.Helper()
		sum, err := readSummaryFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		return sum.LastActive
	}
	written := lastActive()
	seq := w.LastSeq()
	commitDelta := func(after time.Duration) {
		t.Helper()
		now = now.Add(after)
		seq++
		if err := w.Record(ev(seq, event.AssistantDelta, "text"), false); err != nil {
			t.Fatal(err)
		}
		if err := w.flush(false); err != nil {
			t.Fatal(err)
		}
	}
	for range 9 {
		commitDelta(time.Second)
		if got := lastActive(); !got.Equal(written) {
			t.Fatalf("session.json rewritten %v after the last write, before %v", now.Sub(written), summaryEvery)
		}
	}
	commitDelta(time.Second)
	if got := lastActive(); !got.Equal(now) {
		t.Fatalf("session.json's last active is %v, %v after it was written; want it refreshed to %v", got, summaryEvery, now)
	}
	now = now.Add(time.Second)
	seq++
	if err := w.Record(event.Event{V: event.SchemaVersion, Seq: seq, Time: now, Kind: event.TurnStarted, Turn: 2, Text: "next"}, true); err != nil {
		t.Fatal(err)
	}
	if err := w.flush(false); err != nil {
		t.Fatal(err)
	}
	if sum, err := readSummaryFile(dir); err != nil || sum.Turns != w.Summary().Turns || !sum.LastActive.Equal(now) {
		t.Fatalf("after a new turn session.json = %+v (%v), want %d turns at once", sum, err, w.Summary().Turns)
	}
}

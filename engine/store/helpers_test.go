package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// testClock is a settable clock for Options.Now.
type testClock struct{ t time.Time }

func (c *testClock) now() time.Time { return c.t }

func newTestStore(t testing.TB, opts Options) *Store {
	t.Helper()
	s, err := Open(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var baseTime = time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)

// sessionEvents returns a plausible session of n turns: a start, then per
// turn a prompt, deltas, a tool call with a large output, and the end.
func sessionEvents(id, cwd string, turns int) []event.Event {
	var out []event.Event
	seq := uint64(0)
	add := func(e event.Event) {
		seq++
		e.V, e.Seq = event.SchemaVersion, seq
		e.Time = baseTime.Add(time.Duration(seq) * time.Millisecond)
		out = append(out, e)
	}
	add(event.Event{Kind: event.SessionStarted, Session: &event.SessionInfo{ID: id, Cwd: cwd, Model: "test-model", Version: "dev"}})
	for turn := 1; turn <= turns; turn++ {
		add(event.Event{Kind: event.UserMessage, Turn: turn, Text: fmt.Sprintf("prompt %d: fix the \"bug\" ✓\nsecond line", turn)})
		add(event.Event{Kind: event.TurnStarted, Turn: turn})
		for i := 0; i < 5; i++ {
			add(event.Event{Kind: event.AssistantDelta, Turn: turn, Text: fmt.Sprintf("word%d ", i)})
		}
		call := event.ToolCall{ID: fmt.Sprintf("c%d", turn), Name: "read", Arguments: json.RawMessage(`{"path":"a.go"}`), ToolKind: "read", Target: "a.go"}
		add(event.Event{Kind: event.AssistantMessage, Turn: turn, Text: "word0 word1 word2 word3 word4 ", Calls: []event.ToolCall{call}})
		add(event.Event{Kind: event.ToolCallRequested, Turn: turn, Call: &call})
		add(event.Event{Kind: event.ApprovalRequested, Turn: turn, Approval: &event.Approval{CallID: call.ID, Tool: "read", Preview: strings.Repeat("+line\n", 3000)}})
		add(event.Event{Kind: event.ApprovalAnswered, Turn: turn, Approval: &event.Approval{CallID: call.ID, Decision: event.Approve}})
		code := 0
		add(event.Event{Kind: event.ToolFinished, Turn: turn, Result: &event.ToolResult{CallID: call.ID, Name: "read", Status: event.ToolOK, Output: strings.Repeat("package main // big file\n", 1000), ExitCode: &code, DurationMS: 3, Diff: "small diff"}})
		add(event.Event{Kind: event.TurnEnded, Turn: turn, End: &event.TurnEnd{State: event.TurnCompleted, Usage: event.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}}})
	}
	return out
}

// recordAll writes events, acknowledging user messages as the engine does.
func recordAll(t testing.TB, w *Writer, events []event.Event) {
	t.Helper()
	for _, e := range events {
		if err := w.Record(e, e.Kind == event.UserMessage); err != nil {
			t.Fatalf("record %d: %v", e.Seq, err)
		}
	}
}

// mustEqualEvents checks that got is want as the store keeps it: text
// fragments recorded in a row may be stored as one event (how many
// depends on when commits happened), so both sides are compared with
// every run of mergeable fragments joined.
func mustEqualEvents(t testing.TB, got, want []event.Event) {
	t.Helper()
	got, want = joinFragments(got), joinFragments(want)
	if len(got) != len(want) {
		t.Fatalf("got %d events, want %d", len(got), len(want))
	}
	for i := range want {
		g, _ := json.Marshal(got[i])
		w, _ := json.Marshal(want[i])
		if string(g) != string(w) {
			t.Fatalf("event %d differs:\n got %s\nwant %s", i, g, w)
		}
	}
}

// joinFragments joins every run of mergeable text fragments into one
// event, as the store may, with the last fragment's Seq and Time.
func joinFragments(evs []event.Event) []event.Event {
	var out []event.Event
	for _, e := range evs {
		if n := len(out); n > 0 && event.Mergeable(out[n-1], e) {
			out[n-1].Text += e.Text
			out[n-1].Seq, out[n-1].Time = e.Seq, e.Time
			continue
		}
		out = append(out, e)
	}
	return out
}

// holeFree reports the first hole in evs, a log as the store keeps it
// from after seq on: each event's seq follows the one before it, unless the event is a text
// fragment that stands for fragments recorded in a row and stored as
// one, in which case parts (how many fragments its text holds) must
// account for every seq it skips.
func holeFree(evs []event.Event, after uint64, parts func(text string) int) error {
	last := after
	for i, e := range evs {
		want := uint64(1)
		if event.Mergeable(e, e) {
			want = uint64(parts(e.Text))
		}
		if e.Seq-last != want {
			return fmt.Errorf("event %d has seq %d after %d and holds %d seqs: a hole in the log", i, e.Seq, last, want)
		}
		last = e.Seq
	}
	return nil
}

// wordParts counts the fragments of sessionEvents' answers.
func wordParts(text string) int { return strings.Count(text, "word") }

func wantErrIs(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error = %v, want %v", err, target)
	}
}

// plainFiles writes with the os package: the store's tests check what the
// store asks for; package fsguard's tests check the guarded writer the
// session wiring plugs in, restores included.
type plainFiles struct{ calls *[]string }

func (p plainFiles) note(s string) {
	if p.calls != nil {
		*p.calls = append(*p.calls, s)
	}
}

func (p plainFiles) WriteFile(path string, data []byte, mode fs.FileMode) error {
	p.note("write " + filepath.Base(path))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, data, mode.Perm()); err != nil {
		return err
	}
	return os.Chmod(path, mode.Perm())
}

func (p plainFiles) Remove(path string) error {
	p.note("remove " + filepath.Base(path))
	return os.Remove(path)
}

func (p plainFiles) Chmod(path string, mode fs.FileMode) error {
	p.note("chmod " + filepath.Base(path))
	return os.Chmod(path, mode.Perm())
}

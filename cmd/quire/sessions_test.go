package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
)

// seedSessions stores two good sessions and a damaged one under a fresh
// QUIRE_HOME, and returns that home and the events of the first.
func seedSessions(t *testing.T) (string, []event.Event) {
	home := t.TempDir()
	clock := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	st, err := store.Open(home, store.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	var first []event.Event
	for i, s := range []struct{ id, cwd, prompt string }{
		{"20261130-070000-aaaaaa", "/src/a", "explain the parser"},
		{"20261130-070100-bbbbbb", "/src/b", "add a flag"},
		{"20261130-070200-cccccc", "/src/c", "soon damaged"},
	} {
		clock = clock.Add(time.Minute)
		w, err := st.Create(s.id, s.cwd)
		if err != nil {
			t.Fatal(err)
		}
		events := []event.Event{
			{V: 1, Seq: 1, Time: clock, Kind: event.SessionStarted, Session: &event.SessionInfo{ID: s.id, Cwd: s.cwd, Model: "m"}},
			{V: 1, Seq: 2, Time: clock, Kind: event.UserMessage, Text: s.prompt},
			{V: 1, Seq: 3, Time: clock, Kind: event.TurnStarted, Turn: 1},
			{V: 1, Seq: 4, Time: clock, Kind: event.AssistantDelta, Turn: 1, Text: "ok"},
			{V: 1, Seq: 5, Time: clock, Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCompleted, Usage: event.Usage{TotalTokens: 1200 * (i + 1)}}},
		}
		for _, e := range events {
			if err := w.Record(e, e.Kind == event.UserMessage); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = events
		}
	}
	db := filepath.Join(home, "sessions", "%2Fsrc%2Fc", "20261130-070200-cccccc", "events.db")
	if err := os.WriteFile(db, []byte("not a database at all"), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, first
}

func TestSessionsCommand(t *testing.T) {
	bin := buildQuire(t)
	home, _ := seedSessions(t)
	env := []string{"QUIRE_HOME=" + home}

	out, errOut, code, _ := runQuire(t, bin, env, "sessions")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") ||
		!strings.HasPrefix(lines[1], "20261130-070100-bbbbbb") || !strings.HasPrefix(lines[2], "20261130-070000-aaaaaa") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, out, errOut)
	}
	if !strings.Contains(lines[1], "2.4k") || !strings.Contains(lines[1], "/src/b") || !strings.Contains(lines[1], "add a flag") {
		t.Fatalf("row = %q", lines[1])
	}
	if !strings.Contains(errOut, "20261130-070200-cccccc") || !strings.Contains(errOut, "events.db") {
		t.Fatalf("the damaged session is not reported: %q", errOut)
	}

	out, _, code, _ = runQuire(t, bin, env, "sessions", "--cwd", "/src/a", "--json")
	var got []store.Summary
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
		t.Fatalf("--json: %v, exit %d, %q", err, code, out)
	}
	if len(got) != 1 || got[0].ID != "20261130-070000-aaaaaa" || got[0].Title != "explain the parser" || got[0].Turns != 1 {
		t.Fatalf("--cwd /src/a --json = %+v", got)
	}

	if _, _, code, _ = runQuire(t, bin, env, "sessions", "extra"); code != 2 {
		t.Fatalf("an extra argument: exit %d", code)
	}
}

func TestExportCommand(t *testing.T) {
	bin := buildQuire(t)
	home, want := seedSessions(t)
	env := []string{"QUIRE_HOME=" + home}

	file := filepath.Join(t.TempDir(), "t.jsonl")
	_, errOut, code, _ := runQuire(t, bin, env, "export", "20261130-0700", "-o", file)
	if code != 0 {
		t.Fatalf("export: exit %d, %s", code, errOut)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, got, err := store.ReadTranscript(f)
	if err != nil {
		t.Fatal(err)
	}
	if h.Session != "20261130-070000-aaaaaa" || h.Cwd != "/src/a" || len(got) != len(want) {
		t.Fatalf("header %+v, %d events", h, len(got))
	}
	for i := range want {
		a, _ := json.Marshal(got[i])
		b, _ := json.Marshal(want[i])
		if string(a) != string(b) {
			t.Fatalf("event %d: %s, want %s", i, a, b)
		}
	}

	out, _, code, _ := runQuire(t, bin, env, "export", "20261130-070100-bbbbbb")
	if code != 0 || !strings.HasPrefix(out, `{"quire_transcript":1`) || strings.Count(out, "\n") != 6 {
		t.Fatalf("export to stdout: exit %d, %q", code, out)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"export", "2026"}, 1, "ambiguous"},
		{[]string{"export", "nope"}, 1, "no such session"},
		{[]string{"export", "20261130-070200-cccccc"}, 1, "events.db"},
		{[]string{"export"}, 2, "quire export: no session id"},
	} {
		_, errOut, code, _ := runQuire(t, bin, env, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}

package store

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

func TestWriteTableGolden(t *testing.T) {
	now := baseTime
	sessions := []Summary{
		{ID: "20261130-065900-aaaaaa", Cwd: "/home/u/src/quire", Title: "fix the flaky resize test", LastActive: now, Turns: 3, Tokens: 12345, Cost: 0.4213, Running: true},
		{ID: "20261130-050000-bbbbbb", Cwd: "/home/u", Title: "say \x1b[31mred\x1b[0m\tplease", LastActive: now.Add(-2 * time.Hour), Turns: 1, Tokens: 950, Cost: 0.0042},
		{ID: "20261125-090000-cccccc", Cwd: "/srv/app", Title: "日本語のタイトル", LastActive: now.Add(-5 * 24 * time.Hour), Turns: 40, Tokens: 4_100_000, Cost: 12.3, CostUnknown: true},
		{ID: "20260101-090000-dddddd", Cwd: "/tmp", LastActive: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)},
	}
	var buf bytes.Buffer
	if err := WriteTable(&buf, sessions, now, "/home/u"); err != nil {
		t.Fatal(err)
	}
	golden(t, "sessions_table.golden", buf.Bytes())
	buf.Reset()
	if err := WriteJSON(&buf, sessions[:1]); err != nil {
		t.Fatal(err)
	}
	golden(t, "sessions_json.golden", buf.Bytes())
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs:\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

// A session's cost sums its turns' known costs and remembers turns whose
// price was unknown; its provider follows its latest model.
func TestSummaryCost(t *testing.T) {
	var s Summary
	cost := func(x float64) *float64 { return &x }
	for _, e := range []event.Event{
		{Seq: 1, Kind: event.SessionStarted, Session: &event.SessionInfo{Model: "claude-x", Provider: "anthropic"}},
		{Seq: 2, Kind: event.TurnEnded, End: &event.TurnEnd{Usage: event.Usage{TotalTokens: 100}, Cost: cost(0.25)}},
		{Seq: 3, Kind: event.SessionStarted, Session: &event.SessionInfo{Model: "llama3", Provider: "ollama"}},
		{Seq: 4, Kind: event.TurnEnded, End: &event.TurnEnd{Usage: event.Usage{TotalTokens: 50}}},
		{Seq: 5, Kind: event.TurnEnded, End: &event.TurnEnd{State: event.TurnCancelled}},
	} {
		s.observe(e)
	}
	if s.Cost != 0.25 || !s.CostUnknown || s.Model != "llama3" || s.Provider != "ollama" || Cost(s.Cost, s.CostUnknown) != "$0.25+" {
		t.Fatalf("summary %+v", s)
	}
}

package app

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// recording is a small session: a prompt, a tool call with output, and a
// markdown answer, with times one second apart.
func recording() []event.Event {
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	code := 0
	evs := []event.Event{
		{Kind: event.SessionStarted, Session: &event.SessionInfo{ID: "20261130-120000-abcdef", Cwd: "/home/dev/project", Model: "test-model", Version: "dev"}},
		{Kind: event.UserMessage, Turn: 1, Text: "What does the build do? Keep it short."},
		{Kind: event.TurnStarted, Turn: 1},
		{Kind: event.ToolCallRequested, Turn: 1, Call: &event.ToolCall{ID: "c1", Name: "shell", Arguments: json.RawMessage(`{"command":"cat Makefile"}`), ToolKind: "execute", Target: "cat Makefile"}},
		{Kind: event.ToolOutputDelta, Turn: 1, CallID: "c1", Text: "build:\n\tgo build ./...\n"},
		{Kind: event.ToolFinished, Turn: 1, Result: &event.ToolResult{CallID: "c1", Name: "shell", Status: event.ToolOK, Output: "build:\n\tgo build ./...\n", ExitCode: &code, DurationMS: 12}},
		{Kind: event.AssistantDelta, Turn: 1, Text: "## The build\n\nIt runs **go build** over every package:\n\n"},
		{Kind: event.AssistantDelta, Turn: 1, Text: "- compiles `./...`\n- writes nothing but the cache\n\n| target | command |\n|---|---|\n| build | `go build ./...` |\n"},
		{Kind: event.AssistantMessage, Turn: 1, Text: "## The build\n\nIt runs **go build** over every package:\n\n- compiles `./...`\n- writes nothing but the cache\n\n| target | command |\n|---|---|\n| build | `go build ./...` |\n"},
		{Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCompleted, Usage: event.Usage{PromptTokens: 900, CompletionTokens: 40, TotalTokens: 940}}},
	}
	for i := range evs {
		evs[i].V, evs[i].Seq, evs[i].Time = event.SchemaVersion, uint64(i+1), at(i)
	}
	return evs
}

func TestPrintGoldens(t *testing.T) {
	tests := []struct {
		name   string
		width  int
		colors render.ColorLevel
		plain  bool
	}{
		{"print_80.golden", 80, render.ColorNone, true},
		{"print_120.golden", 120, render.ColorNone, true},
		{"print_80_nocolor.golden", 80, render.ColorNone, false},
		{"print_80_256.golden", 80, render.Color256, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := PrintTranscript(&b, recording(), PrintOptions{Theme: "dark", Width: tt.width, Colors: tt.colors, Plain: tt.plain}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tt.name)
			if *update {
				os.MkdirAll("testdata", 0o755)
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./app -run TestPrintGoldens -update)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Fatalf("--print output differs from %s (rerun with -update if the change is intended):\n%s", path, b.String())
			}
			switch {
			case tt.plain && bytes.IndexByte(b.Bytes(), 0x1b) >= 0:
				t.Fatal("--color never wrote an escape sequence")
			case tt.colors == render.ColorNone && bytes.Contains(b.Bytes(), []byte("38;")):
				t.Fatal("NO_COLOR output carries a colour")
			}
		})
	}
}

func TestPlayerPacesPausesAndSteps(t *testing.T) {
	evs := recording()
	p := NewPlayer(evs, 1000, false) // a second between events becomes 1 ms
	defer p.Close()
	got := 0
	for range p.Events() {
		got++
	}
	if got != len(evs) {
		t.Fatalf("played %d events, want %d", got, len(evs))
	}

	// Paused playback delivers nothing until a step.
	p2 := NewPlayer(evs, 0.001, false) // far too slow to advance by itself
	defer p2.Close()
	first := <-p2.Events()
	if first.Seq != 1 {
		t.Fatalf("first event seq %d", first.Seq)
	}
	p2.TogglePause()
	select {
	case e := <-p2.Events():
		t.Fatalf("a paused replay delivered seq %d", e.Seq)
	case <-time.After(50 * time.Millisecond):
	}
	p2.Step()
	select {
	case e := <-p2.Events():
		if e.Seq != 2 {
			t.Fatalf("step delivered seq %d, want 2", e.Seq)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("step delivered nothing")
	}
}

func TestInstantPlayerDeliversAll(t *testing.T) {
	p := NewPlayer(recording(), 1, true)
	defer p.Close()
	n := 0
	for range p.Events() {
		n++
	}
	if n != len(recording()) {
		t.Fatalf("instant replay delivered %d events", n)
	}
}

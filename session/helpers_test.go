package session

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.MaybeLaunch()
	os.Exit(m.Run())
}

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// recording is a small session: a prompt, a tool call with output, and a
// markdown answer, with times one second apart.
func recording() []event.Event {
	code := 0
	evs := []event.Event{
		{Kind: event.SessionStarted, Session: &event.SessionInfo{ID: "20261130-120000-abcdef", Cwd: "/home/dev/project", Model: "test-model", Version: "dev"}},
		{Kind: event.UserMessage, Turn: 1, Text: "What does the build do? Keep it short."},
		{Kind: event.TurnStarted, Turn: 1},
		{Kind: event.ToolCallRequested, Turn: 1, Call: &event.ToolCall{ID: "c1", Name: "shell", Arguments: json.RawMessage(`{"command":"cat Makefile"}`), ToolKind: "execute", Target: "cat Makefile"}},
		{Kind: event.ToolOutputDelta, Turn: 1, CallID: "c1", Text: "build:\n\tgo build ./...\n"},
		{Kind: event.ToolFinished, Turn: 1, Result: &event.ToolResult{CallID: "c1", Name: "shell", Status: event.ToolOK, Output: "build:\n\tgo build ./...\n", ExitCode: &code, DurationMS: 12}},
		{Kind: event.AssistantDelta, Turn: 1, Text: "## The build\n\nIt runs **go build**.\n"},
		{Kind: event.AssistantMessage, Turn: 1, Text: "## The build\n\nIt runs **go build**.\n"},
		{Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCompleted, Usage: event.Usage{PromptTokens: 900, CompletionTokens: 40, TotalTokens: 940}}},
	}
	for i := range evs {
		evs[i].V, evs[i].Seq, evs[i].Time = event.SchemaVersion, uint64(i+1), t0.Add(time.Duration(i)*time.Second)
	}
	return evs
}

// testConfig is a configuration against srv with the state dir in a
// fresh temporary QUIRE_HOME.
func testConfig(t *testing.T, srv *testserver.Server, approval string) *config.Config {
	t.Helper()
	t.Setenv("QUIRE_HOME", t.TempDir())
	// The user's own hooks.json is not the test's.
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	return &config.Config{Model: "m", BaseURL: srv.URL(), APIKey: "k", Approval: approval, Sandbox: "off", ContextWindow: 100000, RetentionDays: 30}
}

func startServer(t *testing.T, responses ...testserver.Response) *testserver.Server {
	t.Helper()
	srv, err := testserver.Start(testserver.Script{Responses: responses})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// until reads events until one of kind arrives and returns it.
func until(t *testing.T, events <-chan event.Event, kind event.Kind) event.Event {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatalf("the events ended before %s", kind)
			}
			if e.Kind == kind {
				return e
			}
		case <-deadline:
			t.Fatalf("no %s within 10 s", kind)
		}
	}
}

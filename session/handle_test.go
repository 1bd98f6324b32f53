package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/engine/testserver"
)

func openHandle(t *testing.T, opt Options) *Handle {
	t.Helper()
	h, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// ask sends a prompt and waits for its turn to end.
func ask(t *testing.T, h *Handle, prompt string) {
	t.Helper()
	h.Submit(prompt)
	until(t, h.Events(), event.TurnEnded)
}

func TestSwitchModelContinuesTheLog(t *testing.T) {
	srv := startServer(t, testserver.Text("first"), testserver.Text("second"))
	h := openHandle(t, Options{Config: testConfig(t, srv, "ask"), Cwd: t.TempDir()})
	ask(t, h, "one")
	id := h.cur.Writer.ID()
	r, err := h.SwitchModel(context.Background(), "other-model")
	if err != nil {
		t.Fatal(err)
	}
	if r.Rebuild || !strings.Contains(r.Notice, "other-model") {
		t.Fatalf("switched: %+v", r)
	}
	ask(t, h, "two")
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if last.Model != "other-model" {
		t.Fatalf("the next request went to %q", last.Model)
	}
	var saw []string
	for _, m := range last.Messages {
		saw = append(saw, m.Content)
	}
	if !strings.Contains(strings.Join(saw, "|"), "one") {
		t.Fatalf("the new model did not get the history: %q", saw)
	}
	if h.cur.Writer.ID() != id {
		t.Fatalf("the session changed from %s to %s", id, h.cur.Writer.ID())
	}
	if opt := h.AppOptions(); opt.Status.Model != "openai-compatible/other-model" {
		t.Fatalf("the status line would say %q", opt.Status.Model)
	}
}

// A model the engine refuses leaves the session running on the old one.
func TestFailedModelSwitchLeavesTheSessionRunning(t *testing.T) {
	srv := startServer(t, testserver.Text("first"), testserver.Text("still here"))
	h := openHandle(t, Options{Config: testConfig(t, srv, "ask"), Cwd: t.TempDir()})
	ask(t, h, "one")
	if _, err := h.SwitchModel(context.Background(), ""); err == nil || !strings.Contains(err.Error(), "no model") {
		t.Fatalf("switching to no model: %v", err)
	}
	h.Submit("two")
	if e := until(t, h.Events(), event.AssistantMessage); e.Text != "still here" {
		t.Fatalf("after the failed switch: %q", e.Text)
	}
	if reqs := srv.Requests(); reqs[len(reqs)-1].Model != "m" {
		t.Fatalf("the request went to %q, want the old model", reqs[len(reqs)-1].Model)
	}
}

// /clear opens the new session before it gives up the old one: when the
// new one cannot start, the old one goes on.
func TestFailedClearLeavesTheSessionRunning(t *testing.T) {
	srv := startServer(t, testserver.Text("first"), testserver.Text("still here"))
	dir := t.TempDir()
	h := openHandle(t, Options{Config: testConfig(t, srv, "ask"), Cwd: dir})
	ask(t, h, "one")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Clear(context.Background()); err == nil {
		t.Fatal("a new session started in a directory that is gone")
	}
	h.Submit("two")
	if e := until(t, h.Events(), event.AssistantMessage); e.Text != "still here" {
		t.Fatalf("after the failed clear: %q", e.Text)
	}
}

func TestClearStartsANewSession(t *testing.T) {
	srv := startServer(t, testserver.Text("first"), testserver.Text("fresh"))
	h := openHandle(t, Options{Config: testConfig(t, srv, "ask"), Cwd: t.TempDir()})
	ask(t, h, "one")
	old := h.cur.Writer.ID()
	r, err := h.Clear(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !r.Rebuild || r.Prior != nil || h.cur.Writer.ID() == old {
		t.Fatalf("clear: %+v, session %s (was %s)", r, h.cur.Writer.ID(), old)
	}
	ask(t, h, "two")
	for _, m := range srv.Requests()[1].Messages {
		if m.Role == "user" && m.Content == "one" || m.Role == "assistant" {
			t.Fatalf("the new session saw the old conversation: %+v", m)
		}
	}
	list, err := h.Sessions(context.Background())
	if err != nil || len(list) != 2 {
		t.Fatalf("sessions: %v, %v", list, err)
	}
}

func TestRewindRestoresFilesAndForks(t *testing.T) {
	srv := startServer(t,
		testserver.Call("w1", "write_file", `{"path":"notes.txt","content":"first version\n"}`),
		testserver.Text("Wrote v1."),
		testserver.Call("w2", "write_file", `{"path":"notes.txt","content":"second version\n"}`),
		testserver.Text("Wrote v2."),
	)
	dir := t.TempDir()
	h := openHandle(t, Options{Config: testConfig(t, srv, "yolo"), Cwd: dir})
	ask(t, h, "write v1")
	ask(t, h, "write v2")
	if _, err := h.Rewind(context.Background(), 5, "both"); err == nil || !strings.Contains(err.Error(), "prompts 1 to 2") {
		t.Fatalf("rewind 5: %v", err)
	}
	old := h.cur.Writer.ID()
	r, err := h.Rewind(context.Background(), 2, "both")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "notes.txt"))
	if string(got) != "first version\n" {
		t.Fatalf("notes.txt = %q after the rewind", got)
	}
	if !r.Rebuild || r.Prompt != "write v2" || !strings.Contains(r.Notice, "rewound to before prompt 2") {
		t.Fatalf("rewind: %+v", r)
	}
	for _, e := range r.Prior {
		if e.Kind == event.UserMessage && e.Text == "write v2" {
			t.Fatal("the rewound prompt is still in the transcript")
		}
	}
	if h.cur.Writer.ID() == old {
		t.Fatal("the rewound conversation did not fork")
	}
}

// Commands sent while the session is being replaced wait, in order, and
// go to the session that comes out of it.
func TestCommandsWaitForTheSwitch(t *testing.T) {
	srv := startServer(t, testserver.Text("answer"))
	h := openHandle(t, Options{Config: testConfig(t, srv, "ask"), Cwd: t.TempDir()})
	cur := h.cur
	h.hold()
	h.Submit("typed during the switch")
	time.Sleep(50 * time.Millisecond)
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("a command went to the session being replaced (%d requests)", n)
	}
	h.release(cur)
	if e := until(t, h.Events(), event.UserMessage); e.Text != "typed during the switch" {
		t.Fatalf("delivered %q", e.Text)
	}
}

func TestExportWritesTheTranscript(t *testing.T) {
	srv := startServer(t, testserver.Text("exported answer"))
	h := openHandle(t, Options{Config: testConfig(t, srv, "ask"), Cwd: t.TempDir()})
	ask(t, h, "one")
	path := filepath.Join(t.TempDir(), "out.jsonl")
	msg, err := h.Export(context.Background(), path)
	if err != nil || !strings.Contains(msg, path) {
		t.Fatalf("export: %q, %v", msg, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, events, err := store.ReadTranscript(f)
	if err != nil {
		t.Fatal(err)
	}
	if events[len(events)-1].Kind != event.TurnEnded {
		t.Fatalf("the transcript ends with %s", events[len(events)-1].Kind)
	}
}

// The demo's sessions keep no store: what needs one says so.
func TestUnstoredSessionRefusesSwitches(t *testing.T) {
	srv := startServer(t)
	h := openHandle(t, Options{Config: testConfig(t, srv, "ask"), Cwd: t.TempDir(), NoStore: true})
	if _, err := h.SwitchModel(context.Background(), "x"); err == nil || !strings.Contains(err.Error(), "not stored") {
		t.Fatalf("switch: %v", err)
	}
	if _, err := h.Export(context.Background(), ""); err == nil {
		t.Fatal("an unstored session exported")
	}
}

// The store's background prune belongs to the handle: Close stops it
// and waits for it.
func TestCloseWaitsForThePrune(t *testing.T) {
	srv := startServer(t)
	h, err := Open(Options{Config: testConfig(t, srv, "ask"), Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
	select {
	case <-h.prune.done:
	default:
		t.Fatal("the prune still runs after Close")
	}
	if id, _ := h.Saved(); id != "" {
		t.Fatalf("an empty session was kept as %s", id)
	}
}

// A terminal recording given to replay gets a pointer to what plays it.
func TestReplayNamesATerminalRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.cast")
	if err := os.WriteFile(path, []byte("{\"version\": 2, \"width\": 80, \"height\": 24, \"timestamp\": 1}\n[0.1, \"o\", \"hi\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadRecording(path)
	if err == nil || !strings.Contains(err.Error(), "asciinema play") {
		t.Fatalf("err = %v", err)
	}
}

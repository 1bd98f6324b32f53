package session

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/app/apptest"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/term"
)

// stuckRecorder is a store that stops answering: from the first prompt
// on, Record never returns until the test lets it.
type stuckRecorder struct {
	engine.Recorder
	gate    chan struct{}
	mu      sync.Mutex
	blocked bool
}

func (r *stuckRecorder) Record(e event.Event, durable bool) error {
	if e.Kind == event.UserMessage {
		r.mu.Lock()
		r.blocked = true
		r.mu.Unlock()
		<-r.gate
	}
	return r.Recorder.Record(e, durable)
}

func (r *stuckRecorder) isBlocked() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.blocked
}

// With the store stuck, the UI goes on drawing frames and taking keys:
// sending a prompt, switching the model, exporting and listing sessions
// all wait off the loop's goroutine, and their outcome is shown when the
// store answers again.
func TestStuckStoreNeverStopsTheUI(t *testing.T) {
	srv := startServer(t, testserver.Text("the answer, once the store is back"))
	cfg := testConfig(t, srv, "ask")
	h := &Handle{opt: Options{Config: cfg, Cwd: t.TempDir()}}
	st, err := openStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.st, h.opt.store = st, st
	p, err := prepare(h.opt, true)
	if err != nil {
		t.Fatal(err)
	}
	rec := &stuckRecorder{Recorder: p.Engine.Recorder, gate: make(chan struct{})}
	p.Engine.Recorder = rec
	s, err := p.open()
	if err != nil {
		t.Fatal(err)
	}
	h.cur, h.events, h.dir = s, s.Events(), s.Env.Dir

	tt := apptest.NewTerminal(100, 30)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- app.Run(ctx, tt, h, app.Options{Status: app.Status{Model: "m", Sandbox: "off", Approval: "ask"}, Cwd: h.dir})
	}()
	defer func() {
		cancel()
		<-done
		h.Close()
	}()
	unstuck := false
	defer func() {
		if !unstuck {
			close(rec.gate)
		}
	}()
	if !tt.WaitFor("Ask anything", 5*time.Second) {
		t.Fatalf("no first frame:\n%s", tt.Screen())
	}

	tt.Type("hello", term.KeyEnter)
	deadline := time.Now().Add(5 * time.Second)
	for !rec.isBlocked() {
		if time.Now().After(deadline) {
			t.Fatal("the prompt never reached the store")
		}
		time.Sleep(time.Millisecond)
	}
	steps := []struct{ typed, shown string }{
		{"/model other", "switching to other…"},
		{"/export " + filepath.Join(t.TempDir(), "x.jsonl"), ""},
		{"/sessions", "Sessions, newest first"},
	}
	for _, step := range steps {
		before := tt.Frames()
		tt.Type(step.typed, term.KeyEnter)
		if step.shown != "" && !tt.WaitFor(step.shown, 5*time.Second) {
			t.Fatalf("after %q the screen does not show %q:\n%s", step.typed, step.shown, tt.Screen())
		}
		if tt.Frames() == before && !tt.WaitFor("›", time.Second) {
			t.Fatalf("no frame after %q", step.typed)
		}
		// Keys still reach the screen while the store is stuck.
		tt.Send(term.KeyEvent{Key: term.KeyEscape}) // close an overlay, leave the pager
		tt.Type("q")
		typed := "still typing " + strings.Fields(step.typed)[0][1:]
		tt.Type(typed)
		if !tt.WaitFor(typed, 5*time.Second) {
			t.Fatalf("typed text did not appear while the store was stuck:\n%s", tt.Screen())
		}
		for range len(typed) + 1 {
			tt.Send(term.KeyEvent{Key: term.KeyBackspace})
		}
	}

	// The store answers again: the prompt is recorded and answered, and
	// the switch finishes.
	close(rec.gate)
	unstuck = true
	if !tt.WaitFor("other · sandbox:off", 10*time.Second) {
		t.Fatalf("the switch never finished:\n%s", tt.Screen())
	}
}

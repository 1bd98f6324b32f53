package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm/chat"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/tools"
)

func TestPendingSessionQueuesInputAndDeliversOlderHistory(t *testing.T) {
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{testserver.Text("first answer")}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	prior := recording()
	release := make(chan struct{})
	p := openPending(func() (*Opened, error) {
		<-release // the log is still being decoded
		s, err := engine.New(engine.Config{
			Model: "m", Sampler: chat.New(chat.Config{BaseURL: srv.URL()}),
			Tools: tools.NewRegistry(), Env: &tools.Env{Dir: t.TempDir()},
		})
		if err != nil {
			return nil, err
		}
		return &Opened{Session: s, Prepared: &Prepared{Prior: prior}}, nil
	}, prior[5].Seq)
	defer p.Close()

	p.Submit("typed before the session was ready")
	close(release)

	select {
	case older := <-p.Older():
		if len(older) != 5 || older[4].Seq != prior[4].Seq {
			t.Fatalf("older history: %d events, want the 5 before seq %d", len(older), prior[5].Seq)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the older history never arrived")
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case e := <-p.Events():
			if e.Kind == event.UserMessage && e.Text != "typed before the session was ready" {
				t.Fatalf("the queued prompt arrived as %q", e.Text)
			}
			if e.Kind == event.TurnEnded {
				return
			}
		case <-deadline:
			t.Fatal("the queued prompt never ran")
		}
	}
}

func TestResumeFirstScreenReadsOnlyTheTail(t *testing.T) {
	st, err := store.Open(t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	id := store.NewID(t0)
	w, err := st.Create(id, dir)
	if err != nil {
		t.Fatal(err)
	}
	seq := uint64(0)
	rec := func(e event.Event) {
		seq++
		e.V, e.Seq, e.Time = event.SchemaVersion, seq, t0.Add(time.Duration(seq)*time.Second)
		if err := w.Record(e, e.Kind == event.UserMessage); err != nil {
			t.Fatal(err)
		}
	}
	rec(event.Event{Kind: event.SessionStarted, Session: &event.SessionInfo{ID: id, Cwd: dir, Model: "m"}})
	for turn := 1; turn <= 50; turn++ {
		rec(event.Event{Kind: event.UserMessage, Turn: turn, Text: fmt.Sprintf("prompt %d", turn)})
		rec(event.Event{Kind: event.TurnStarted, Turn: turn})
		rec(event.Event{Kind: event.AssistantMessage, Turn: turn, Text: fmt.Sprintf("answer %d", turn)})
		rec(event.Event{Kind: event.TurnEnded, Turn: turn, End: &event.TurnEnd{State: event.TurnCompleted}})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	t.Setenv("QUIRE_HOME", st.Root())
	cfg := &config.Config{Model: "m", BaseURL: "http://127.0.0.1:1/v1", Approval: "ask", Sandbox: "off", ContextWindow: 1000, RetentionDays: 30}
	p, err := prepare(Options{Config: cfg, Cwd: dir, Resume: id}, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.Prior != nil {
		t.Fatal("the whole log was decoded before the first screen")
	}
	prompts := 0
	for _, e := range p.Tail {
		if e.Kind == event.UserMessage {
			prompts++
		}
	}
	if prompts != firstScreenTurns || p.Tail[len(p.Tail)-1].Seq != seq {
		t.Fatalf("the first screen holds %d prompts ending at seq %d, want the latest %d ending at %d",
			prompts, p.Tail[len(p.Tail)-1].Seq, firstScreenTurns, seq)
	}
	s, err := p.open()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(s.Prior) != int(seq) {
		t.Fatalf("the engine was given %d events, want all %d", len(s.Prior), seq)
	}
	if got := len(engine.HistoryFromEvents(s.Prior)); got < 100 {
		t.Fatalf("the rebuilt history has %d messages, want every turn", got)
	}
}

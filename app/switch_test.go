package app

import (
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/provider"
)

// waitTurn reads a session's events until its turn ends.
func waitTurn(t *testing.T, s *engine.Session) event.TurnEnd {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case e := <-s.Events():
			if e.Kind == event.TurnEnded {
				return *e.End
			}
		case <-deadline:
			t.Fatal("the turn did not end")
		}
	}
}

// /model PROVIDER/MODEL continues the stored session on another
// provider: the history goes along (calls and results converted), the
// reasoning the new protocol cannot take is named in the notice, and the
// session log keeps one history for both.
func TestModelSwitchesProvider(t *testing.T) {
	t.Setenv("QUIRE_HOME", t.TempDir())
	t.Setenv("ANTHROPIC_API_KEY", "a")
	t.Setenv("OPENAI_API_KEY", "o")
	t.Setenv("GROQ_API_KEY", "")
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
		{Reasoning: []string{"List it."}, ToolCalls: []testserver.ToolCall{{ID: "toolu_1", Name: "list_dir", Arguments: `{"path":"."}`}}},
		{Reasoning: []string{"Empty."}, Text: []string{"Nothing here."}},
		{Text: []string{"Still nothing."}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cfg := &Config{Model: "anthropic/claude-sonnet-4-6", Sandbox: "off", Approval: "yolo", ContextWindow: 128000,
		Source:    map[string]string{"context_window": "default"},
		Providers: map[string]provider.Config{"anthropic": {BaseURL: srv.Root()}, "openai": {BaseURL: srv.URL()}}}
	opt := SessionOptions{Config: cfg, Version: "test", Cwd: t.TempDir()}
	first, err := OpenSession(opt)
	if err != nil {
		t.Fatal(err)
	}
	sw := &sessionSwitcher{opt: opt, cur: first}
	defer sw.close()
	first.Submit("what is here?")
	if end := waitTurn(t, first.Session); end.State != event.TurnCompleted || end.ContextWindow != 200_000 || end.Cost == nil {
		t.Fatalf("first turn %+v", end)
	}

	res, err := sw.slash(SlashInvocation{Name: "model", Args: []string{"openai/gpt-5"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "model: openai/gpt-5; reasoning of 2 earlier anthropic claude-sonnet-4-6 answers is not sent to openai/gpt-5: it cannot read it"
	if res.Notice != want || res.Session == nil {
		t.Fatalf("notice %q", res.Notice)
	}
	next := sw.cur
	next.Submit("and now?")
	if end := waitTurn(t, next.Session); end.State != event.TurnCompleted || end.ContextWindow != 400_000 {
		t.Fatalf("turn after the switch %+v", end)
	}
	last := srv.Requests()[2]
	if last.Protocol != "responses" || len(last.Messages) != 6 || last.Messages[2].ToolCalls[0].ID != "toolu_1" || last.Messages[3].ToolCallID != "toolu_1" {
		t.Fatalf("the history did not go along: %+v", last.Messages)
	}
	// Both providers' turns are in the one log, and /model names the
	// current one.
	if res, _ := sw.slash(SlashInvocation{Name: "model"}); !strings.HasPrefix(res.Notice, "model: openai/gpt-5 ") {
		t.Fatalf("/model: %q", res.Notice)
	}
	evs, err := next.Writer.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var providers []string
	for _, e := range evs {
		if e.Kind == event.SessionStarted {
			providers = append(providers, e.Session.Provider)
		}
	}
	if strings.Join(providers, ",") != "anthropic,openai" {
		t.Fatalf("session starts %v", providers)
	}

	// An unusable provider is refused and the session stays.
	if _, err := sw.slash(SlashInvocation{Name: "model", Args: []string{"groq/x"}}); err == nil || !strings.Contains(err.Error(), "set GROQ_API_KEY") || sw.cur != next {
		t.Fatalf("groq without a key: %v", err)
	}
}

// A resumed session goes on with the provider and model it last used,
// unless the configuration names one.
func TestResumeKeepsTheSessionsModel(t *testing.T) {
	t.Setenv("QUIRE_HOME", t.TempDir())
	t.Setenv("ANTHROPIC_API_KEY", "a")
	t.Setenv("OPENAI_API_KEY", "")
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{testserver.Text("one"), testserver.Text("two")}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	providers := map[string]provider.Config{"anthropic": {BaseURL: srv.Root()}, "openai": {BaseURL: srv.URL()}}
	named := &Config{Model: "anthropic/claude-sonnet-4-6", Sandbox: "off", Approval: "yolo", ContextWindow: 128000, Providers: providers,
		Source: map[string]string{"model": "flag --model", "provider": "default", "context_window": "default"}}
	cwd := t.TempDir()
	s, err := OpenSession(SessionOptions{Config: named, Version: "test", Cwd: cwd})
	if err != nil {
		t.Fatal(err)
	}
	s.Submit("hi")
	waitTurn(t, s.Session)
	s.Close()

	// Nothing named: the session's own provider, though the default one
	// (openai) has no key here.
	plain := &Config{Sandbox: "off", Approval: "yolo", ContextWindow: 128000, Providers: providers,
		Source: map[string]string{"model": "default", "provider": "default", "context_window": "default"}}
	s, err = OpenSession(SessionOptions{Config: plain, Version: "test", Cwd: cwd, Continue: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Provider.Label(); got != "anthropic/claude-sonnet-4-6" {
		t.Fatalf("resumed on %s", got)
	}
	s.Close()

	// A named model wins, and a missing key says so without touching the log.
	named.Model = "openai/gpt-5"
	if _, err := OpenSession(SessionOptions{Config: named, Version: "test", Cwd: cwd, Continue: true}); err == nil || !strings.Contains(err.Error(), "set OPENAI_API_KEY") {
		t.Fatalf("named model without its key: %v", err)
	}
}

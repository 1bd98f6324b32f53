package session

import (
	"context"
	"strings"
	"testing"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/provider"
)

// /model PROVIDER/MODEL continues the stored session on another
// provider: the history goes along (calls and results converted), the
// reasoning the new protocol cannot take is named in the notice, and the
// session log keeps one history for both.
func TestModelSwitchesProvider(t *testing.T) {
	t.Setenv("QUIRE_HOME", t.TempDir())
	t.Setenv("ANTHROPIC_API_KEY", "a")
	t.Setenv("OPENAI_API_KEY", "o")
	t.Setenv("GROQ_API_KEY", "")
	srv := startServer(t,
		testserver.Response{Reasoning: []string{"List it."}, ToolCalls: []testserver.ToolCall{{ID: "toolu_1", Name: "list_dir", Arguments: `{"path":"."}`}}},
		testserver.Response{Reasoning: []string{"Empty."}, Text: []string{"Nothing here."}},
		testserver.Response{Text: []string{"Still nothing."}},
		testserver.Response{Text: []string{"Yes."}},
	)
	cfg := &config.Config{Model: "anthropic/claude-sonnet-4-6", Sandbox: "off", Approval: "yolo", ContextWindow: 128000, RetentionDays: 30,
		Source:    map[string]string{"context_window": "default"},
		Providers: map[string]provider.Config{"anthropic": {BaseURL: srv.Root()}, "openai": {BaseURL: srv.URL()}}}
	h, err := Open(Options{Config: cfg, Version: "test", Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Submit("what is here?")
	if end := until(t, h.Events(), event.TurnEnded).End; end.State != event.TurnCompleted || end.ContextWindow != 200_000 || end.Cost == nil {
		t.Fatalf("first turn %+v", end)
	}

	sw, err := h.SwitchModel(context.Background(), "openai/gpt-5")
	if err != nil {
		t.Fatal(err)
	}
	want := "model: openai/gpt-5; reasoning of 2 earlier anthropic claude-sonnet-4-6 answers is not sent to openai/gpt-5: it cannot read it"
	if sw.Notice != want {
		t.Fatalf("notice %q", sw.Notice)
	}
	h.Submit("and now?")
	if end := until(t, h.Events(), event.TurnEnded).End; end.State != event.TurnCompleted || end.ContextWindow != 400_000 {
		t.Fatalf("turn after the switch %+v", end)
	}
	last := srv.Requests()[2]
	if last.Protocol != "responses" || len(last.Messages) != 6 || last.Messages[2].ToolCalls[0].ID != "toolu_1" || last.Messages[3].ToolCallID != "toolu_1" {
		t.Fatalf("the history did not go along: %+v", last.Messages)
	}
	// Both providers' turns are in the one log.
	cur, err := h.current(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	evs, err := cur.Writer.ReadAll()
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
	if _, err := h.SwitchModel(context.Background(), "groq/x"); err == nil || !strings.Contains(err.Error(), "set GROQ_API_KEY") {
		t.Fatalf("groq without a key: %v", err)
	}
	h.Submit("still there?")
	if end := until(t, h.Events(), event.TurnEnded).End; end.State != event.TurnCompleted {
		t.Fatalf("the session did not stay after a refused switch: %+v", end)
	}
}

// A resumed session goes on with the provider and model it last used,
// unless the configuration names one.
func TestResumeKeepsTheSessionsModel(t *testing.T) {
	t.Setenv("QUIRE_HOME", t.TempDir())
	t.Setenv("ANTHROPIC_API_KEY", "a")
	t.Setenv("OPENAI_API_KEY", "")
	srv := startServer(t, testserver.Text("one"), testserver.Text("two"))
	providers := map[string]provider.Config{"anthropic": {BaseURL: srv.Root()}, "openai": {BaseURL: srv.URL()}}
	named := &config.Config{Model: "anthropic/claude-sonnet-4-6", Sandbox: "off", Approval: "yolo", ContextWindow: 128000, RetentionDays: 30, Providers: providers,
		Source: map[string]string{"model": "flag --model", "provider": "default", "context_window": "default"}}
	cwd := t.TempDir()
	h, err := Open(Options{Config: named, Version: "test", Cwd: cwd})
	if err != nil {
		t.Fatal(err)
	}
	h.Submit("hi")
	until(t, h.Events(), event.TurnEnded)
	h.Close()

	// Nothing named: the session's own provider, though the default one
	// (openai) has no key here.
	plain := &config.Config{Sandbox: "off", Approval: "yolo", ContextWindow: 128000, RetentionDays: 30, Providers: providers,
		Source: map[string]string{"model": "default", "provider": "default", "context_window": "default"}}
	h, err = Open(Options{Config: plain, Version: "test", Cwd: cwd, Continue: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.AppOptions().Status.Model; got != "anthropic/claude-sonnet-4-6" {
		t.Fatalf("resumed on %s", got)
	}
	h.Close()

	// A named model wins, and a missing key says so without touching the log.
	named.Model = "openai/gpt-5"
	if _, err := Open(Options{Config: named, Version: "test", Cwd: cwd, Continue: true}); err == nil || !strings.Contains(err.Error(), "set OPENAI_API_KEY") {
		t.Fatalf("named model without its key: %v", err)
	}
}

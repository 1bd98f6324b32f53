package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/sandbox"
	"github.com/quire-sh/quire/tools"
)

// servedBy points the presets at a scripted server: each speaks its own
// protocol on its own route of the same server.
func servedBy(srv *testserver.Server) Settings {
	return Settings{
		Getenv: env("ANTHROPIC_API_KEY", "a", "OPENAI_API_KEY", "o", "GROQ_API_KEY", "g"),
		Providers: map[string]Config{
			"anthropic": {BaseURL: srv.Root()},
			"openai":    {BaseURL: srv.URL()},
			"groq":      {BaseURL: srv.URL()},
		},
	}
}

// engineConfig wires a resolved provider into an engine configuration the
// way the app does, with the built-in tools in dir.
func engineConfig(t *testing.T, s Settings, model, dir string) (engine.Config, Resolved) {
	t.Helper()
	s.Model = model
	r, err := Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	profile, err := sandbox.ProfileByName(sandbox.Off, dir)
	if err != nil {
		t.Fatal(err)
	}
	env, err := tools.NewEnv(dir, profile)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Config{
		Model: r.Model.ID, Provider: r.Name, Sampler: r.Sampler(llm.TransportConfig{}), ContextWindow: r.ContextWindow(),
		Cost: r.Model.Cost, Tools: tools.NewRegistry(tools.Builtin()...), Env: env, Version: "test", SessionID: "s1",
		CompactDelay: time.Millisecond,
	}, r
}

// turn submits a prompt and returns the events up to its end.
func turn(t *testing.T, s *engine.Session, prompt string) []event.Event {
	t.Helper()
	s.Submit(prompt)
	return until(t, s, event.TurnEnded)
}

// until returns the session's events up to the first of kind.
func until(t *testing.T, s *engine.Session, kind event.Kind) []event.Event {
	t.Helper()
	var evs []event.Event
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e := <-s.Events():
			evs = append(evs, e)
			if e.Kind == kind {
				return evs
			}
		case <-timeout:
			t.Fatalf("the turn did not end; events so far: %+v", evs)
		}
	}
}

func closeSession(s *engine.Session) []event.Event {
	var rest []event.Event
	go s.Close()
	for e := range s.Events() {
		rest = append(rest, e)
	}
	return rest
}

// A session starts on Anthropic with a two-tool turn with thinking,
// continues on OpenAI's Responses API after a switch (tool calls and
// results converted, the thinking left behind and said so), and comes
// back to the Anthropic model, whose signed thinking it sends again.
func TestSessionContinuesOnAnotherProvider(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("beta\n"), 0o644)
	usage := &testserver.Usage{PromptTokens: 2000, CompletionTokens: 100, CacheReadTokens: 1500}
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
		{Reasoning: []string{"Read ", "both files."}, Text: []string{"Reading."}, ToolCalls: []testserver.ToolCall{
			{ID: "toolu_a", Name: "read_file", Arguments: `{"path":"a.txt"}`},
			{ID: "toolu_b", Name: "read_file", Arguments: `{"path":"b.txt"}`, Split: 2},
		}, Usage: usage},
		{Reasoning: []string{"Done."}, Text: []string{"alpha and beta."}, Usage: usage},
		{Reasoning: []string{"Recheck a."}, ToolCalls: []testserver.ToolCall{{ID: "call_c", Name: "read_file", Arguments: `{"path":"missing.txt"}`}}, Usage: usage},
		{Text: []string{"Still alpha."}, Usage: usage},
		{Text: []string{"Back on Claude."}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	settings := servedBy(srv)

	cfg, claude := engineConfig(t, settings, "anthropic/claude-sonnet-4-6", dir)
	s, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	evs := turn(t, s, "compare a.txt and b.txt")
	end := evs[len(evs)-1].End
	if end.State != event.TurnCompleted || end.Cost == nil || end.ContextWindow != 200_000 {
		t.Fatalf("turn on anthropic ended %+v", end)
	}
	if want, _ := claude.Model.Cost(end.Usage); *end.Cost != want || want == 0 {
		t.Fatalf("cost %v, want %v", *end.Cost, want)
	}
	prior := append(evs, closeSession(s)...)
	var started *event.SessionInfo
	for _, e := range prior {
		if e.Kind == event.SessionStarted {
			started = e.Session
		}
	}
	if started == nil || started.Provider != "anthropic" || started.Model != "claude-sonnet-4-6" {
		t.Fatalf("session started %+v", started)
	}

	// /model openai/gpt-5: the same log, resumed with another provider.
	cfg, gpt := engineConfig(t, settings, "openai/gpt-5", dir)
	notice := gpt.ReasoningNotice(engine.ReasoningStates(engine.HistoryFromEvents(prior)))
	if notice != "reasoning of 2 earlier anthropic claude-sonnet-4-6 answers is not sent to openai/gpt-5: it cannot read it" {
		t.Fatalf("notice %q", notice)
	}
	s, err = engine.Resume(cfg, prior)
	if err != nil {
		t.Fatal(err)
	}
	evs = turn(t, s, "check a.txt again")
	if end := evs[len(evs)-1].End; end.State != event.TurnCompleted || end.Cost == nil || end.ContextWindow != 400_000 {
		t.Fatalf("turn on responses ended %+v", end)
	}
	reqs := srv.Requests()
	first := reqs[2]
	if first.Protocol != "responses" {
		t.Fatalf("request 3 went to %s", first.Protocol)
	}
	var calls, results int
	for _, m := range first.Messages {
		calls += len(m.ToolCalls)
		if m.Role == "tool" {
			results++
		}
		if m.ReasoningContent != "" {
			t.Errorf("anthropic thinking reached the Responses API: %+v", m)
		}
	}
	if calls != 2 || results != 2 {
		t.Fatalf("the earlier turn's calls did not convert: %+v", first.Messages)
	}
	if second := reqs[3]; !strings.Contains(strings.Join(reasoningOf(second), "|"), "Recheck a.") {
		t.Fatalf("the Responses reasoning was not carried to the next request: %+v", second.Messages)
	}
	prior = append(prior, append(evs, closeSession(s)...)...)

	// Back to Claude: its own signed thinking goes again (the server
	// checks the signatures), the Responses reasoning does not.
	cfg, claude = engineConfig(t, settings, "anthropic/claude-sonnet-4-6", dir)
	if got := claude.ReasoningNotice(engine.ReasoningStates(engine.HistoryFromEvents(prior))); !strings.Contains(got, "1 earlier responses gpt-5 answer") {
		t.Fatalf("notice back %q", got)
	}
	s, err = engine.Resume(cfg, prior)
	if err != nil {
		t.Fatal(err)
	}
	evs = turn(t, s, "thanks")
	closeSession(s)
	if end := evs[len(evs)-1].End; end.State != event.TurnCompleted {
		t.Fatalf("back on anthropic: %+v", end)
	}
	last := srv.Requests()[4]
	if got := strings.Join(reasoningOf(last), "|"); got != "Read both files.|Done." {
		t.Fatalf("thinking sent back: %q", got)
	}
	// The failed read is flagged as an error, the others are not.
	if n := strings.Count(string(last.Body), `"is_error":true`); n != 1 {
		t.Fatalf("%d results flagged is_error, want 1: %s", n, last.Body)
	}
}

func reasoningOf(r testserver.Request) []string {
	var out []string
	for _, m := range r.Messages {
		if m.ReasoningContent != "" {
			out = append(out, m.ReasoningContent)
		}
	}
	return out
}

// The compactor summarises through every protocol, and the next request
// starts from its summary.
func TestCompactionOnEachProtocol(t *testing.T) {
	summary := strings.Repeat("The user asked about a.txt; it says alpha. ", 20)
	for _, model := range []string{"anthropic/claude-sonnet-4-6", "openai/gpt-5", "groq/qwen/qwen3-32b"} {
		t.Run(model, func(t *testing.T) {
			srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
				testserver.Text("It says alpha."),
				{Reasoning: []string{"Summarise."}, Text: testserver.Words(summary)},
				testserver.Text("Yes."),
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			cfg, _ := engineConfig(t, servedBy(srv), model, t.TempDir())
			s, err := engine.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer closeSession(s)
			turn(t, s, "what does a.txt say?")
			s.Compact("")
			evs := until(t, s, event.Compacted)
			if c := evs[len(evs)-1]; c.Kind != event.Compacted || !strings.Contains(c.Compaction.Summary, "alpha") {
				t.Fatalf("compaction: %+v", c)
			}
			turn(t, s, "still alpha?")
			reqs := srv.Requests()
			if len(reqs) != 3 || !strings.Contains(reqs[2].Messages[len(reqs[2].Messages)-1].Content, "still alpha?") {
				t.Fatalf("%d requests", len(reqs))
			}
			found := false
			for _, m := range reqs[2].Messages {
				found = found || strings.Contains(m.Content, "<summary>")
			}
			if !found {
				t.Fatalf("the summary did not reach the next request: %s", reqs[2].Body)
			}
		})
	}
}

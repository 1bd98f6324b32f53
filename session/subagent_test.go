package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/provider"
)

func writeAgent(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A project's agent definition runs its child on the model it names (here
// another provider's), the child is a session of its own in the store
// linked to its parent, and a malformed definition is one warning.
func TestSubagentRunsOnItsAgentsModelAndIsStored(t *testing.T) {
	t.Setenv("QUIRE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("ANTHROPIC_API_KEY", "a")
	cwd := t.TempDir()
	writeAgent(t, filepath.Join(cwd, ".quire", "agents"), "reviewer.md",
		"---\ndescription: Reviews code.\nmodel: anthropic/claude-sonnet-4-6\ntools: [read_file]\n---\nYou review code and report problems.\n")
	writeAgent(t, filepath.Join(cwd, ".quire", "agents"), "broken.md", "no frontmatter")
	srv, err := testserver.Start(testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		child := strings.Contains(req.Messages[0].Content, "You are a subagent")
		var results int
		for _, m := range req.Messages {
			if m.Role == "tool" {
				results++
			}
		}
		switch {
		case child:
			return testserver.Text("no problems found")
		case results == 0:
			return testserver.Response{ToolCalls: []testserver.ToolCall{{ID: "t1", Name: "task",
				Arguments: `{"description":"Review main.go","prompt":"review main.go","agent":"reviewer"}`}}}
		}
		return testserver.Text("the reviewer is happy")
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cfg := &config.Config{Model: "m", BaseURL: srv.URL(), APIKey: "k", Approval: "ask", Sandbox: "off", ContextWindow: 100000, RetentionDays: 30,
		Source: map[string]string{"context_window": "default"}, Providers: map[string]provider.Config{"anthropic": {BaseURL: srv.Root()}}}
	h, err := Open(Options{Config: cfg, Version: "test", Cwd: cwd})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	warn := until(t, h.Events(), event.Notice)
	if warn.Level != "warn" || !strings.Contains(warn.Text, "broken.md: it has no frontmatter") {
		t.Fatalf("notice %+v", warn)
	}
	h.Submit("review main.go")
	end := until(t, h.Events(), event.TurnEnded).End
	if end.State != event.TurnCompleted {
		t.Fatalf("turn %+v", end)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[1].Protocol != "anthropic" || reqs[1].Model != "claude-sonnet-4-6" {
		t.Fatalf("the child did not talk to its agent's model: %d requests, second %s %s", len(reqs), reqs[1].Protocol, reqs[1].Model)
	}
	if !strings.Contains(reqs[1].Messages[0].Content, "You review code and report problems.") {
		t.Fatalf("the child's system prompt lacks its instructions:\n%s", reqs[1].Messages[0].Content)
	}
	var tools []string
	for _, tl := range reqs[1].Tools {
		tools = append(tools, tl.Function.Name)
	}
	if strings.Join(tools, ",") != "read_file" {
		t.Fatalf("the child was offered %v", tools)
	}
	var last *testserver.Message
	for i := range reqs[2].Messages {
		if reqs[2].Messages[i].Role == "tool" {
			last = &reqs[2].Messages[i]
		}
	}
	if last == nil || last.Content != "no problems found" {
		t.Fatalf("the parent got %+v", last)
	}
	st, err := store.Open(config.StateDir(os.Getenv), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := st.List(context.Background(), store.ListOptions{})
	if err != nil || len(l.Sessions) != 2 {
		t.Fatalf("listing %+v %v", l, err)
	}
	var parent, child store.Summary
	for _, s := range l.Sessions {
		if s.Parent != "" {
			child = s
		} else {
			parent = s
		}
	}
	if child.Parent != parent.ID || child.ParentCall != "t1" || child.Agent != "reviewer" || child.Title != "Review main.go" || child.Model != "claude-sonnet-4-6" {
		t.Fatalf("child summary %+v (parent %s)", child, parent.ID)
	}
	// The in-app /sessions lists conversations only.
	list, err := h.Sessions(context.Background())
	if err != nil || len(list) != 1 || list[0].ID != parent.ID {
		t.Fatalf("/sessions %+v %v", list, err)
	}
}

func TestSpawnerPlan(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("ANTHROPIC_API_KEY", "")
	cwd := t.TempDir()
	writeAgent(t, filepath.Join(cwd, ".quire", "agents"), "explorer.md", "---\ndescription: Finds things.\ntools: [grep, glob]\n---\nExplore.")
	writeAgent(t, filepath.Join(cwd, ".quire", "agents"), "costly.md", "---\ndescription: Thinks hard.\nmodel: anthropic/claude-opus-4-1\n---\n")
	cfg := &config.Config{Model: "m", BaseURL: "http://127.0.0.1:1/v1", APIKey: "k", ContextWindow: 1000}
	sp := newSpawner(cfg, nil, cwd, os.Getenv)
	if got := sp.Agents(); len(got) != 2 || got[1] != (engine.Agent{Name: "explorer", Description: "Finds things."}) {
		t.Fatalf("agents %+v", got)
	}
	parent := engine.TaskRequest{ParentModel: "m", ParentProvider: provider.Compatible}
	c, err := sp.Plan(withAgent(parent, "explorer", nil))
	if err != nil || c.Agent != "explorer" || c.Instructions != "Explore." || strings.Join(c.Tools, ",") != "grep,glob" || c.Sampler != nil {
		t.Fatalf("explorer %+v %v", c, err)
	}
	c, err = sp.Plan(withAgent(parent, "explorer", []string{"read_file"}))
	if err != nil || strings.Join(c.Tools, ",") != "read_file" {
		t.Fatalf("explicit tools over the agent's: %+v %v", c, err)
	}
	if c, err := sp.Plan(parent); err != nil || c.Tools != nil || c.Agent != "" {
		t.Fatalf("no agent: %+v %v", c, err)
	}
	if _, err := sp.Plan(withAgent(parent, "nobody", nil)); err == nil || !strings.Contains(err.Error(), `there is no agent named "nobody"; the agents are: costly, explorer`) {
		t.Fatalf("unknown agent: %v", err)
	}
	if _, err := sp.Plan(withAgent(parent, "costly", nil)); err == nil || !strings.Contains(err.Error(), "the subagent's model anthropic/claude-opus-4-1 cannot be used") || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Fatalf("a model without its key: %v", err)
	}
	same := parent
	same.Model = "m"
	if c, err := sp.Plan(same); err != nil || c.Sampler != nil {
		t.Fatalf("the parent's own model named: %+v %v", c, err)
	}
}

// An agent that builds on a persona gets the persona's instructions
// before its own and the persona's fields where the role gives none; a
// persona that cannot be read stops the spawn, and an edit to it applies
// to the next one.
func TestSpawnerPlanWithAPersona(t *testing.T) {
	cfgHome := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfgHome)
	cwd := t.TempDir()
	agentsDir := filepath.Join(cwd, ".quire", "agents")
	writeAgent(t, agentsDir, "reviewer.md", "---\ndescription: Reviews.\npersona: careful\n---\nReview the diff.")
	writeAgent(t, agentsDir, "hasty.md", "---\ndescription: Hurries.\npersona: absent\n---\n")
	writeAgent(t, filepath.Join(cfgHome, "quire", "personas"), "careful.md", "---\ntools: [read_file, grep]\n---\nCheck twice.")
	cfg := &config.Config{Model: "m", BaseURL: "http://127.0.0.1:1/v1", APIKey: "k", ContextWindow: 1000}
	sp := newSpawner(cfg, nil, cwd, os.Getenv)
	parent := engine.TaskRequest{ParentModel: "m", ParentProvider: provider.Compatible}
	c, err := sp.Plan(withAgent(parent, "reviewer", nil))
	if err != nil || c.Instructions != "Check twice.\n\nReview the diff." || strings.Join(c.Tools, ",") != "read_file,grep" {
		t.Fatalf("reviewer: %+v %v", c, err)
	}
	if c, err := sp.Plan(withAgent(parent, "reviewer", []string{"glob"})); err != nil || strings.Join(c.Tools, ",") != "glob" {
		t.Fatalf("explicit tools over the persona's: %+v %v", c, err)
	}
	_, err = sp.Plan(withAgent(parent, "hasty", nil))
	if err == nil || !strings.Contains(err.Error(), `the agent "hasty" cannot start: the persona "absent" cannot be found`) {
		t.Fatalf("a missing persona: %v", err)
	}
	writeAgent(t, filepath.Join(cfgHome, "quire", "personas"), "careful.md", "---\ntools: [a/b]\n---\nx")
	if _, err := sp.Plan(withAgent(parent, "reviewer", nil)); err == nil || !strings.Contains(err.Error(), "careful.md: line 2") {
		t.Fatalf("a persona broken since the session started: %v", err)
	}
}

func withAgent(r engine.TaskRequest, agent string, tools []string) engine.TaskRequest {
	r.Agent, r.Tools = agent, tools
	return r
}

// A subagent's edit is part of its parent's turn: /rewind of that turn
// puts the file back.
func TestRewindRestoresASubagentsWrite(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cwd := t.TempDir()
	notes := filepath.Join(cwd, "notes.txt")
	if err := os.WriteFile(notes, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeAgent(t, filepath.Join(cwd, ".quire", "agents"), "writer.md", "---\ndescription: Writes.\ntools: [write_file]\n---\n")
	srv, err := testserver.Start(testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		child := strings.Contains(req.Messages[0].Content, "You are a subagent")
		last := req.LastMessage()
		switch {
		case child && last.Role == "user":
			return testserver.Call("w1", "write_file", `{"path":"notes.txt","content":"after\n"}`)
		case child:
			return testserver.Text("wrote notes.txt")
		case last.Role == "user" && last.Content == "hello":
			return testserver.Text("hi")
		case last.Role == "user":
			return testserver.Response{ToolCalls: []testserver.ToolCall{{ID: "t1", Name: "task",
				Arguments: `{"description":"Write notes","prompt":"write after into notes.txt","agent":"writer"}`}}}
		}
		return testserver.Text("done")
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h, err := Open(Options{Config: testConfig(t, srv, "yolo"), Version: "test", Cwd: cwd})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// The task runs in the parent's turn 2, its child's own turn 1.
	h.Submit("hello")
	until(t, h.Events(), event.TurnEnded)
	h.Submit("write the notes")
	if end := until(t, h.Events(), event.TurnEnded).End; end.State != event.TurnCompleted {
		t.Fatalf("turn %+v", end)
	}
	if b, _ := os.ReadFile(notes); string(b) != "after\n" {
		t.Fatalf("the subagent did not write: %q", b)
	}
	if _, err := h.Rewind(context.Background(), 2, "files"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(notes); string(b) != "before\n" {
		t.Fatalf("/rewind left %q", b)
	}
}

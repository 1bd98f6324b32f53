package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/ext/mcp/mcptest"
	"github.com/quire-sh/quire/provider"
	"github.com/quire-sh/quire/sandbox"
	"github.com/quire-sh/quire/tools"
	"github.com/quire-sh/quire/trust"
)

const projectMCP = `{"mcpServers": {"fromrepo": {"command": "quire-test-no-such-server", "args": ["--serve"]}}}`

// mcpProject is a directory with a .mcp.json.
func mcpProject(t *testing.T, content string) string {
	t.Helper()
	dir := project(t, "", "")
	if err := os.WriteFile(filepath.Join(dir, mcp.ProjectFile), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// waitMCP waits until the handle's servers are no longer starting.
func waitMCP(t *testing.T, h *Handle) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m := h.manager()
	if m == nil {
		t.Fatal("the handle runs no MCP manager")
	}
	if err := m.Wait(ctx); err != nil {
		t.Fatalf("the MCP servers did not settle: %v", err)
	}
}

// A project's .mcp.json is one of the project's files: until the user
// trusted its content none of its servers starts and the session says
// so in the same notice as the others; the one trust question lists its
// servers with what each runs, and a yes starts them at once. Changed
// content is asked about again.
func TestProjectMCPNeedsTrust(t *testing.T) {
	srv := startServer(t)
	cfg := testConfig(t, srv, "ask")
	dir := mcpProject(t, projectMCP)

	h := openHandle(t, Options{Config: cfg, Cwd: dir, NoStore: true})
	n := until(t, h.Events(), event.Notice)
	if !strings.Contains(n.Text, "ignored this project's .mcp.json: not trusted yet") || !strings.Contains(n.Text, "quire trust") {
		t.Errorf("notice %q", n.Text)
	}
	if st := h.manager().Status(); len(st) != 0 {
		t.Errorf("an untrusted file's servers: %+v", st)
	}

	h = openHandle(t, Options{Config: cfg, Cwd: dir, NoStore: true, AskTrust: true})
	q := h.TrustQuestion()
	if q == nil || len(q.Files) != 1 || q.Files[0].Name != ".mcp.json" || !strings.Contains(q.Files[0].What, "MCP servers") ||
		!slices.Equal(q.Files[0].Summary, []string{"fromrepo: quire-test-no-such-server --serve"}) {
		t.Fatalf("question %+v", q)
	}
	if st := h.manager().Status(); len(st) != 0 {
		t.Errorf("servers started before the answer: %+v", st)
	}
	if _, err := h.AnswerTrust(context.Background(), app.TrustYes); err != nil {
		t.Fatal(err)
	}
	if d := decision(t, dir, ".mcp.json"); d != trust.Trusted {
		t.Errorf(".mcp.json is %q", d)
	}
	waitMCP(t, h)
	st := h.manager().Status()
	if len(st) != 1 || st[0].Name != "fromrepo" || st[0].Origin != ".mcp.json" || st[0].State != mcp.Failed || !strings.Contains(st[0].Error, "not found in PATH") {
		t.Fatalf("a trusted file's servers: %+v", st)
	}
	if s := h.ExtensionSummary(); s != "mcp 0/1 fromrepo failed" {
		t.Errorf("summary %q", s)
	}

	// Changed content is asked about again, and its servers wait for it.
	os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(strings.Replace(projectMCP, "fromrepo", "changed", 1)), 0o600)
	p := ScanProject(dir, TrustStore())
	if servers, notice := projectServers(&p); servers != nil || notice != "" {
		t.Errorf("changed file: %v, %q", servers, notice)
	}
	h = openHandle(t, Options{Config: cfg, Cwd: dir, NoStore: true, AskTrust: true})
	if q := h.TrustQuestion(); q == nil || q.Files[0].Before != "trusted" || q.Files[0].Summary[0] != "changed: quire-test-no-such-server --serve" {
		t.Fatalf("after a change: %+v", q)
	}
}

// A trusted .mcp.json that does not read is one notice, and no server
// of it starts.
func TestBrokenProjectMCP(t *testing.T) {
	srv := startServer(t)
	cfg := testConfig(t, srv, "ask")
	dir := mcpProject(t, `{"mcpServers": [`)
	if err := TrustStore().Decide(dir, ".mcp.json", []byte(`{"mcpServers": [`), trust.Trusted); err != nil {
		t.Fatal(err)
	}
	h := openHandle(t, Options{Config: cfg, Cwd: dir, NoStore: true})
	n := until(t, h.Events(), event.Notice)
	if n.Text != ".mcp.json is not valid JSON: syntax error at byte 16; its MCP servers are off" {
		t.Errorf("notice %q", n.Text)
	}
	if st := h.manager().Status(); len(st) != 0 {
		t.Errorf("servers %+v", st)
	}
}

// A wrong server in config.toml is one notice, and the session starts
// with the others.
func TestBadMCPConfigIsANotice(t *testing.T) {
	srv := startServer(t)
	cfg := testConfig(t, srv, "ask")
	var s mcp.Settings
	s.UnmarshalTOML(map[string]any{"servers": map[string]any{"typo": map[string]any{"comand": "x"}}})
	cfg.MCP = s
	h := openHandle(t, Options{Config: cfg, Cwd: t.TempDir(), NoStore: true})
	n := until(t, h.Events(), event.Notice)
	if n.Level != "warn" || !strings.HasPrefix(n.Text, "MCP server typo is off: [mcp.servers.typo]: ") || strings.Contains(n.Text, "\n") {
		t.Errorf("notice %+v", n)
	}
	lines, _, err := h.MCP(context.Background(), nil)
	if err != nil || !strings.Contains(strings.Join(lines, "\n"), "typo  off") {
		t.Errorf("/mcp: %q %v", lines, err)
	}
}

// everythingConfig configures the reference everything server over
// stdio, as `quire mcp add everything -- node …` would.
func everythingConfig(t *testing.T, srv *testserver.Server) (*Options, mcptest.Servers) {
	t.Helper()
	servers := mcptest.Need(t)
	cfg := testConfig(t, srv, "yolo")
	var s mcp.Settings
	s.UnmarshalTOML(map[string]any{"servers": map[string]any{"everything": map[string]any{
		"command": servers.Node, "args": []any{servers.Everything, "stdio"},
	}}})
	cfg.MCP = s
	return &Options{Config: cfg, Cwd: t.TempDir(), NoStore: true}, servers
}

// A server's prompts reach the app as commands of the one mechanism the
// custom commands use: a list sent on CommandUpdates, the custom
// commands first, each prompt marked with its server; running one sends
// the prompt's messages with the line typed. The tools the model is
// offered are the built-ins, load_skill and the server's, by their full
// names.
func TestMCPPromptsAreCommands(t *testing.T) {
	srv := startServer(t, testserver.Text("done"))
	opt, _ := everythingConfig(t, srv)
	os.MkdirAll(filepath.Join(opt.Cwd, ".quire", "commands"), 0o755)
	os.WriteFile(filepath.Join(opt.Cwd, ".quire", "commands", "review.md"), []byte("Review $ARGUMENTS.\n"), 0o644)
	h := openHandle(t, *opt)
	if got := h.AppOptions().Commands; len(got) != 1 || got[0].Name != "review" {
		t.Fatalf("the app starts with %+v", got)
	}
	waitMCP(t, h)
	var cmds []app.Command
	deadline := time.After(30 * time.Second)
	for len(cmds) < 2 {
		select {
		case cmds = <-h.CommandUpdates():
		case <-deadline:
			t.Fatalf("no list with the prompts; last %+v", cmds)
		}
	}
	if cmds[0].Name != "review" || cmds[0].Source != "project" {
		t.Errorf("the custom command is not first: %+v", cmds[0])
	}
	var prompt *app.Command
	for i, c := range cmds[1:] {
		if c.Source != "mcp everything" || !strings.HasPrefix(c.Name, "mcp__everything__") || c.Origin != "MCP server everything" {
			t.Errorf("prompt command %+v", c)
		}
		if c.Name == "mcp__everything__args-prompt" {
			prompt = &cmds[1+i]
		}
	}
	if prompt == nil || prompt.Args != "city state?" {
		t.Fatalf("no args-prompt, or not its arguments, among %+v", cmds)
	}
	text, err := prompt.Expand(context.Background(), "Paris")
	if err != nil || !strings.Contains(text, "Paris") {
		t.Fatalf("expand: %q %v", text, err)
	}
	h.SubmitCommand("/"+prompt.Name+" Paris", text)
	until(t, h.Events(), event.TurnEnded)
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].LastMessage().Content != text {
		t.Fatalf("requests %+v: want the prompt's text", reqs)
	}
	var names []string
	for _, tool := range reqs[0].Tools {
		names = append(names, tool.Function.Name)
	}
	for _, want := range []string{"shell", "load_skill", "mcp__everything__echo"} {
		if !slices.Contains(names, want) {
			t.Errorf("the request offers %v, without %s", names, want)
		}
	}
}

// A PreToolUse hook sees an MCP tool by the full name the model calls
// it by, mcp__SERVER__TOOL, and its matcher picks MCP tools by that name:
// the hook's refusal keeps the call from the server, and the model is
// told the hook's reason.
func TestPreToolUseHookMatchesMCPTools(t *testing.T) {
	srv := startServer(t,
		testserver.Response{ToolCalls: []testserver.ToolCall{{ID: "c1", Name: "mcp__everything__echo", Arguments: `{"message":"hi"}`}}},
		testserver.Text("done"))
	opt, _ := everythingConfig(t, srv)
	seen := filepath.Join(opt.Cwd, "seen.json")
	hooksFile := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "quire", "hooks.json")
	os.MkdirAll(filepath.Dir(hooksFile), 0o755)
	os.WriteFile(hooksFile, []byte(`{"hooks": {"PreToolUse": [
		{"matcher": "mcp__everything__.*", "hooks": [{"type": "command", "command": "cat > `+seen+`; echo 'no echo today' >&2; exit 2"}]},
		{"matcher": "echo", "hooks": [{"type": "command", "command": "touch `+seen+`.short"}]}
	]}}`), 0o644)
	h := openHandle(t, *opt)
	waitMCP(t, h)
	h.Submit("echo hi")
	until(t, h.Events(), event.TurnEnded)
	b, err := os.ReadFile(seen)
	if err != nil {
		t.Fatalf("the hook did not run: %v", err)
	}
	var in struct {
		ToolName string `json:"tool_name"`
	}
	if err := json.Unmarshal(b, &in); err != nil || in.ToolName != "mcp__everything__echo" {
		t.Errorf("the hook was given %s (%v)", b, err)
	}
	if _, err := os.Stat(seen + ".short"); err == nil {
		t.Error("a matcher of the server's own tool name matched the MCP tool")
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if res := reqs[1].LastMessage(); res.Role != "tool" || !strings.Contains(res.Content, "no echo today") || strings.Contains(res.Content, "Echo: hi") {
		t.Errorf("the model was told %+v", res)
	}
}

// A server whose settings name its own profile (sandbox = "off") gets
// no provider's key either: every provider's key variable is kept from
// it, as from the session's commands, even one that does not look like
// a credential.
func TestServerProfileKeepsProviderKeys(t *testing.T) {
	srv := startServer(t)
	cfg := testConfig(t, srv, "ask")
	cfg.Providers = map[string]provider.Config{"mine": {Type: provider.TypeOpenAI, BaseURL: "http://x", APIKeyEnv: "MY_LLM_ACCESS"}}
	dir := t.TempDir()
	env, err := newEnv(cfg, dir)
	if err != nil {
		t.Fatal(err)
	}
	opt, _ := mcpOptions(cfg, env, tools.NewRegistry(), nil, "", "test")
	for _, name := range []string{"off", "workspace"} {
		p, err := opt.ProfileFor(name)
		if err != nil {
			t.Fatal(err)
		}
		got := sandbox.CommandEnv([]string{"MY_LLM_ACCESS=plain", "OPENAI_API_KEY=k", "KEEP=1"}, p)
		if slices.ContainsFunc(got, func(kv string) bool {
			return strings.HasPrefix(kv, "MY_LLM_ACCESS=") || strings.HasPrefix(kv, "OPENAI_API_KEY=")
		}) ||
			!slices.Contains(got, "KEEP=1") {
			t.Errorf("%s: %q", name, got)
		}
	}
}

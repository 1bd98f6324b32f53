package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/ext/mcp/mcptest"
)

// quireHome runs the binary with a fixed home, config and state dir, so
// several runs share them.
func quireHome(t *testing.T, bin, home, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	base := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "QUIRE_HOME=" + filepath.Join(home, "state")}
	return quireAt(t, bin, dir, append(base, env...), args...)
}

// Without a home directory there is no config.toml to add a server to
// or remove one from: one line says so, and nothing is written.
func TestMCPAddWithoutAHome(t *testing.T) {
	bin := buildQuire(t)
	bare := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "QUIRE_HOME=" + filepath.Join(bare, "state"), "QUIRE_MANAGED_CONFIG=" + filepath.Join(bare, "none.toml")}
	for _, args := range [][]string{{"mcp", "add", "x", "--", "true"}, {"mcp", "remove", "x"}} {
		_, errOut, code := quireAt(t, bin, bare, env, args...)
		if code != 1 || !strings.Contains(errOut, "no config.toml to edit") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if entries, _ := os.ReadDir(bare); len(entries) > 1 {
		t.Errorf("something was written: %v", entries)
	}
}

// quire mcp add, list, test and remove against the real everything
// server, and the config file keeps what the user wrote.
func TestMCPCommands(t *testing.T) {
	npm := mcptest.Need(t)
	bin := buildQuire(t)
	home, dir := t.TempDir(), t.TempDir()
	cfgFile := filepath.Join(home, "config", "quire", "config.toml")
	os.MkdirAll(filepath.Dir(cfgFile), 0o700)
	os.WriteFile(cfgFile, []byte("# mine\nmodel = \"m\"\n"), 0o600)
	run := func(args ...string) (string, string, int) {
		return quireHome(t, bin, home, dir, []string{"QUIRE_SANDBOX=off"}, args...)
	}
	out, errOut, code := run("mcp", "add", "everything", "--env", "A=1", "--", npm.Node, npm.Everything, "stdio")
	if code != 0 || !strings.Contains(out, "added MCP server everything") {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	if _, errOut, code = run("mcp", "add", "everything", "--", "x"); code != 1 || !strings.Contains(errOut, "already has [mcp.servers.everything]") {
		t.Errorf("add again: %d %q", code, errOut)
	}
	if _, errOut, code = run("mcp", "add", "bad", "--url", "ftp://x"); code != 1 || !strings.Contains(errOut, "not added: ") {
		t.Errorf("add a bad one: %d %q", code, errOut)
	}
	out, _, code = run("mcp", "list")
	if code != 0 || !strings.Contains(out, "everything       config.toml stdio") || strings.Contains(out, "bad") {
		t.Errorf("list: %d\n%s", code, out)
	}
	out, errOut, code = run("mcp", "test", "everything")
	if code != 0 || !strings.Contains(out, "everything  ready  stdio") || !strings.Contains(out, "mcp__everything__echo") || !strings.Contains(out, "resource: demo://") || !strings.Contains(out, "prompt: /mcp__everything__") {
		t.Errorf("test: %d %q\n%s", code, errOut, out)
	}
	_, errOut, code = run("mcp", "test", "nothere")
	if code != 1 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("test of an unknown server: %d %q", code, errOut)
	}
	run("mcp", "add", "broken", "--", "quire-no-such-program")
	_, errOut, code = run("mcp", "test", "broken")
	if code != 1 || !strings.Contains(errOut, "not found in PATH") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("test of a broken server: %d %q", code, errOut)
	}
	for _, name := range []string{"broken", "everything"} {
		if out, errOut, code = run("mcp", "remove", name); code != 0 {
			t.Fatalf("remove %s: %d %q %q", name, code, out, errOut)
		}
	}
	if got, _ := os.ReadFile(cfgFile); string(got) != "# mine\nmodel = \"m\"\n" {
		t.Errorf("after removing both: %q", got)
	}
}

// quire exec against the scripted model, which calls a tool of the real
// everything server: under auto-edit the read-only tool runs unasked,
// its result reaches the model and the log; the tool that is not
// read-only is denied, since nobody can be asked.
func TestExecCallsARealMCPServer(t *testing.T) {
	npm := mcptest.Need(t)
	bin := buildQuire(t)
	home, dir := t.TempDir(), t.TempDir()
	cfgFile := filepath.Join(home, "config", "quire", "config.toml")
	os.MkdirAll(filepath.Dir(cfgFile), 0o700)
	os.WriteFile(cfgFile, []byte(`[mcp.servers.everything]
command = "`+npm.Node+`"
args = ["`+npm.Everything+`", "stdio"]

[mcp.servers.typo]
comand = "x"
`), 0o600)
	srv, err := testserver.Start(testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		if n == 0 {
			return testserver.Response{ToolCalls: []testserver.ToolCall{
				{ID: "c1", Name: "mcp__everything__echo", Arguments: `{"message":"hi from the model"}`},
				{ID: "c2", Name: "mcp__everything__toggle-simulated-logging", Arguments: `{}`},
			}}
		}
		return testserver.Text("The server echoed it.")
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env := []string{"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=k", "QUIRE_MODEL=test-model", "QUIRE_SANDBOX=off"}
	out, errOut, code := quireHome(t, bin, home, dir, env, "exec", "--json", "--approval", "auto-edit", "echo something through MCP")
	if code != 0 {
		t.Fatalf("exit %d\nstderr %s\nstdout %s", code, errOut, out)
	}
	// The bad server is one line, and the run goes on.
	if !strings.Contains(errOut, "MCP server typo is off: [mcp.servers.typo]: unknown key \"comand\"") {
		t.Errorf("stderr %q", errOut)
	}
	if !strings.Contains(errOut, "denied mcp__everything__toggle-simulated-logging") {
		t.Errorf("the tool that is not read-only was not denied: %q", errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	offered := false
	for _, tool := range reqs[0].Tools {
		if tool.Function.Name == "mcp__everything__echo" && strings.Contains(string(tool.Function.Parameters), "message") {
			offered = true
		}
	}
	if !offered {
		t.Error("the first request did not offer the server's echo with its schema")
	}
	var echoed bool
	for _, m := range reqs[1].Messages {
		if m.Role == "tool" && m.ToolCallID == "c1" && strings.Contains(m.Content, "hi from the model") {
			echoed = true
		}
	}
	if !echoed {
		t.Errorf("the echo did not reach the model: %+v", reqs[1].Messages)
	}
	finished := func(events string) *event.ToolResult {
		for _, line := range strings.Split(strings.TrimSpace(events), "\n") {
			var e event.Event
			if json.Unmarshal([]byte(line), &e) == nil && e.Kind == event.ToolFinished && e.CallID == "c1" {
				return e.Result
			}
		}
		return nil
	}
	if r := finished(out); r == nil || r.Status != event.ToolOK || !strings.Contains(r.Output, "hi from the model") {
		t.Errorf("the JSON events' result: %+v", r)
	}
	// And the log has it.
	list, _, _ := quireHome(t, bin, home, dir, env, "sessions", "--json")
	var sessions []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(list), &sessions); err != nil || len(sessions) != 1 {
		t.Fatalf("sessions: %v %q", err, list)
	}
	exported, errOut, code := quireHome(t, bin, home, dir, env, "export", sessions[0].ID)
	if code != 0 {
		t.Fatalf("export: %d %q", code, errOut)
	}
	if r := finished(exported); r == nil || !strings.Contains(r.Output, "hi from the model") {
		t.Errorf("the stored result: %+v", r)
	}
}

// A project's .mcp.json starts nothing through quire exec until the user
// trusted it with quire trust: before, exec says so in one line and the
// model is offered none of its tools; after, the real server's tools are
// offered and a call reaches it. quire mcp list names the file's server
// either way.
func TestExecProjectMCPNeedsTrust(t *testing.T) {
	npm := mcptest.Need(t)
	bin := buildQuire(t)
	home := t.TempDir()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	project, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{"command": npm.Node, "args": []string{npm.Everything, "stdio"}}}})
	os.WriteFile(filepath.Join(dir, ".mcp.json"), project, 0o644)
	srv, err := testserver.Start(testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		for _, tool := range req.Tools {
			if tool.Function.Name == "mcp__everything__echo" && req.LastMessage().Role == "user" {
				return testserver.Response{ToolCalls: []testserver.ToolCall{
					{ID: "c1", Name: "mcp__everything__echo", Arguments: `{"message":"from the project's server"}`}}}
			}
		}
		return testserver.Text("done")
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env := []string{"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=k", "QUIRE_MODEL=test-model", "QUIRE_SANDBOX=off"}
	offered := func(r testserver.Request) bool {
		for _, tool := range r.Tools {
			if strings.HasPrefix(tool.Function.Name, "mcp__everything__") {
				return true
			}
		}
		return false
	}

	out, _, code := quireHome(t, bin, home, dir, env, "mcp", "list")
	if code != 0 || !strings.Contains(out, "everything") || !strings.Contains(out, ".mcp.json") {
		t.Errorf("list: %d\n%s", code, out)
	}
	_, errOut, code := quireHome(t, bin, home, dir, env, "exec", "--approval", "yolo", "use the project's server")
	if code != 0 || !strings.Contains(errOut, ".mcp.json") || !strings.Contains(errOut, "not trusted yet") {
		t.Fatalf("untrusted: exit %d, stderr %q", code, errOut)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || offered(reqs[0]) {
		t.Fatalf("an untrusted .mcp.json's tools were offered (%d requests)", len(reqs))
	}

	if out, errOut, code := quireHome(t, bin, home, dir, env, "trust", "--yes", dir); code != 0 || !strings.Contains(out, "everything: "+npm.Node) {
		t.Fatalf("trust: %d %q %q", code, out, errOut)
	}
	_, errOut, code = quireHome(t, bin, home, dir, env, "exec", "--approval", "yolo", "use the project's server")
	if code != 0 || strings.Contains(errOut, "not trusted") {
		t.Fatalf("trusted: exit %d, stderr %q", code, errOut)
	}
	reqs := srv.Requests()[1:]
	if len(reqs) != 2 || !offered(reqs[0]) {
		t.Fatalf("a trusted .mcp.json's tools were not offered (%d requests)", len(reqs))
	}
	var echoed bool
	for _, m := range reqs[1].Messages {
		if m.Role == "tool" && m.ToolCallID == "c1" && strings.Contains(m.Content, "from the project's server") {
			echoed = true
		}
	}
	if !echoed {
		t.Errorf("the call did not reach the project's server: %+v", reqs[1].Messages)
	}
}

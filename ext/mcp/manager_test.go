package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/quire-sh/quire/sandbox"
	"github.com/quire-sh/quire/sandbox/sandboxtest"
	"github.com/quire-sh/quire/tools"
)

// notes collects what the manager tells the user.
type notes struct {
	mu    sync.Mutex
	lines []string
}

func (n *notes) add(level, text string) {
	n.mu.Lock()
	n.lines = append(n.lines, level+": "+text)
	n.mu.Unlock()
}

// wait returns the notices once there are at least k, or what there is
// after a generous deadline: a server's state changes before its notice
// goes out.
func (n *notes) wait(k int) []string {
	deadline := time.Now().Add(10 * time.Second)
	for len(n.all()) < k && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	return n.all()
}

func (n *notes) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.lines...)
}

// fixture is a manager over test servers, in a project directory.
type fixture struct {
	t     *testing.T
	dir   string
	reg   *tools.Registry
	m     *Manager
	notes *notes
	env   *tools.Env
}

// testServer is a server of the test binary in mode.
func testServer(name, mode string, edit ...func(*ServerConfig)) Server {
	exe, _ := os.Executable()
	c := ServerConfig{Command: exe, Env: map[string]string{serverModeEnv: mode}, Enabled: true}
	for _, e := range edit {
		e(&c)
	}
	if problems := c.check(name); len(problems) > 0 {
		c.Problem = strings.Join(problems, "; ")
	}
	return Server{Name: name, Config: c, Origin: OriginConfig}
}

func start(t *testing.T, profile string, servers ...Server) *fixture {
	t.Helper()
	return startIn(t, t.TempDir(), profile, servers...)
}

func startIn(t *testing.T, dir, profile string, servers ...Server) *fixture {
	t.Helper()
	t.Cleanup(func() { os.RemoveAll(dir) })
	dir, _ = filepath.EvalSymlinks(dir)
	p, err := sandbox.ProfileByName(profile, dir)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, dir: dir, reg: tools.NewRegistry(tools.Builtin()...), notes: &notes{}}
	f.env, err = tools.NewEnv(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	f.m = Start(Options{
		Servers: servers, Registry: f.reg, Dir: dir, Profile: p,
		ProfileFor: func(name string) (sandbox.Profile, error) { return sandbox.ProfileByName(name, dir) },
		Support:    sandbox.Detect(), Environ: os.Environ(), Getenv: os.Getenv,
		Identity: []string{"QUIRE_SESSION_ID=s-1", "QUIRE_PROJECT_DIR=" + dir},
		Notify:   f.notes.add, Version: "test",
	})
	t.Cleanup(f.m.Close)
	return f
}

func (f *fixture) settle() {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := f.m.Wait(ctx); err != nil {
		f.t.Fatalf("servers did not settle: %v; status %+v", err, f.m.Status())
	}
}

// call plans and runs the tool name with args, as the engine does.
func (f *fixture) call(ctx context.Context, name, args string) (tools.Result, error) {
	f.t.Helper()
	tool, ok := f.reg.Lookup(name)
	if !ok {
		f.t.Fatalf("no tool %s; have %v", name, specNames(f.reg))
	}
	plan, err := tool.Plan(f.env, nil, json.RawMessage(args))
	if err != nil {
		return tools.Result{}, err
	}
	return tool.Run(ctx, f.env, tools.Call{ID: "c1", Plan: plan}), nil
}

func specNames(r *tools.Registry) []string {
	var out []string
	for _, s := range r.Specs() {
		out = append(out, s.Name)
	}
	return out
}

func (f *fixture) state(name string) Status {
	for _, s := range f.m.Status() {
		if s.Name == name {
			return s
		}
	}
	f.t.Fatalf("no server %s", name)
	return Status{}
}

// waitState waits until the server reaches st.
func (f *fixture) waitState(name string, st State) Status {
	f.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if s := f.state(name); s.State == st {
			return s
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.t.Fatalf("%s never became %s: %+v", name, st, f.state(name))
	return Status{}
}

func TestToolsOfAStdioServer(t *testing.T) {
	f := start(t, sandbox.Off, testServer("t", "good"))
	f.settle()
	st := f.state("t")
	if st.State != Ready || st.Prompts != 1 || !st.Resources {
		t.Fatalf("status %+v", st)
	}
	// Every name is one a provider accepts, and the awkward ones are
	// mapped with a digest.
	providerName := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	for _, name := range specNames(f.reg) {
		if !providerName.MatchString(name) {
			t.Errorf("tool name %q would be refused", name)
		}
	}
	for _, want := range []string{"mcp__t__echo", "mcp__t__env", "mcp_read_resource", "mcp_list_resources"} {
		if _, ok := f.reg.Lookup(want); !ok {
			t.Errorf("no tool %s in %v", want, specNames(f.reg))
		}
	}
	escaped, _ := ToolName("t", escapeName)
	tool, ok := f.reg.Lookup(escaped)
	if !ok || !strings.HasPrefix(escaped, "mcp__t____31mred__0m_") {
		t.Fatalf("escape-named tool as %q: %v", escaped, ok)
	}
	if d := tool.Spec().Description; strings.ContainsAny(d, "\x1b\x07") {
		t.Errorf("description keeps control characters: %q", d)
	}
	res, err := f.call(context.Background(), escaped, `{}`)
	if err != nil || res.Output != "awkward "+escapeName {
		t.Fatalf("the mapped name did not reach the real tool: %+v %v", res, err)
	}

	res, err = f.call(context.Background(), "mcp__t__echo", `{"message":"hi"}`)
	if err != nil || res.IsError || res.Output != "echo: hi" {
		t.Fatalf("echo: %+v %v", res, err)
	}
	// Arguments are checked against the schema before anything runs.
	if _, err := f.call(context.Background(), "mcp__t__echo", `{}`); err == nil || !strings.Contains(err.Error(), `"message" is required`) {
		t.Errorf("missing argument: %v", err)
	}
	if _, err := f.call(context.Background(), "mcp__t__echo", `{"message":3}`); err == nil || !strings.Contains(err.Error(), "schema") {
		t.Errorf("wrong type: %v", err)
	}
	// The approval shows the server, the tool and the arguments.
	echo, _ := f.reg.Lookup("mcp__t__echo")
	plan, _ := echo.Plan(f.env, nil, json.RawMessage(`{"message":"hi"}`))
	if !strings.Contains(plan.Preview, "MCP server t, tool echo") || !strings.Contains(plan.Preview, `"message": "hi"`) {
		t.Errorf("preview %q", plan.Preview)
	}
	if sp := echo.Spec(); sp.Kind != tools.KindOther || !sp.Writes || !sp.ReadOnlyHint {
		t.Errorf("echo spec %+v", sp)
	}
	if del, _ := f.reg.Lookup("mcp__t__delete"); del.Spec().ReadOnlyHint {
		t.Error("a destructive tool counts as read-only")
	}

	res, _ = f.call(context.Background(), "mcp__t__media", `{}`)
	if res.Output != "a picture:\n[image: image/png, 3 bytes, not shown]\nthe note" {
		t.Errorf("media: %q", res.Output)
	}
	res, _ = f.call(context.Background(), "mcp__t__fail", `{}`)
	if !res.IsError || res.Output != "it went wrong" {
		t.Errorf("isError: %+v", res)
	}
	res, _ = f.call(context.Background(), "mcp__t__huge", `{}`)
	if !res.Truncated || len(res.Output) > outputLimit+500 || !strings.HasPrefix(res.Output, "BEGIN") || !strings.HasSuffix(res.Output, "END") || !strings.Contains(res.Output, "output truncated") {
		t.Errorf("huge: truncated %v, %d bytes", res.Truncated, len(res.Output))
	}

	// Resources and prompts.
	res, _ = f.call(context.Background(), "mcp_read_resource", `{"server":"t","uri":"test://readme"}`)
	if res.IsError || res.Output != "read me first" {
		t.Errorf("read resource: %+v", res)
	}
	res, _ = f.call(context.Background(), "mcp_list_resources", `{}`)
	if !strings.Contains(res.Output, "test://readme (readme) text/plain") {
		t.Errorf("list resources: %+v", res)
	}
	cmds := f.m.Prompts()
	if len(cmds) != 1 || cmds[0].Usage() != "/mcp__t__greet name style?" {
		t.Fatalf("prompts %+v", cmds)
	}
	got, err := f.m.RunPrompt(context.Background(), "mcp__t__greet", []string{"Ada", "very", "formal"})
	if err != nil || got != "Say hello to Ada.\n\nStyle: very formal" {
		t.Errorf("prompt: %q %v", got, err)
	}
	got, err = f.m.RunPrompt(context.Background(), "mcp__t__greet", []string{"style=brief", "Grace", "Hopper"})
	if err != nil || got != "Say hello to Grace Hopper.\n\nStyle: brief" {
		t.Errorf("prompt by name: %q %v", got, err)
	}
	if _, err := f.m.RunPrompt(context.Background(), "mcp__t__greet", nil); err == nil || !strings.Contains(err.Error(), "needs name") {
		t.Errorf("missing prompt argument: %v", err)
	}
	lines := strings.Join(f.m.Lines(context.Background()), "\n")
	for _, want := range []string{"t  ready  stdio, from config.toml", "mcp__t__echo", "prompt: /mcp__t__greet name style?", "resource: test://readme"} {
		if !strings.Contains(lines, want) {
			t.Errorf("/mcp lacks %q:\n%s", want, lines)
		}
	}
	if strings.Contains(lines, "\x1b") {
		t.Errorf("/mcp carries an escape character")
	}
	if s := Summary(f.m.Status()); s != "mcp 1/1" {
		t.Errorf("summary %q", s)
	}
}

// The environment of a stdio server: quire's (without credentials), then
// the configured env, then quire's identity, which config cannot forge.
func TestServerEnvironment(t *testing.T) {
	t.Setenv("GITHUB_TOKEN", "ghp-secret")
	t.Setenv("OTHER_SECRET", "s3cret")
	t.Setenv("OPENAI_API_KEY", "sk-quire")
	t.Setenv("PLAIN_SETTING", "kept")
	f := start(t, sandbox.Off, testServer("t", "good", func(c *ServerConfig) {
		c.Env["QUIRE_SESSION_ID"] = "forged"
		c.Env["FROM_CONFIG"] = "yes"
		c.EnvVars = []string{"GITHUB_TOKEN"}
	}))
	f.settle()
	res, _ := f.call(context.Background(), "mcp__t__env", `{}`)
	env := strings.Split(res.Output, "\n")
	if len(env) < 3 {
		t.Fatalf("env call: %+v", res)
	}
	for _, want := range []string{"QUIRE_SESSION_ID=s-1", "QUIRE_PROJECT_DIR=" + f.dir, "FROM_CONFIG=yes", "GITHUB_TOKEN=ghp-secret", "PLAIN_SETTING=kept", serverModeEnv + "=good"} {
		if !slices.Contains(env, want) {
			t.Errorf("env lacks %s", want)
		}
	}
	for _, bad := range []string{"QUIRE_SESSION_ID=forged", "OTHER_SECRET=s3cret", "OPENAI_API_KEY=sk-quire"} {
		if slices.Contains(env, bad) {
			t.Errorf("env has %s", bad)
		}
	}
	n := 0
	for _, kv := range env {
		if strings.HasPrefix(kv, "QUIRE_SESSION_ID=") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("QUIRE_SESSION_ID appears %d times", n)
	}
}

// A stdio server runs under the session's sandbox profile unless its
// settings name another.
func TestServerRunsInTheSandbox(t *testing.T) {
	if s := sandbox.Detect(); s.LandlockABI < 3 {
		t.Skipf("Landlock ABI %d: nothing to enforce with", s.LandlockABI)
	}
	f := startIn(t, sandboxtest.Dir(t, ".mcp-test-"), sandbox.ReadOnly,
		testServer("t", "good"), testServer("free", "good", func(c *ServerConfig) { c.Sandbox = sandbox.Off }))
	f.settle()
	res, _ := f.call(context.Background(), "mcp__t__touch", fmt.Sprintf(`{"path":%q}`, filepath.Join(f.dir, "confined")))
	if !strings.HasPrefix(res.Output, "refused:") || !strings.Contains(res.Output, "permission denied") {
		t.Errorf("under read-only the server wrote the project: %q", res.Output)
	}
	res, _ = f.call(context.Background(), "mcp__free__touch", fmt.Sprintf(`{"path":%q}`, filepath.Join(f.dir, "free")))
	if res.Output != "written" {
		t.Errorf("sandbox = off: %q", res.Output)
	}
}

func TestCrashedServerIsReportedAndRestarts(t *testing.T) {
	f := start(t, sandbox.Off, testServer("t", "good"))
	f.settle()
	res, _ := f.call(context.Background(), "mcp__t__crash", `{}`)
	if !res.IsError || !strings.Contains(res.Output, "MCP server t stopped during the call (exit status 3") || !strings.Contains(res.Output, "/mcp restart t") {
		t.Errorf("the crashing call: %+v", res)
	}
	st := f.waitState("t", Failed)
	if !strings.Contains(st.Error, "exit status 3") || !strings.Contains(st.Error, "crashed on purpose") {
		t.Errorf("why: %q", st.Error)
	}
	if got := f.notes.wait(1); len(got) != 1 || !strings.Contains(got[0], "MCP server t stopped") || !strings.Contains(got[0], "/mcp restart t") {
		t.Errorf("notices %q", got)
	}
	if s := Summary(f.m.Status()); s != "mcp 0/1 t failed" {
		t.Errorf("summary %q", s)
	}
	// Its tools stay and say how to get it back.
	res, _ = f.call(context.Background(), "mcp__t__echo", `{"message":"x"}`)
	if !res.IsError || !strings.Contains(res.Output, "/mcp restart t") {
		t.Errorf("a call to the stopped server: %+v", res)
	}
	if err := f.m.Restart("t"); err != nil {
		t.Fatal(err)
	}
	f.waitState("t", Ready)
	res, _ = f.call(context.Background(), "mcp__t__echo", `{"message":"back"}`)
	if res.Output != "echo: back" {
		t.Errorf("after restart: %+v", res)
	}
	if err := f.m.Restart("nope"); err == nil {
		t.Error("restarting an unknown server")
	}
}

func TestHangingCallIsCancelled(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "mark")
	f := start(t, sandbox.Off, testServer("t", "good", func(c *ServerConfig) {
		c.Env[markEnv] = mark
		c.ToolTimeout = time.Minute
	}))
	f.settle()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	began := time.Now()
	res, _ := f.call(ctx, "mcp__t__hang", `{}`)
	if !res.IsError || !strings.Contains(res.Output, "cancelled") || time.Since(began) > 10*time.Second {
		t.Fatalf("cancel: %+v after %s", res, time.Since(began))
	}
	// The server was told (notifications/cancelled).
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, _ := os.ReadFile(mark); string(b) == "cancelled" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never saw the cancel")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// The tool timeout ends a hang on its own.
	f2 := start(t, sandbox.Off, testServer("slow", "good", func(c *ServerConfig) { c.ToolTimeout = 300 * time.Millisecond }))
	f2.settle()
	res, _ = f2.call(context.Background(), "mcp__slow__hang", `{}`)
	if !res.IsError || !strings.Contains(res.Output, "did not answer within 300ms") {
		t.Fatalf("timeout: %+v", res)
	}
}

func TestMalformedResult(t *testing.T) {
	f := start(t, sandbox.Off, testServer("raw", "malformed"))
	f.settle()
	res, err := f.call(context.Background(), "mcp__raw__bad", `{}`)
	if err != nil || !res.IsError || !strings.HasPrefix(res.Output, "error: MCP server raw:") {
		t.Fatalf("malformed: %+v %v", res, err)
	}
}

func TestServersThatDoNotStart(t *testing.T) {
	f := start(t, sandbox.Off,
		testServer("silent", "silent", func(c *ServerConfig) { c.StartupTimeout = 500 * time.Millisecond }),
		testServer("quits", "exit"),
		Server{Name: "missing", Origin: OriginConfig, Config: ServerConfig{Command: "quire-no-such-program", Transport: "stdio", Enabled: true, StartupTimeout: time.Second}},
		Server{Name: "broken", Origin: OriginConfig, Config: decodeServer("broken", map[string]any{"args": []any{"x"}})},
		Server{Name: "off", Origin: OriginConfig, Config: func() ServerConfig {
			c := decodeServer("off", map[string]any{"command": "x", "enabled": false})
			return c
		}()},
		testServer("ok", "good"),
	)
	f.settle()
	want := map[string]string{
		"silent":  "no answer to the handshake within 500ms",
		"quits":   "refuses to start",
		"missing": `command "quire-no-such-program" is not found in PATH`,
		"broken":  "it needs a command (a stdio server) or a url",
		"off":     "disabled",
	}
	for name, why := range want {
		st := f.state(name)
		if st.State != Failed && st.State != Off || !strings.Contains(st.Error, why) {
			t.Errorf("%s: %+v, want %q", name, st, why)
		}
	}
	if st := f.state("ok"); st.State != Ready {
		t.Errorf("the good server: %+v", st)
	}
	// One notice each for those that failed to start, none for those off
	// (a state changes before its notice goes out).
	if got := f.notes.wait(3); len(got) != 3 {
		t.Errorf("notices %q", got)
	}
	if s := Summary(f.m.Status()); !strings.HasPrefix(s, "mcp 1/4 ") || !strings.Contains(s, "failed (+2)") {
		t.Errorf("summary %q", s)
	}
}

// A server whose tool list changes tells the client, and the registry
// follows.
func TestListChangedRefreshesTheTools(t *testing.T) {
	f := start(t, sandbox.Off, testServer("t", "good"))
	f.settle()
	v := f.reg.Version()
	if _, ok := f.reg.Lookup("mcp__t__late"); ok {
		t.Fatal("late is there before it was added")
	}
	f.call(context.Background(), "mcp__t__add_tool", `{}`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, ok := f.reg.Lookup("mcp__t__late"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("late never appeared: %v", specNames(f.reg))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if f.reg.Version() == v {
		t.Error("the registry's version did not move")
	}
}

// Closing the manager ends every server, even one that ignores the end
// of its input and SIGTERM: its input is closed, it gets its wait, then
// it is killed.
func TestCloseEndsServers(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "pid")
	f := start(t, sandbox.Off, testServer("t", "silent", func(c *ServerConfig) {
		c.StartupTimeout = time.Minute
		c.Env[markEnv] = mark
	}))
	var pid int
	deadline := time.Now().Add(10 * time.Second)
	for pid == 0 && time.Now().Before(deadline) {
		b, _ := os.ReadFile(mark)
		pid, _ = strconv.Atoi(string(b))
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("the server never started")
	}
	began := time.Now()
	f.m.Close()
	if d := time.Since(began); d < closeWait || d > 15*time.Second {
		t.Errorf("close took %s; the server should get %s first", d, closeWait)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); !strings.Contains(string(b), ") Z ") {
			t.Errorf("server %d outlived Close", pid)
		}
	}
}

// A closed manager's tools leave the registry, which outlives it; the
// built-ins stay, and a second Close changes nothing.
func TestCloseWithdrawsTheTools(t *testing.T) {
	f := start(t, sandbox.Off, testServer("t", "good"))
	f.settle()
	if _, ok := f.reg.Lookup("mcp__t__echo"); !ok {
		t.Fatalf("no tool of the server: %v", specNames(f.reg))
	}
	f.m.Close()
	f.m.Close()
	builtin := tools.NewRegistry(tools.Builtin()...)
	if got, want := specNames(f.reg), specNames(builtin); !slices.Equal(got, want) {
		t.Errorf("after Close the registry offers %v, want the built-ins %v", got, want)
	}
}

// waitTool waits until the registry offers name.
func (f *fixture) waitTool(name string) {
	f.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, ok := f.reg.Lookup(name); ok {
			return
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("%s never appeared: %v", name, specNames(f.reg))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An HTTP server that is down is retried with backoff, announced once,
// and does not hold up requests while it is retried.
func TestDownHTTPServerIsAnnouncedOnce(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	c := ServerConfig{URL: "http://" + addr + "/mcp", Enabled: true, StartupTimeout: time.Second}
	c.check("down")
	f := start(t, sandbox.Off, Server{Name: "down", Origin: OriginConfig, Config: c})
	f.settle()
	time.Sleep(2500 * time.Millisecond) // several retries: 0, 0, 0.5 s, 1 s
	if got := f.notes.all(); len(got) != 1 || !strings.Contains(got[0], "MCP server down did not start") {
		t.Errorf("notices %q", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := f.reg.Settle(ctx); err != nil {
		t.Error("a request would wait for a server being retried")
	}
	if st := f.state("down"); st.State != Failed {
		t.Errorf("state %+v", st)
	}
}

func TestAllowAndDenyLists(t *testing.T) {
	f := start(t, sandbox.Off,
		testServer("a", "good", func(c *ServerConfig) { c.EnabledTools = []string{"echo", "env"} }),
		testServer("d", "good", func(c *ServerConfig) { c.DisabledTools = []string{"crash", "echo"} }),
	)
	f.settle()
	if got := f.state("a").Tools; !slices.Equal(got, []string{"mcp__a__echo", "mcp__a__env"}) {
		t.Errorf("allow list: %v", got)
	}
	for _, name := range f.state("d").Tools {
		if name == "mcp__d__crash" || name == "mcp__d__echo" {
			t.Errorf("deny list let %s through", name)
		}
	}
}

package session

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/app/apptest"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/term"
	"github.com/quire-sh/quire/trust"
)

const (
	projectConfig = "approval = \"ask\"\ncontext_window = 64000\napi_key = \"sk-live-TOPSECRET\"\n"
	projectHooks  = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo \"$QUIRE_HOOK_EVENT $QUIRE_SESSION_ID\" >> stopped.txt"}]}]}}`
)

// project is a directory with a .quire/config.toml and a
// .quire/hooks.json.
func project(t *testing.T, config, hooks string) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".quire"), 0o755)
	if config != "" {
		os.WriteFile(filepath.Join(dir, ".quire", "config.toml"), []byte(config), 0o644)
	}
	if hooks != "" {
		os.WriteFile(filepath.Join(dir, ".quire", "hooks.json"), []byte(hooks), 0o644)
	}
	real, _ := filepath.EvalSymlinks(dir)
	return real
}

func decision(t *testing.T, dir, name string) trust.Decision {
	t.Helper()
	content, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	d, err := TrustStore().Check(dir, name, content)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// An interactive session asks once, first thing, about every project
// file not trusted yet, saying what each would do; v shows the files; y
// trusts them as shown and they apply at once (the stricter approval,
// the hooks), and the prompt given on the command line waits for the
// answer and then runs with them.
func TestTrustQuestionThroughTheApp(t *testing.T) {
	srv := startServer(t, testserver.Text("hello back"))
	cfg := testConfig(t, srv, "yolo")
	dir := project(t, projectConfig, projectHooks)
	h := openHandle(t, Options{Config: cfg, Cwd: dir, AskTrust: true})

	tt := apptest.NewTerminal(110, 34)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	aopt := h.AppOptions()
	aopt.Prompt = "first prompt"
	go func() { done <- app.Run(ctx, tt, h, aopt) }()
	defer func() {
		cancel()
		<-done
	}()
	if !tt.WaitFor("This project has 2 files", 5*time.Second) {
		t.Fatalf("no question:\n%s", tt.Screen())
	}
	screen := tt.Screen()
	for _, want := range []string{
		".quire/config.toml — settings for quire in this project",
		`approval = "ask"  (only where stricter than yours)`,
		"(ignored: a project may not set it)",
		".quire/hooks.json — hooks: commands quire runs as you, outside the sandbox",
		`Stop: echo "$QUIRE_HOOK_EVENT $QUIRE_SESSION_ID" >> stopped.txt`,
		"[y] yes, trust", "approval:yolo",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("the question lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "TOPSECRET") {
		t.Errorf("the summary shows the project's api_key:\n%s", screen)
	}
	tt.Type("hello") // keys go to the question, not the editor
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests before the answer: the held prompt went out", n)
	}
	tt.Type("v")
	if !tt.WaitFor(`{"hooks": {"Stop": [{"hooks"`, 5*time.Second) {
		t.Fatalf("v does not show the files:\n%s", tt.Screen())
	}
	tt.Type("v", term.KeyDown)
	if !tt.WaitFor("Stop: echo", 5*time.Second) {
		t.Fatalf("v again does not go back:\n%s", tt.Screen())
	}

	tt.Type("y")
	if !tt.WaitFor("hello back", 10*time.Second) {
		t.Fatalf("the held prompt was not answered:\n%s", tt.Screen())
	}
	if !tt.WaitFor("approval:ask", 5*time.Second) {
		t.Errorf("the project's stricter approval is not in force:\n%s", tt.Screen())
	}
	if strings.Contains(tt.Screen(), "ello") && strings.Contains(tt.Screen(), "› hello") {
		t.Errorf("keys typed at the question reached the editor:\n%s", tt.Screen())
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].LastMessage().Content != "first prompt" {
		t.Fatalf("requests %+v: want the held prompt once", reqs)
	}
	for _, f := range []string{".quire/config.toml", ".quire/hooks.json"} {
		if d := decision(t, dir, f); d != trust.Trusted {
			t.Errorf("%s is %q, want trusted", f, d)
		}
	}
	var stopped []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if stopped, _ = os.ReadFile(filepath.Join(dir, "stopped.txt")); len(stopped) > 0 {
			break
		}
	}
	h.mu.Lock()
	id := h.cur.Writer.ID()
	window := h.cur.Engine.ContextWindow
	h.mu.Unlock()
	if string(stopped) != "Stop "+id+"\n" {
		t.Errorf("the project's Stop hook wrote %q, want it once for session %s", stopped, id)
	}
	if window != 64000 {
		t.Errorf("context window %d: the project's setting did not apply", window)
	}
	if h.TrustQuestion() != nil {
		t.Error("the question is still there after the answer")
	}
}

// No records the files as declined: quire neither uses them nor asks
// again until they change, and then says what changed. Not now records
// nothing and asks again next time.
func TestDeclinedAndPostponedFiles(t *testing.T) {
	srv := startServer(t)
	cfg := testConfig(t, srv, "yolo")
	dir := project(t, "theme = \"light\"\n", projectHooks)
	ctx := context.Background()

	h := openHandle(t, Options{Config: cfg, Cwd: dir, AskTrust: true})
	if q := h.TrustQuestion(); q == nil || len(q.Files) != 2 || !strings.Contains(q.Applies, "theme from the next start") {
		t.Fatalf("question %+v", q)
	}
	r, err := h.AnswerTrust(ctx, app.TrustLater)
	if err != nil || !strings.Contains(r.Notice, "asks again next start") || r.Rebuild {
		t.Fatalf("later: %+v %v", r, err)
	}
	if d := decision(t, dir, ".quire/hooks.json"); d != trust.Unknown {
		t.Fatalf("later recorded %q", d)
	}
	if _, err := h.AnswerTrust(ctx, app.TrustYes); err == nil {
		t.Error("a second answer was taken")
	}

	h = openHandle(t, Options{Config: cfg, Cwd: dir, AskTrust: true})
	if h.TrustQuestion() == nil {
		t.Fatal("not asked again after 'not now'")
	}
	if r, err := h.AnswerTrust(ctx, app.TrustNo); err != nil || !strings.Contains(r.Notice, "declined .quire/config.toml, .quire/hooks.json") {
		t.Fatalf("no: %+v %v", r, err)
	}
	for _, f := range []string{".quire/config.toml", ".quire/hooks.json"} {
		if d := decision(t, dir, f); d != trust.Declined {
			t.Errorf("%s is %q", f, d)
		}
	}

	h = openHandle(t, Options{Config: cfg, Cwd: dir, AskTrust: true})
	if q := h.TrustQuestion(); q != nil {
		t.Fatalf("asked again about declined files: %+v", q)
	}
	if e := until(t, h.Events(), event.Notice); !strings.Contains(e.Text, "you declined them as they are now") {
		t.Errorf("notice %q", e.Text)
	}

	os.WriteFile(filepath.Join(dir, ".quire", "hooks.json"), []byte(`{"hooks": {}}`), 0o644)
	h = openHandle(t, Options{Config: cfg, Cwd: dir, AskTrust: true})
	q := h.TrustQuestion()
	if q == nil || len(q.Files) != 1 || q.Files[0].Name != ".quire/hooks.json" || q.Files[0].Before != "declined" {
		t.Fatalf("after a change: %+v", q)
	}
}

// quire exec never asks: untrusted files are left out with one line on
// stderr naming them and quire trust; trusted ones apply, and a trusted
// hooks.json that does not read is one line and no hooks.
func TestExecAndTheProjectsFiles(t *testing.T) {
	script := func() *testserver.Server {
		return startServer(t, testserver.Response{ToolCalls: []testserver.ToolCall{{ID: "w", Name: "write_file", Arguments: `{"path":"out.txt","content":"x\n"}`}}}, testserver.Text("done"))
	}
	srv := script()
	cfg := testConfig(t, srv, "yolo")
	dir := project(t, "approval = \"ask\"\n", projectHooks)
	run := func(srv *testserver.Server) (string, string) {
		t.Helper()
		c := *cfg
		c.BaseURL = srv.URL()
		var out, errOut bytes.Buffer
		if _, err := Exec(context.Background(), Options{Config: &c, Cwd: dir, NoStore: true}, ExecOptions{Prompt: "go", Stdout: &out, Stderr: &errOut}); err != nil {
			t.Fatal(err)
		}
		return out.String(), errOut.String()
	}
	_, stderr := run(srv)
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 ||
		!strings.Contains(stderr, "ignored this project's .quire/config.toml, .quire/hooks.json: not trusted yet; run `quire trust` in "+dir) {
		t.Errorf("stderr %q", stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.txt")); err != nil {
		t.Errorf("under yolo, with the project's ask left out, the write did not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "stopped.txt")); err == nil {
		t.Error("an untrusted hook ran")
	}

	st := TrustStore()
	for _, f := range []string{".quire/config.toml", ".quire/hooks.json"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		st.Decide(dir, f, b, trust.Trusted)
	}
	os.Remove(filepath.Join(dir, "out.txt"))
	_, stderr = run(script())
	if !strings.Contains(stderr, "denied write_file") {
		t.Errorf("the trusted project's approval = \"ask\" did not apply: %q", stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "stopped.txt")); !strings.HasPrefix(string(b), "Stop ") {
		t.Errorf("the trusted Stop hook did not run: %q", b)
	}

	broken := "{\"hooks\": {\"Stop\": [\n}"
	os.WriteFile(filepath.Join(dir, ".quire", "hooks.json"), []byte(broken), 0o644)
	st.Decide(dir, ".quire/hooks.json", []byte(broken), trust.Trusted)
	out, stderr := run(script())
	if out != "done\n" || !strings.Contains(stderr, filepath.Join(dir, ".quire", "hooks.json")+": no hooks read from it: not valid JSON (line 2") {
		t.Errorf("stdout %q, stderr %q", out, stderr)
	}
}

// A resumed session asked about the project's files starts again on its
// own log when they are trusted: the conversation goes on, with them.
func TestTrustingRestartsAResumedSessionOnItsLog(t *testing.T) {
	srv := startServer(t, testserver.Text("first answer"), testserver.Text("second answer"))
	cfg := testConfig(t, srv, "yolo")
	dir := project(t, "", "")
	h, err := Open(Options{Config: cfg, Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	ask(t, h, "first prompt")
	id := h.cur.Writer.ID()
	h.Close()

	os.WriteFile(filepath.Join(dir, ".quire", "hooks.json"), []byte(projectHooks), 0o644)
	h = openHandle(t, Options{Config: cfg, Cwd: dir, Continue: true, AskTrust: true})
	if q := h.TrustQuestion(); q == nil || len(q.Files) != 1 {
		t.Fatalf("question %+v", q)
	}
	r, err := h.AnswerTrust(context.Background(), app.TrustYes)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Rebuild || len(r.Prior) == 0 || r.Prior[1].Text != "first prompt" {
		t.Fatalf("switched %+v: want the transcript rebuilt from the log", r)
	}
	ask(t, h, "second prompt")
	h.mu.Lock()
	now := h.cur.Writer.ID()
	h.mu.Unlock()
	if now != id {
		t.Errorf("the session is %s, want %s continued", now, id)
	}
	last := srv.Requests()[1]
	if n := len(last.Messages); n < 3 || !strings.Contains(last.Messages[1].Content, "first prompt") {
		t.Errorf("the model lost the conversation: %+v", last.Messages)
	}
	var b []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, _ = os.ReadFile(filepath.Join(dir, "stopped.txt")); len(b) > 0 {
			break
		}
	}
	if string(b) != "Stop "+id+"\n" {
		t.Errorf("the trusted Stop hook wrote %q", b)
	}
}

// A trusted project's theme shows from the first screen, of a new
// session and of a resumed one still opening.
func TestTrustedProjectThemeIsTheFirstScreens(t *testing.T) {
	srv := startServer(t, testserver.Text("answer"))
	cfg := testConfig(t, srv, "ask")
	cfg.Theme = "dark"
	dir := project(t, "theme = \"light\"\n", "")
	b, _ := os.ReadFile(filepath.Join(dir, ".quire", "config.toml"))
	if err := TrustStore().Decide(dir, ".quire/config.toml", b, trust.Trusted); err != nil {
		t.Fatal(err)
	}
	h := openHandle(t, Options{Config: cfg, Cwd: dir, AskTrust: true})
	if h.TrustQuestion() != nil {
		t.Error("asked about a trusted file")
	}
	if th := h.AppOptions().Theme; th != "light" {
		t.Errorf("new session: theme %q", th)
	}
	ask(t, h, "one")
	h.Close()
	h = openHandle(t, Options{Config: cfg, Cwd: dir, Continue: true})
	if th := h.AppOptions().Theme; th != "light" {
		t.Errorf("resumed session: theme %q", th)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/testserver"
)

// hookEnv is the environment of a quire run against srv with its own
// home, whose config dir holds userHooks as hooks.json (none when "").
func hookEnv(t *testing.T, srv *testserver.Server, userHooks string) []string {
	t.Helper()
	home := t.TempDir()
	if userHooks != "" {
		os.MkdirAll(filepath.Join(home, ".config", "quire"), 0o755)
		os.WriteFile(filepath.Join(home, ".config", "quire", "hooks.json"), []byte(userHooks), 0o644)
	}
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "QUIRE_HOME=" + filepath.Join(home, "state"),
		"PATH=" + os.Getenv("PATH"), "QUIRE_SANDBOX=off", "QUIRE_MANAGED_CONFIG=" + filepath.Join(home, "none.toml"),
		"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=k", "QUIRE_MODEL=m"}
}

func quireAt(t *testing.T, bin, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	return o.String(), e.String(), code
}

// End to end through quire exec: the user's PreToolUse hook refuses a
// shell call even under yolo, the command does not run and the model is
// told the hook's reason; a trusted project's PostToolUse hook gets the
// call and its result.
func TestHooksThroughExec(t *testing.T) {
	bin := buildQuire(t)
	t.Run("PreToolUse denies", func(t *testing.T) {
		srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
			{ToolCalls: []testserver.ToolCall{{ID: "rm", Name: "shell", Arguments: `{"command":"rm -rf build"}`}}},
			testserver.Text("I left build alone."),
		}})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		guard := `{"hooks": {"PreToolUse": [{"matcher": "shell", "hooks": [{"type": "command",
			"command": "if grep -q 'rm -rf'; then echo 'recursive deletes need a human here' >&2; exit 2; fi"}]}]}}`
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "build"), 0o755)
		out, stderr, code := quireAt(t, bin, dir, hookEnv(t, srv, guard), "exec", "--approval", "yolo", "clean up")
		if code != 0 || out != "I left build alone.\n" {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
		}
		if !strings.Contains(stderr, "a hook (if grep -q 'rm -rf'") || !strings.Contains(stderr, "denied shell rm -rf build: recursive deletes need a human here") {
			t.Errorf("stderr %q", stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "build")); err != nil {
			t.Errorf("the denied command ran: %v", err)
		}
		reqs := srv.Requests()
		if len(reqs) != 2 {
			t.Fatalf("%d requests", len(reqs))
		}
		var told string
		for _, m := range reqs[1].Messages {
			if m.Role == "tool" {
				told = m.Content
			}
		}
		if !strings.Contains(told, "recursive deletes need a human here") {
			t.Errorf("the model was told %q", told)
		}
	})

	t.Run("PostToolUse records", func(t *testing.T) {
		say := testserver.Response{ToolCalls: []testserver.ToolCall{{ID: "echo", Name: "shell", Arguments: `{"command":"echo hi"}`}}}
		srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{say, testserver.Text("Said hi."), say, testserver.Text("Said hi.")}})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, ".quire"), 0o755)
		os.WriteFile(filepath.Join(dir, ".quire", "hooks.json"), []byte(`{"hooks": {"PostToolUse": [{"matcher": "shell",
			"hooks": [{"type": "command", "command": "cat > \"$QUIRE_PROJECT_DIR/post.json\"; echo \"$QUIRE_SESSION_ID\" > \"$QUIRE_PROJECT_DIR/post.id\""}]}]}}`), 0o644)
		env := hookEnv(t, srv, "")

		// Not trusted yet: left out, one line says how to trust it.
		_, stderr, code := quireAt(t, bin, dir, env, "exec", "--approval", "yolo", "say hi")
		if code != 0 || !strings.Contains(stderr, "ignored this project's .quire/hooks.json: not trusted yet; run `quire trust`") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "post.json")); err == nil {
			t.Fatal("an untrusted hook ran")
		}

		if _, stderr, code := quireAt(t, bin, dir, env, "trust", "--yes"); code != 0 {
			t.Fatalf("quire trust --yes: %d %s", code, stderr)
		}
		out, stderr, code := quireAt(t, bin, dir, env, "exec", "--json", "--approval", "yolo", "say hi")
		if code != 0 || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		var started struct {
			Session struct{ ID string } `json:"session"`
		}
		json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &started)
		b, err := os.ReadFile(filepath.Join(dir, "post.json"))
		if err != nil {
			t.Fatalf("the trusted PostToolUse hook did not run: %v", err)
		}
		var got struct {
			SessionID    string          `json:"session_id"`
			Event        string          `json:"hook_event_name"`
			Tool         string          `json:"tool_name"`
			Input        json.RawMessage `json:"tool_input"`
			ToolResponse struct {
				Status, Output string
			} `json:"tool_response"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		if got.Event != "PostToolUse" || got.Tool != "shell" || string(got.Input) != `{"command":"echo hi"}` ||
			got.ToolResponse.Status != "ok" || !strings.Contains(got.ToolResponse.Output, "hi") || got.SessionID != started.Session.ID {
			t.Errorf("the hook got %s (session %q)", b, started.Session.ID)
		}
		if id, _ := os.ReadFile(filepath.Join(dir, "post.id")); strings.TrimSpace(string(id)) != started.Session.ID {
			t.Errorf("QUIRE_SESSION_ID was %q, want %q", id, started.Session.ID)
		}
	})
}

// End to end through quire exec: the managed file's defaults sit below
// the user's, a trusted project may make approval stricter than the
// user's, and a project file that does not parse is one line and off.
func TestConfigLayersThroughExec(t *testing.T) {
	bin := buildQuire(t)
	write := testserver.Response{ToolCalls: []testserver.ToolCall{{ID: "w", Name: "write_file", Arguments: `{"path":"out.txt","content":"x\n"}`}}}
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{write, testserver.Text("done"), write, testserver.Text("done")}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env := hookEnv(t, srv, "")
	var home string
	for i, kv := range env {
		switch {
		case strings.HasPrefix(kv, "HOME="):
			home = strings.TrimPrefix(kv, "HOME=")
		case strings.HasPrefix(kv, "QUIRE_MODEL="):
			env[i] = "QUIRE_MODEL=" // the model comes from the files
		case strings.HasPrefix(kv, "QUIRE_MANAGED_CONFIG="):
			env[i] = "QUIRE_MANAGED_CONFIG=" + filepath.Join(home, "managed.toml")
		}
	}
	os.WriteFile(filepath.Join(home, "managed.toml"), []byte("model = \"managed-model\"\napproval = \"ask\"\n"), 0o644)
	os.MkdirAll(filepath.Join(home, ".config", "quire"), 0o755)
	os.WriteFile(filepath.Join(home, ".config", "quire", "config.toml"), []byte("approval = \"yolo\"\n"), 0o644)
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".quire"), 0o755)
	os.WriteFile(filepath.Join(dir, ".quire", "config.toml"), []byte("approval = \"ask\"\n"), 0o644)
	if _, stderr, code := quireAt(t, bin, dir, env, "trust", "--yes"); code != 0 {
		t.Fatalf("quire trust --yes: %s", stderr)
	}

	_, stderr, code := quireAt(t, bin, dir, env, "exec", "write it")
	if code != 0 || !strings.Contains(stderr, "denied write_file out.txt: it needs approval") {
		t.Errorf("the trusted project's approval = \"ask\" did not beat the user's yolo: exit %d, stderr %q", code, stderr)
	}
	if m := srv.Requests()[0].Model; m != "managed-model" {
		t.Errorf("model %q, want the managed default", m)
	}

	broken := "approval = \"ask\"\napi_key = sk-live-TOPSECRET\n"
	os.WriteFile(filepath.Join(dir, ".quire", "config.toml"), []byte(broken), 0o644)
	quireAt(t, bin, dir, env, "trust", "--yes")
	_, stderr, code = quireAt(t, bin, dir, env, "exec", "write it")
	want := "quire: ignored the project's settings: " + filepath.Join(realPath(t, dir), ".quire", "config.toml") + ": line 2"
	if code != 0 || !strings.HasPrefix(stderr, want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || strings.Contains(stderr, "TOPSECRET") {
		t.Errorf("exit %d, stderr %q: want one line starting %q", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.txt")); err != nil {
		t.Errorf("with the broken project file off, the user's yolo should have let the write run: %v", err)
	}

	// Without a home directory nothing is read in its place from where
	// quire runs: not a planted config.toml, not a planted hooks.json.
	bare := t.TempDir()
	for _, d := range []string{".config/quire", "quire"} {
		os.MkdirAll(filepath.Join(bare, d), 0o755)
		os.WriteFile(filepath.Join(bare, d, "config.toml"), []byte("model = \"planted\"\n"), 0o644)
		os.WriteFile(filepath.Join(bare, d, "hooks.json"), []byte(`{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "touch planted-hook-ran"}]}]}}`), 0o644)
	}
	noHome := []string{"PATH=" + os.Getenv("PATH"), "QUIRE_HOME=" + filepath.Join(bare, "state"), "QUIRE_MANAGED_CONFIG=" + filepath.Join(bare, "none.toml"), "QUIRE_SANDBOX=off"}
	out, stderr, code := quireAt(t, bin, bare, noHome, "config")
	if code != 0 || strings.Contains(out, "planted") || !strings.Contains(out, "no user config (no home directory)") {
		t.Errorf("quire config without a home: exit %d, stderr %q\n%s", code, stderr, out)
	}
	_, _, _ = quireAt(t, bin, bare, append(noHome, "OPENAI_BASE_URL="+srv.URL(), "OPENAI_API_KEY=k", "QUIRE_MODEL=m"), "exec", "hi")
	if _, err := os.Stat(filepath.Join(bare, "planted-hook-ran")); err == nil {
		t.Error("a hooks.json in the working directory ran without a home directory")
	}
}

func realPath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

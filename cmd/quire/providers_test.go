package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
)

// quireIn runs the binary with home as its config and state home and dir
// as its working directory.
func quireIn(t *testing.T, bin, home, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + home, "XDG_STATE_HOME=" + home, "QUIRE_SANDBOX=off"}, env...)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func writeConfig(t *testing.T, home, toml string) {
	t.Helper()
	os.MkdirAll(filepath.Join(home, "quire"), 0o755)
	if err := os.WriteFile(filepath.Join(home, "quire", "config.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sessionsStored counts the sessions in a state home.
func sessionsStored(home string) int {
	entries, _ := os.ReadDir(filepath.Join(home, "quire", "sessions"))
	return len(entries)
}

// quire exec completes a two-tool turn with reasoning against each
// protocol's scripted server, reached through a preset or a config table.
func TestExecOnEachProtocol(t *testing.T) {
	bin := buildQuire(t)
	for _, tc := range []struct {
		model, key string
		priced     bool
	}{
		{"anthropic/claude-sonnet-4-6", "ANTHROPIC_API_KEY", true},
		{"openai/gpt-5", "OPENAI_API_KEY", true},
		{"local/qwen3:32b", "", false},
	} {
		t.Run(tc.model, func(t *testing.T) {
			srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
				{Reasoning: []string{"Both files ", "matter."}, ToolCalls: []testserver.ToolCall{
					{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.txt"}`, Split: 2},
					{ID: "call_b", Name: "read_file", Arguments: `{"path":"b.txt"}`},
				}, Usage: &testserver.Usage{PromptTokens: 3000, CompletionTokens: 120, CacheReadTokens: 2000}},
				{Reasoning: []string{"Compare."}, Text: testserver.Words("a says alpha, b says beta."), Usage: &testserver.Usage{PromptTokens: 3300, CompletionTokens: 40}},
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			home, dir := t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "b.txt"), []byte("beta\n"), 0o644)
			writeConfig(t, home, fmt.Sprintf(`
[providers.anthropic]
base_url = %q
[providers.openai]
base_url = %q
[providers.local]
type = "openai"
base_url = %q
`, srv.Root(), srv.URL(), srv.URL()))
			env := []string{}
			if tc.key != "" {
				env = append(env, tc.key+"=k")
			}
			out, errOut, code := quireIn(t, bin, home, dir, env, "exec", "--json", "--model", tc.model, "compare a.txt and b.txt")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var reasoning strings.Builder
			var end *event.TurnEnd
			var results []string
			sc := bufio.NewScanner(strings.NewReader(out))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var e event.Event
				if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
					t.Fatalf("not JSONL: %q", sc.Text())
				}
				switch e.Kind {
				case event.ReasoningDelta:
					reasoning.WriteString(e.Text)
				case event.ToolFinished:
					results = append(results, e.Result.Output)
				case event.TurnEnded:
					end = e.End
				}
			}
			if end == nil || end.State != event.TurnCompleted || (end.Cost != nil) != tc.priced {
				t.Fatalf("turn ended %+v", end)
			}
			if reasoning.String() != "Both files matter.Compare." || len(results) != 2 || !strings.Contains(strings.Join(results, ""), "alpha") || !strings.Contains(strings.Join(results, ""), "beta") {
				t.Fatalf("reasoning %q, results %q", reasoning.String(), results)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || reqs[1].Messages[len(reqs[1].Messages)-1].Role != "tool" {
				t.Fatalf("%d requests", len(reqs))
			}
			// quire sessions shows the session's cost where it is known.
			list, _, _ := quireIn(t, bin, home, dir, nil, "sessions")
			if strings.Contains(list, "$") != tc.priced {
				t.Errorf("quire sessions:\n%s", list)
			}
		})
	}
}

// Bad provider input is one clear line and exit 1, and what is refused
// before the first request stores nothing.
func TestExecBadProviderInput(t *testing.T) {
	bin := buildQuire(t)
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
		{Status: 404, Error: "model: claude-nope"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, tc := range []struct {
		name   string
		config string
		env    []string
		args   []string
		says   []string
		stored bool
	}{
		{"unknown provider", "", nil, []string{"--provider", "antropic"}, []string{`quire: unknown provider "antropic" (known: anthropic,`}, false},
		{"missing key", "", nil, []string{"--model", "anthropic/claude-sonnet-4-6"}, []string{"quire: no API key for provider anthropic: set ANTHROPIC_API_KEY\n"}, false},
		{"a config table without a type", "[providers.mine]\nbase_url = \"http://localhost:1\"\n", nil, []string{"--model", "mine/m"}, []string{"provider mine has no type"}, false},
		{"a model the provider rejects", fmt.Sprintf("[providers.anthropic]\nbase_url = %q\n", srv.Root()), []string{"ANTHROPIC_API_KEY=k"},
			[]string{"--model", "anthropic/claude-nope"}, []string{"does not know this model", `provider anthropic has no model "claude-nope"`, "quire models"}, true},
		{"an endpoint speaking another protocol", fmt.Sprintf("[providers.anthropic]\nbase_url = %q\n", srv.URL()+"/chat"), []string{"ANTHROPIC_API_KEY=k"},
			[]string{"--model", "anthropic/claude-sonnet-4-6"}, []string{"does not speak the protocol", "provider anthropic at " + srv.URL() + "/chat", "the Anthropic Messages API"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			if tc.config != "" {
				writeConfig(t, home, tc.config)
			}
			out, errOut, code := quireIn(t, bin, home, t.TempDir(), tc.env, append(append([]string{"exec"}, tc.args...), "hi")...)
			if code != 1 || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			if n := strings.Count(strings.TrimSpace(errOut), "\n"); n != 0 {
				t.Errorf("%d lines on stderr: %q", n+1, errOut)
			}
			for _, want := range tc.says {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr %q lacks %q", errOut, want)
				}
			}
			if got := sessionsStored(home) > 0; got != tc.stored {
				t.Errorf("stored a session: %v", got)
			}
		})
	}
}

func TestModelsCommand(t *testing.T) {
	bin := buildQuire(t)
	home := t.TempDir()
	writeConfig(t, home, "[providers.local]\ntype = \"openai\"\nbase_url = \"http://localhost:8080/v1\"\nmodels = [\"qwen3:32b\"]\n")
	out, errOut, code := quireIn(t, bin, home, t.TempDir(), []string{"ANTHROPIC_API_KEY=k", "QUIRE_MODEL=anthropic/claude-sonnet-4-6"}, "models")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"anthropic *  (anthropic, ANTHROPIC_API_KEY is set)", "groq  (openai, GROQ_API_KEY is not set)", "local  (openai, no key needed)  http://localhost:8080/v1", "qwen3:32b", "claude-sonnet-4-6 *", "catalog: charm.land/catwalk@"} {
		if !strings.Contains(out, want) {
			t.Errorf("quire models lacks %q", want)
		}
	}
	out, _, code = quireIn(t, bin, home, t.TempDir(), nil, "models", "--json", "local")
	var ls []struct {
		Name   string
		Models []struct{ ID string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &ls) != nil || len(ls) != 1 || ls[0].Models[0].ID != "qwen3:32b" {
		t.Fatalf("--json local: %d %s", code, out)
	}
	if _, errOut, code := quireIn(t, bin, home, t.TempDir(), nil, "models", "nope"); code != 1 || !strings.Contains(errOut, `unknown provider "nope"`) {
		t.Fatalf("unknown: %d %s", code, errOut)
	}
}

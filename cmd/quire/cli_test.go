package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/engine/testserver"
)

// runIn runs the command line in-process with a private home, returning
// the exit status, stdout and stderr.
func runIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, stdio{in: strings.NewReader(stdin), out: &out, err: &errOut})
	return code, out.String(), errOut.String()
}

// isolate gives the test a private home, state and config dir.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("QUIRE_HOME", filepath.Join(home, "state"))
	t.Setenv("QUIRE_SANDBOX", "off")
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "QUIRE_MODEL", "QUIRE_APPROVAL"} {
		t.Setenv(k, "")
	}
	return home
}

// Every usage error is one line naming the problem, then one pointing
// to --help, and exit status 2; nothing else is printed.
func TestUsageErrorsNameTheProblem(t *testing.T) {
	isolate(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"exec", "hi", "--jsn"}, "quire exec: unknown flag --jsn"},
		{[]string{"exec", "--jsn=1", "hi"}, "quire exec: unknown flag --jsn"},
		{[]string{"exec"}, "quire exec: no prompt"},
		{[]string{"exec", "hi", "--model"}, "quire exec: flag --model needs a value"},
		{[]string{"exec", "--json=maybe", "hi"}, `quire exec: flag --json takes true or false, not "maybe"`},
		{[]string{"replay"}, "quire replay: no session id or transcript file"},
		{[]string{"replay", "a", "b"}, "quire replay: takes one session id or file, got 2 arguments"},
		{[]string{"replay", "x", "--speed", "fast"}, `quire replay: flag --speed takes a number, not "fast"`},
		{[]string{"replay", "x", "--speed", "0"}, "quire replay: --speed must be above 0, got 0"},
		{[]string{"replay", "x", "--print", "--color", "sometimes"}, `quire replay: --color takes auto, always or never, not "sometimes"`},
		{[]string{"sessions", "extra"}, `quire sessions: unexpected argument "extra"`},
		{[]string{"sessions", "-n", "-1"}, "quire sessions: -n must be 0 or more, got -1"},
		{[]string{"export"}, "quire export: no session id"},
		{[]string{"export", "a", "b"}, "quire export: takes one session id, got 2 arguments"},
		{[]string{"resume", "a", "b"}, "quire resume: takes one session id, got 2 arguments"},
		{[]string{"demo", "now"}, `quire demo: unexpected argument "now"`},
		{[]string{"doctor", "--bogus"}, "quire doctor: unknown flag --bogus"},
		{[]string{"config", "--json"}, "quire config: unknown flag --json"},
		{[]string{"version", "x"}, "quire version: takes no arguments"},
		{[]string{"--nope"}, "quire: unknown flag --nope"},
		{[]string{"fix", "it", "--minimal=perhaps"}, `quire: flag --minimal takes true or false, not "perhaps"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runIn(t, "", tt.args...)
			lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
			cmd := strings.SplitN(tt.want, ":", 2)[0]
			if code != 2 || len(lines) != 2 || lines[0] != tt.want || lines[1] != "Run '"+cmd+" --help' for usage." {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q, then the pointer to --help", code, errOut, tt.want)
			}
			if out != "" {
				t.Errorf("stdout %q", out)
			}
		})
	}
}

// --help is not an error: the usage goes to stdout, status 0.
func TestHelpGoesToStdout(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{{"exec", "--help"}, {"replay", "-h"}, {"sessions", "--help"}, {"--help"}, {"help"}, {"fix", "--help"}} {
		code, out, errOut := runIn(t, "", args...)
		if code != 0 || errOut != "" || !strings.Contains(out, "Usage") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// Flags go where users put them: after the prompt, the id or the file as
// well as before; "--" ends them.
func TestFlagsAfterArguments(t *testing.T) {
	isolate(t)
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{testserver.Text("one"), testserver.Text("two")}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("OPENAI_API_KEY", "k")
	t.Setenv("QUIRE_MODEL", "m")
	t.Chdir(t.TempDir())

	code, out, errOut := runIn(t, "", "exec", "what now", "--json", "--model", "after-the-prompt")
	if code != 0 || !strings.HasPrefix(out, `{"v":`) {
		t.Fatalf("exec PROMPT --json: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if r := srv.Requests(); r[0].Model != "after-the-prompt" || r[0].LastMessage().Content != "what now" {
		t.Fatalf("request %+v", r[0])
	}
	code, out, errOut = runIn(t, "", "exec", "--", "--not-a-flag")
	if code != 0 || out != "two\n" {
		t.Fatalf("exec -- PROMPT: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if r := srv.Requests(); r[1].LastMessage().Content != "--not-a-flag" {
		t.Fatalf("after --, the prompt was %q", r[1].LastMessage().Content)
	}

	file := filepath.Join(t.TempDir(), "t.jsonl")
	writeTranscript(t, file)
	for _, args := range [][]string{
		{"replay", file, "--print", "--width", "60", "--color", "never"},
		{"replay", "--print", "--width=60", file, "--color=never"},
	} {
		code, out, errOut := runIn(t, "", args...)
		if code != 0 || !strings.Contains(out, "the recorded answer") || strings.Contains(out, "\x1b") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func writeTranscript(t *testing.T, path string) {
	t.Helper()
	at := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	events := []event.Event{
		{V: 1, Seq: 1, Time: at, Kind: event.SessionStarted, Session: &event.SessionInfo{ID: "s", Cwd: "/src", Model: "m"}},
		{V: 1, Seq: 2, Time: at, Kind: event.UserMessage, Turn: 1, Text: "a question"},
		{V: 1, Seq: 3, Time: at, Kind: event.TurnStarted, Turn: 1},
		{V: 1, Seq: 4, Time: at, Kind: event.AssistantMessage, Turn: 1, Text: "the recorded answer"},
		{V: 1, Seq: 5, Time: at, Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCompleted}},
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := store.WriteTranscript(f, store.HeaderFor(store.Summary{ID: "s", Cwd: "/src"}, len(events), at), events); err != nil {
		t.Fatal(err)
	}
}

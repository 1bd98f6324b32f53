package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
)

// def is one hooks.json with a single hook for event.
func def(event, matcher, command string, extra string) string {
	m := ""
	if matcher != "" {
		m = fmt.Sprintf(`"matcher": %q, `, matcher)
	}
	return fmt.Sprintf(`{"hooks": {%q: [{%s"hooks": [{"type": "command", "command": %q%s}]}]}}`, event, m, command, extra)
}

func mustParse(t *testing.T, sources ...Source) *Set {
	t.Helper()
	s, problems := Parse(sources...)
	if len(problems) > 0 {
		t.Fatalf("problems: %q", problems)
	}
	return s
}

func preEvent(dir string) engine.HookEvent {
	return engine.HookEvent{Name: engine.HookPreToolUse, SessionID: "20261201T120000-abcdef", Cwd: dir, Turn: 1,
		CallID: "call_1", Tool: "shell", Arguments: json.RawMessage(`{"command":"rm -rf build"}`)}
}

// A PreToolUse hook's stdout JSON decides first, exit status 2 second
// (stderr the reason); a hook that times out, crashes, is not found or
// prints JSON that is no decision lets the call go ahead, and says why.
func TestPreToolUseDecisions(t *testing.T) {
	tests := []struct {
		name, command, extra string
		want                 engine.HookDecision
		reason               string // in the reason; "" for none
		problem              string // in the one problem; "" for none
	}{
		{name: "json deny", command: `echo '{"decision":"deny","reason":"no rm in this repo"}'`, want: engine.HookDeny, reason: "no rm in this repo"},
		{name: "json block", command: `echo '{"decision":"block","reason":"blocked"}'`, want: engine.HookDeny, reason: "blocked"},
		{name: "json allow beats exit 2", command: `echo '{"decision":"allow"}'; echo ignored >&2; exit 2`, want: engine.HookAllow},
		{name: "json approve", command: `echo '{"decision":"approve"}'`, want: engine.HookAllow},
		{name: "hookSpecificOutput deny", command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"from a claude hook"}}'`, want: engine.HookDeny, reason: "from a claude hook"},
		{name: "hookSpecificOutput ask", command: `echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`, want: engine.HookAsk},
		{name: "exit 2 with empty stdout", command: `echo 'blocked by policy' >&2; exit 2`, want: engine.HookDeny, reason: "blocked by policy"},
		{name: "exit 2 after plain text", command: `echo checking; echo 'not today' >&2; exit 2`, want: engine.HookDeny, reason: "not today"},
		{name: "exit 0 says nothing", command: `exit 0`, want: engine.HookAllow},
		{name: "plain text is not a decision", command: `echo looks fine`, want: engine.HookAllow},
		{name: "json without a decision", command: `echo '{"note":"fyi"}'`, want: engine.HookAllow},
		{name: "timeout", command: `sleep 5`, extra: `, "timeout": 0.2`, want: engine.HookAllow, problem: "timed out after 200ms"},
		{name: "crash", command: `kill -9 $$`, want: engine.HookAllow, problem: "killed"},
		{name: "not found", command: `no-such-command-zq9`, want: engine.HookAllow, problem: "command not found"},
		{name: "malformed json", command: `echo '{"decision":'`, want: engine.HookAllow, problem: "not valid JSON"},
		{name: "malformed json and exit 2", command: `echo '{"decision":'; echo broken >&2; exit 2`, want: engine.HookDeny, reason: "broken", problem: "not valid JSON"},
		{name: "unknown decision", command: `echo '{"decision":"maybe"}'`, want: engine.HookAllow, problem: "unknown decision maybe"},
		{name: "another exit status", command: `echo oops >&2; exit 1`, want: engine.HookAllow, problem: "exited with status 1: oops"},
		{name: "escapes in the reason", command: `printf '\033[31mred\033[0m \342\200\256reason' >&2; exit 2`, want: engine.HookDeny, reason: "[31mred[0m reason"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			r := NewRunner(mustParse(t, Source{Name: "hooks.json", Content: []byte(def("PreToolUse", "shell", tt.command, tt.extra))}), Options{})
			defer r.Close()
			if !r.Gates("shell") {
				t.Fatal("the hook does not gate shell")
			}
			v := r.PreToolUse(context.Background(), preEvent(dir))
			if v.Decision != tt.want {
				t.Errorf("decision %d, want %d (%+v)", v.Decision, tt.want, v)
			}
			if tt.reason != "" && !strings.Contains(v.Reason, tt.reason) || tt.reason == "" && v.Reason != "" {
				t.Errorf("reason %q, want %q", v.Reason, tt.reason)
			}
			if strings.ContainsAny(v.Reason, "\x1b\u202e") {
				t.Errorf("the reason carries control characters: %q", v.Reason)
			}
			if v.Decision == engine.HookDeny && v.Hook != tt.command {
				t.Errorf("the refusing hook is %q", v.Hook)
			}
			switch {
			case tt.problem == "" && len(v.Problems) > 0:
				t.Errorf("unexpected problems %q", v.Problems)
			case tt.problem != "" && (len(v.Problems) != 1 || !strings.Contains(v.Problems[0], tt.problem)):
				t.Errorf("problems %q, want one with %q", v.Problems, tt.problem)
			case tt.problem != "" && !strings.Contains(v.Problems[0], "hooks.json"):
				t.Errorf("the problem does not name the file: %q", v.Problems[0])
			}
		})
	}
}

// Several hooks of one call run side by side; any refusal refuses it.
func TestEveryHookOfACallRunsAndAnyRefusalWins(t *testing.T) {
	dir := t.TempDir()
	set := mustParse(t,
		Source{Name: "user", Content: []byte(def("PreToolUse", "", `touch ran-a; exit 0`, ""))},
		Source{Name: "project", Content: []byte(def("PreToolUse", "shell", `touch ran-b; echo 'b says no' >&2; exit 2`, ""))},
	)
	r := NewRunner(set, Options{})
	defer r.Close()
	v := r.PreToolUse(context.Background(), preEvent(dir))
	if v.Decision != engine.HookDeny || v.Reason != "b says no" {
		t.Errorf("verdict %+v", v)
	}
	for _, f := range []string{"ran-a", "ran-b"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s did not run in the session's directory: %v", f, err)
		}
	}
}

// A hook stopped at its timeout takes its children with it.
func TestTimeoutStopsTheHooksProcessGroup(t *testing.T) {
	dir := t.TempDir()
	r := NewRunner(mustParse(t, Source{Name: "h", Content: []byte(def("PreToolUse", "", `sleep 60 & echo $! > child.pid; wait`, `, "timeout": 0.3`))}), Options{})
	defer r.Close()
	start := time.Now()
	v := r.PreToolUse(context.Background(), preEvent(dir))
	if len(v.Problems) != 1 || v.Decision != engine.HookAllow {
		t.Fatalf("verdict %+v", v)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatalf("the hook was not stopped: %s", time.Since(start))
	}
	b, err := os.ReadFile(filepath.Join(dir, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil || syscall.Kill(pid, 0) == syscall.EPERM {
		if time.Now().After(deadline) {
			t.Fatalf("the hook's child %d lives on", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Cancelling the call's context (the turn) stops its hooks, and their
// outcome is no decision and no problem.
func TestCancelledTurnStopsItsHooks(t *testing.T) {
	r := NewRunner(mustParse(t, Source{Name: "h", Content: []byte(def("PreToolUse", "", `sleep 60`, ""))}), Options{})
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	v := r.PreToolUse(ctx, preEvent(t.TempDir()))
	if v.Decision != engine.HookAllow || len(v.Problems) != 0 {
		t.Errorf("verdict %+v", v)
	}
}

// Identity variables are set last: neither the environment quire runs in
// nor a hook's own env can forge them, and each name appears once.
func TestIdentityVariablesCannotBeForged(t *testing.T) {
	dir := t.TempDir()
	extra := `, "env": {"QUIRE_SESSION_ID": "forged", "QUIRE_PROJECT_DIR": "/forged", "CLAUDE_PROJECT_DIR": "/forged", "MINE": "mine", "SHARED": "from the hook"}`
	set := mustParse(t, Source{Name: "h", Content: []byte(def("PreToolUse", "", `env > env.txt`, extra))})
	base := []string{"PATH=" + os.Getenv("PATH"), "QUIRE_SESSION_ID=from-the-environment", "QUIRE_HOOK_EVENT=Forged", "SHARED=from quire", "KEPT=yes"}
	r := NewRunner(set, Options{Env: base})
	defer r.Close()
	e := preEvent(dir)
	r.PreToolUse(context.Background(), e)
	b, err := os.ReadFile(filepath.Join(dir, "env.txt"))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, _ := strings.Cut(l, "=")
		count[k] = append(count[k], v)
	}
	want := map[string]string{
		"QUIRE_SESSION_ID": e.SessionID, "QUIRE_PROJECT_DIR": dir, "CLAUDE_PROJECT_DIR": dir,
		"QUIRE_HOOK_EVENT": "PreToolUse", "QUIRE_TOOL_NAME": "shell",
		"MINE": "mine", "SHARED": "from the hook", "KEPT": "yes",
	}
	for k, v := range want {
		if got := count[k]; len(got) != 1 || got[0] != v {
			t.Errorf("%s = %q, want exactly %q", k, got, v)
		}
	}
}

func TestMergeEnvKeepsOneEntryANameLaterWins(t *testing.T) {
	got := mergeEnv([]string{"A=1", "B=2", "broken", "=x"}, []string{"B=3", "C=4"}, []string{"A=5"})
	if strings.Join(got, " ") != "A=5 B=3 C=4" {
		t.Errorf("merged %q", got)
	}
}

// A hook reads the event as JSON on stdin, in the shape other agents'
// hooks read.
func TestTheEventIsJSONOnStdin(t *testing.T) {
	dir := t.TempDir()
	set := mustParse(t, Source{Name: "h", Content: []byte(def("PostToolUse", "shell", `cat > in.json`, ""))})
	reports := make(chan string, 4)
	r := NewRunner(set, Options{})
	code := 0
	e := preEvent(dir)
	e.Name = engine.HookPostToolUse
	e.Result = &event.ToolResult{CallID: "call_1", Name: "shell", Status: event.ToolOK, Output: "removed\n", ExitCode: &code}
	r.Observe(e, func(p string) { reports <- p })
	r.Close()
	b, err := os.ReadFile(filepath.Join(dir, "in.json"))
	if err != nil {
		t.Fatal(err)
	}
	var in map[string]any
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	resp, _ := in["tool_response"].(map[string]any)
	toolInput, _ := in["tool_input"].(map[string]any)
	if in["session_id"] != e.SessionID || in["cwd"] != dir || in["hook_event_name"] != "PostToolUse" || in["tool_name"] != "shell" ||
		in["tool_use_id"] != "call_1" || toolInput["command"] != "rm -rf build" || resp["output"] != "removed\n" || resp["status"] != "ok" {
		t.Errorf("stdin: %s", b)
	}
	select {
	case p := <-reports:
		t.Errorf("unexpected problem %q", p)
	default:
	}
}

// Observe never waits for hooks: events queue, boundedly, and run in
// order; what the queue cannot hold is dropped and the user told.
func TestObserveNeverWaitsAndKeepsOrder(t *testing.T) {
	dir := t.TempDir()
	cmd := `touch started; while [ ! -f go ]; do sleep 0.01; done; echo "$QUIRE_HOOK_EVENT" >> order.txt`
	content := fmt.Sprintf(`{"hooks": {"Stop": [{"hooks": [{"type":"command","command":%q}]}], "UserPromptSubmit": [{"hooks": [{"type":"command","command":%q}]}]}}`, cmd, cmd)
	r := NewRunner(mustParse(t, Source{Name: "h", Content: []byte(content)}), Options{Queue: 2})
	var mu sync.Mutex
	var reports []string
	report := func(p string) { mu.Lock(); reports = append(reports, p); mu.Unlock() }
	r.Observe(engine.HookEvent{Name: engine.HookUserPromptSubmit, SessionID: "s", Cwd: dir}, report)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first hook never started")
		}
	}
	// The first event's hook is running and cannot finish: the queue
	// takes two more, the rest are dropped, and Observe returns each time.
	for _, n := range []string{engine.HookStop, engine.HookUserPromptSubmit, engine.HookStop, engine.HookStop, engine.HookStop} {
		r.Observe(engine.HookEvent{Name: n, SessionID: "s", Cwd: dir}, report)
	}
	// No hook is for SessionEnd here: observing it queues nothing.
	r.Observe(engine.HookEvent{Name: engine.HookSessionEnd, SessionID: "s", Cwd: dir}, report)
	os.WriteFile(filepath.Join(dir, "go"), nil, 0o644)
	r.Close()
	b, _ := os.ReadFile(filepath.Join(dir, "order.txt"))
	got := strings.Fields(string(b))
	if strings.Join(got, " ") != "UserPromptSubmit Stop UserPromptSubmit" {
		t.Errorf("ran %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 1 || !strings.Contains(reports[0], "3 events were not given to their hooks") {
		t.Errorf("reports %q", reports)
	}
}

// A failing observer is reported, naming the hook; Close lets a queued
// SessionEnd hook finish, and stops one that outlives the grace.
func TestObserverProblemsAndClose(t *testing.T) {
	dir := t.TempDir()
	content := `{"hooks": {"Stop": [{"hooks": [{"type":"command","command":"echo nope >&2; exit 3"}]}],
		"SessionEnd": [{"hooks": [{"type":"command","command":"sleep 0.2; touch ended"}]}]}}`
	r := NewRunner(mustParse(t, Source{Name: "/home/u/.config/quire/hooks.json", Content: []byte(content)}), Options{})
	reports := make(chan string, 4)
	r.Observe(engine.HookEvent{Name: engine.HookStop, Cwd: dir}, func(p string) { reports <- p })
	r.Observe(engine.HookEvent{Name: engine.HookSessionEnd, Cwd: dir}, func(p string) { reports <- p })
	r.Close()
	if _, err := os.Stat(filepath.Join(dir, "ended")); err != nil {
		t.Errorf("the SessionEnd hook did not finish: %v", err)
	}
	select {
	case p := <-reports:
		if !strings.Contains(p, "exited with status 3: nope") || !strings.Contains(p, "/home/u/.config/quire/hooks.json") || !strings.Contains(p, "(Stop") {
			t.Errorf("report %q", p)
		}
	default:
		t.Error("the failing Stop hook was not reported")
	}

	slow := NewRunner(mustParse(t, Source{Name: "h", Content: []byte(def("SessionEnd", "", "sleep 60", ""))}), Options{CloseGrace: 100 * time.Millisecond})
	slow.Observe(engine.HookEvent{Name: engine.HookSessionEnd, Cwd: dir}, func(string) {})
	start := time.Now()
	slow.Close()
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Close waited %s for a hook past its grace", d)
	}
	slow.Observe(engine.HookEvent{Name: engine.HookSessionEnd, Cwd: dir}, func(string) {}) // after Close: ignored
}

// Matchers match whole tool names (MCP tools by their full name) or the
// trigger; the same command from two files runs once, the user's first.
func TestMatchersAndDedupe(t *testing.T) {
	user := `{"hooks": {"PreToolUse": [
		{"matcher": "shell", "hooks": [{"type":"command","command":"./check.sh"}]},
		{"matcher": "write_file|edit_file", "hooks": [{"type":"command","command":"./edits.sh","timeout":5}]},
		{"matcher": "mcp__github__.*", "hooks": [{"type":"command","command":"./gh.sh"}]},
		{"hooks": [{"type":"command","command":"./all.sh"}]}],
		"SessionStart": [{"matcher": "resume", "hooks": [{"type":"command","command":"./resumed.sh"}]}]}}`
	project := `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type":"command","command":"./check.sh","timeout":1}]}]}}`
	set := mustParse(t, Source{Name: "user", Content: []byte(user)}, Source{Name: "project", Content: []byte(project)})
	tests := []struct {
		event, subject string
		want           []string
	}{
		{"PreToolUse", "shell", []string{"./check.sh", "./all.sh"}},
		{"PreToolUse", "shell_session", []string{"./all.sh", "./check.sh"}},
		{"PreToolUse", "edit_file", []string{"./edits.sh", "./all.sh", "./check.sh"}},
		{"PreToolUse", "mcp__github__create_issue", []string{"./gh.sh", "./all.sh", "./check.sh"}},
		{"PreToolUse", "mcp__gitlab__x", []string{"./all.sh", "./check.sh"}},
		{"SessionStart", "startup", nil},
		{"SessionStart", "resume", []string{"./resumed.sh"}},
		{"PostToolUse", "shell", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, h := range set.matching(tt.event, tt.subject) {
			got = append(got, h.Command)
			if h.Command == "./check.sh" && tt.subject == "shell" && (h.From != "user" || h.Timeout != DefaultTimeout) {
				t.Errorf("the project's copy of ./check.sh won: %+v", h)
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s %s: %q, want %q", tt.event, tt.subject, got, tt.want)
		}
	}
}

// A hooks.json that is not JSON adds no hooks and is one line naming the
// file and the place, never its text; a wrong definition is left out and
// the rest are kept.
func TestParseProblems(t *testing.T) {
	tests := []struct {
		name, content string
		hooks         int
		problem       []string
	}{
		{"not json", "{\"hooks\": {\"Stop\": [\n  {hooks: [{\"command\": \"curl -H 'Authorization: sk-live-TOPSECRET'\"}]}]}}", 0, []string{"not valid JSON (line 2, column 4)"}},
		{"not an object", `["a"]`, 0, []string{"no hooks read"}},
		{"hooks not an object", `{"hooks": []}`, 0, []string{"a JSON array where an object belongs"}},
		{"unknown event", `{"hooks": {"PreToolCall": [], "Stop": [{"hooks": [{"type":"command","command":"true"}]}]}}`, 1, []string{"unknown event PreToolCall", "known: SessionStart"}},
		{"bad matcher", `{"hooks": {"PreToolUse": [{"matcher": "(shell", "hooks": [{"type":"command","command":"true"}]}, {"hooks": [{"type":"command","command":"x"}]}]}}`, 1, []string{"PreToolUse[0] left out", "not a valid pattern (missing closing )"}},
		{"other type", `{"hooks": {"Stop": [{"hooks": [{"type":"prompt","prompt":"x"}]}]}}`, 0, []string{`type prompt is not supported`}},
		{"no command", `{"hooks": {"Stop": [{"hooks": [{"type":"command"}]}]}}`, 0, []string{"Stop[0].hooks[0] left out: it has no command"}},
		{"bad timeout", `{"hooks": {"Stop": [{"hooks": [{"type":"command","command":"x","timeout":-1}]}]}}`, 0, []string{"timeout must be"}},
		{"event not a list", `{"hooks": {"Stop": {"command": "x"}}}`, 0, []string{"Stop left out"}},
		{"a control character in an event name", "{\"hooks\": {\"\\u001b[2J\": []}}", 0, []string{`"\x1b[2J"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, problems := Parse(Source{Name: "/p/.quire/hooks.json", Content: []byte(tt.content)})
			if set.Len() != tt.hooks {
				t.Errorf("%d hooks, want %d", set.Len(), tt.hooks)
			}
			if len(problems) != 1 {
				t.Fatalf("problems %q: want one line", problems)
			}
			p := problems[0]
			for _, w := range append(tt.problem, "/p/.quire/hooks.json") {
				if !strings.Contains(p, w) {
					t.Errorf("problem %q lacks %q", p, w)
				}
			}
			if strings.Contains(p, "TOPSECRET") || strings.ContainsAny(p, "\n\x1b") {
				t.Errorf("problem %q repeats the file or is not one line", p)
			}
		})
	}
}

// The summary the user is asked about lists each hook and its command.
func TestSummary(t *testing.T) {
	got := strings.Join(Summary([]byte(`{"hooks": {"PreToolUse": [{"matcher": "shell", "hooks": [{"type":"command","command":"./guard.sh","timeout":5,"env":{"TOKEN":"x"}}]}],
		"Bogus": [], "Stop": [{"hooks": [{"type":"command","command":"notify-send done"}]}]}}`)), "\n")
	for _, want := range []string{"PreToolUse [shell]: ./guard.sh  (timeout 5s)  (env TOKEN)", "Stop: notify-send done", "unknown event Bogus"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if got := Summary([]byte("{")); len(got) != 1 || !strings.Contains(got[0], "not valid JSON") {
		t.Errorf("summary of a broken file: %q", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{def("PreToolUse", "shell", "x", ""), `{"hooks":{"Stop":[{"matcher":"(","hooks":[]}]}}`, `{`, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"a","timeout":1e400}]}]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		set, problems := Parse(Source{Name: "f", Content: []byte(content)})
		Summary([]byte(content))
		if len(problems) > 1 {
			t.Fatalf("more than one line for one file: %q", problems)
		}
		for _, p := range problems {
			if strings.ContainsAny(p, "\n\x1b") {
				t.Fatalf("problem is not one safe line: %q", p)
			}
		}
		for _, ev := range engine.HookEvents() {
			for _, h := range set.matching(ev, "shell") {
				if h.Command == "" || h.Timeout <= 0 || h.Timeout > MaxTimeout {
					t.Fatalf("a bad hook was kept: %+v", h)
				}
			}
		}
	})
}

func TestMain(m *testing.M) {
	if _, err := os.Stat("/bin/sh"); errors.Is(err, os.ErrNotExist) {
		fmt.Println("SKIP: hooks run through /bin/sh, which this system lacks")
		return
	}
	os.Exit(m.Run())
}

// A subagent's hooks read which agent ran, its task, its own session
// and, when it stopped, how it ended.
func TestSubagentEventInput(t *testing.T) {
	sub := &event.Subagent{Agent: "writer", Description: "Write notes", Session: "child-1", State: event.SubagentFailed}
	var in map[string]any
	if err := json.Unmarshal(encodeInput(engine.HookEvent{Name: engine.HookSubagentStop, Tool: engine.TaskTool, CallID: "t1", Reason: "boom", Subagent: sub}), &in); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"hook_event_name": "SubagentStop", "tool_name": "task", "tool_use_id": "t1", "agent_type": "writer",
		"description": "Write notes", "subagent_session_id": "child-1", "subagent_state": "failed", "reason": "boom"} {
		if in[k] != want {
			t.Errorf("%s = %v, want %q", k, in[k], want)
		}
	}
	in = nil
	if err := json.Unmarshal(encodeInput(engine.HookEvent{Name: engine.HookSubagentStart, Subagent: sub}), &in); err != nil {
		t.Fatal(err)
	}
	if _, ok := in["subagent_state"]; ok || in["agent_type"] != "writer" {
		t.Errorf("SubagentStart says how the subagent ended: %v", in)
	}
}

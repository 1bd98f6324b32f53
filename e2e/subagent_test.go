package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
)

// The scripted model answers the parent and its children from one
// script: a child's request is told apart by its system prompt (it is a
// subagent) and by its task, the first user message.

func isSubagent(req testserver.Request) bool {
	return len(req.Messages) > 0 && strings.Contains(req.Messages[0].Content, "You are a subagent")
}

func firstPrompt(req testserver.Request) string {
	for _, m := range req.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

func toolMessages(req testserver.Request) map[string]string {
	out := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			out[m.ToolCallID] = m.Content
		}
	}
	return out
}

func taskCall(id, description, prompt, agent string) testserver.ToolCall {
	args := map[string]string{"description": description, "prompt": prompt}
	if agent != "" {
		args["agent"] = agent
	}
	b, _ := json.Marshal(args)
	return testserver.ToolCall{ID: id, Name: "task", Arguments: string(b)}
}

// barrier lets each of a set of parties through only once all have
// arrived, or after a timeout, reporting which.
type barrier struct {
	mu      sync.Mutex
	waiting map[string]chan struct{}
}

func newBarrier(parties ...string) *barrier {
	b := &barrier{waiting: map[string]chan struct{}{}}
	for _, p := range parties {
		b.waiting[p] = make(chan struct{})
	}
	return b
}

// arrive marks party as there and waits for the others; false means they
// did not come within d.
func (b *barrier) arrive(party string, d time.Duration) bool {
	b.mu.Lock()
	select {
	case <-b.waiting[party]:
	default:
		close(b.waiting[party])
	}
	b.mu.Unlock()
	deadline := time.After(d)
	for _, ch := range b.waiting {
		select {
		case <-ch:
		case <-deadline:
			return false
		}
	}
	return true
}

// childSessions is the listing's child sessions (parent, title) by id.
func childSessions(t *testing.T, e *execEnv) map[string][2]string {
	t.Helper()
	r := e.quire("sessions", "--json")
	if r.code != 0 {
		t.Fatalf("quire sessions --json: exit %d %s", r.code, r.stderr)
	}
	var rows []struct {
		ID     string `json:"id"`
		Parent string `json:"parent"`
		Title  string `json:"title"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatalf("quire sessions --json printed %q: %v", r.stdout, err)
	}
	out := map[string][2]string{}
	for _, row := range rows {
		if row.Parent != "" {
			out[row.ID] = [2]string{row.Parent, row.Title}
		}
	}
	return out
}

// The parent calls task twice in one batch; each child does a two-tool
// task (read_file, then grep) while the other runs, and the parent's
// answer is built from both reports. Each child is a stored session that
// quire sessions lists under its parent and quire replay plays.
func TestExecSubagentsRunInParallelAndReport(t *testing.T) {
	both := newBarrier("A", "B")
	srv := startServer(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		if !isSubagent(req) {
			if res := toolMessages(req); len(res) > 0 {
				return testserver.Text(fmt.Sprintf("Summary. A: %s B: %s", res["t1"], res["t2"]))
			}
			return testserver.Response{ToolCalls: []testserver.ToolCall{
				taskCall("t1", "Read file A", "task A: what does a.txt say?", ""),
				taskCall("t2", "Read file B", "task B: what does b.txt say?", ""),
			}}
		}
		who := strings.TrimPrefix(firstPrompt(req), "task ")[:1]
		file := strings.ToLower(who) + ".txt"
		res := toolMessages(req)
		switch len(res) {
		case 0:
			// Both children must be here before either goes on.
			if !both.arrive(who, 20*time.Second) {
				return testserver.Text("the subagents did not run in parallel")
			}
			return testserver.Call("r"+who, "read_file", fmt.Sprintf(`{"path":%q}`, file))
		case 1:
			return testserver.Call("g"+who, "grep", fmt.Sprintf(`{"pattern":"secret word","path":%q}`, file))
		}
		var found string
		for id, out := range res {
			if strings.HasPrefix(id, "g") {
				found = out
			}
		}
		return testserver.Text(fmt.Sprintf("report %s [%s]", who, strings.TrimSpace(found)))
	}})
	e := newExecEnv(t, execUser{name: "self"}, srv.URL())
	os.WriteFile(filepath.Join(e.ws, "a.txt"), []byte("the secret word is apple\n"), 0o644)
	os.WriteFile(filepath.Join(e.ws, "b.txt"), []byte("the secret word is banana\n"), 0o644)
	r := e.quire("exec", "what do a.txt and b.txt say?")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "A: report A [") || !strings.Contains(r.stdout, "apple") ||
		!strings.Contains(r.stdout, "B: report B [") || !strings.Contains(r.stdout, "banana") {
		t.Fatalf("the answer is not built from both reports: %q", r.stdout)
	}
	if got := len(srv.Requests()); got != 2+2*3 {
		t.Fatalf("the model was asked %d times, want 2 for the parent and 3 for each child", got)
	}

	children := childSessions(t, e)
	if len(children) != 2 {
		t.Fatalf("want two child sessions, got %v", children)
	}
	var parent string
	for id, c := range children {
		parent = c[0]
		if c[1] != "Read file A" && c[1] != "Read file B" {
			t.Errorf("child %s is titled %q", id, c[1])
		}
	}
	table := e.quire("sessions")
	lines := strings.Split(table.stdout, "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[1], parent) || !strings.HasPrefix(lines[2], "└ ") || !strings.HasPrefix(lines[3], "└ ") {
		t.Fatalf("quire sessions does not list the children under their parent:\n%s", table.stdout)
	}
	for id, c := range children {
		rp := e.quire("replay", "--print", "--color", "never", "--width", "100", id)
		who := c[1][len(c[1])-1:]
		if rp.code != 0 || !strings.Contains(rp.stdout, "task "+who) || !strings.Contains(rp.stdout, "read_file "+strings.ToLower(who)+".txt") ||
			!strings.Contains(rp.stdout, "grep") || !strings.Contains(rp.stdout, "report "+who) {
			t.Errorf("quire replay %s (child %s):\n%s%s", id, who, rp.stdout, rp.stderr)
		}
	}
	rp := e.quire("replay", "--print", "--color", "never", "--width", "100", parent)
	for _, want := range []string{"✓ subagent Read file A", "✓ subagent Read file B", "report A [", "report B ["} {
		if !strings.Contains(rp.stdout, want) {
			t.Errorf("the parent's replay lacks %q:\n%s", want, rp.stdout)
		}
	}
}

// SIGINT to quire exec while two subagents work stops both promptly: the
// run exits 130, and each child's session ends its turn cancelled.
func TestExecSIGINTStopsEverySubagent(t *testing.T) {
	hanging := make(chan string, 4)
	srv := startServer(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		if !isSubagent(req) {
			return testserver.Response{ToolCalls: []testserver.ToolCall{
				taskCall("t1", "Slow task A", "task A", ""), taskCall("t2", "Slow task B", "task B", ""),
			}}
		}
		if len(toolMessages(req)) == 0 {
			return testserver.Call("l1", "list_dir", `{"path":"."}`)
		}
		hanging <- firstPrompt(req)
		return testserver.Response{Fault: testserver.FaultHang}
	}})
	e := newExecEnv(t, execUser{name: "self"}, srv.URL())
	e.own()
	cmd := e.command(e.bin, "exec", "do two slow things")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for range 2 {
		select {
		case <-hanging:
		case err := <-done:
			t.Fatalf("quire exec ended before both subagents were at work: %v\n%s", err, errOut.String())
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("the subagents did not both reach their second request; stderr: %s", errOut.String())
		}
	}
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("quire exec did not stop after SIGINT")
	}
	// Generous for a loaded machine: the work itself would hang forever.
	if took := time.Since(sent); took > 10*time.Second {
		t.Errorf("quire exec took %s to stop after SIGINT", took)
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit %d (%v), want 130; stderr %s", code, err, errOut.String())
	}
	children := childSessions(t, e)
	if len(children) != 2 {
		t.Fatalf("want two child sessions, got %v", children)
	}
	for id := range children {
		rp := e.quire("replay", "--print", "--color", "never", id)
		if !strings.Contains(rp.stdout, "list_dir") || !strings.Contains(rp.stdout, "Turn cancelled") {
			t.Errorf("child %s did not end cancelled:\n%s%s", id, rp.stdout, rp.stderr)
		}
	}
	var parent string
	for _, c := range children {
		parent = c[0]
	}
	rp := e.quire("replay", "--print", "--color", "never", "--width", "100", parent)
	if strings.Count(rp.stdout, "⊘ subagent Slow task") != 2 || !strings.Contains(rp.stdout, "Turn cancelled") {
		t.Errorf("the parent's replay:\n%s", rp.stdout)
	}
}

// In the terminal a subagent is one block: its agent and task, the tool
// it is running while it works, then its report.
func TestSubagentBlockInTheTerminal(t *testing.T) {
	step := make(chan struct{})
	srv := startServer(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		switch {
		case !isSubagent(req) && len(toolMessages(req)) == 0:
			return testserver.Response{ToolCalls: []testserver.ToolCall{taskCall("t1", "Find the answer", "find the answer in notes.md", "explorer")}}
		case !isSubagent(req):
			return textResponse("The explorer found it.\n", 0)
		}
		switch len(toolMessages(req)) {
		case 0:
			return testserver.Call("r1", "read_file", `{"path":"notes.md"}`)
		case 1:
			// The test looks at the block while the child works here.
			select {
			case <-step:
			case <-time.After(30 * time.Second):
			}
			return testserver.Call("g1", "grep", `{"pattern":"answer"}`)
		}
		return textResponse("The answer is **42**, in notes.md line 3.\n", 0)
	}})
	p := newPane(t, 100, 30)
	os.WriteFile(filepath.Join(p.dir, "notes.md"), []byte("# Notes\n\nthe answer is 42\n"), 0o644)
	agents := filepath.Join(p.dir, ".quire", "agents")
	os.MkdirAll(agents, 0o755)
	os.WriteFile(filepath.Join(agents, "explorer.md"), []byte("---\ndescription: Finds things in the project.\ntools: [read_file, grep]\n---\nSearch carefully.\n"), 0o644)
	os.WriteFile(filepath.Join(agents, "broken.md"), []byte("no frontmatter at all\n"), 0o644)
	p.run(srv.URL())
	p.waitText("broken.md: it has no frontmatter", 10*time.Second)
	p.literal("what is the answer?")
	p.keys("Enter")
	s := p.waitText("→ read_file notes.md", 10*time.Second)
	if !strings.Contains(s, "● explorer Find the answer  running · 1 call") {
		t.Fatalf("the running block:\n%s", s)
	}
	close(step)
	s = p.waitText("The explorer found it", 10*time.Second)
	for _, want := range []string{"✓ explorer Find the answer  2 calls", "│ The answer is 42, in notes.md line 3."} {
		if !strings.Contains(s, want) {
			t.Errorf("the finished block lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "→ grep") {
		t.Errorf("the progress line outlived the run:\n%s", s)
	}
	quit(p)
}

// In the terminal, two subagents of one batch are two blocks running at
// once; the user's Ctrl+C stops both, each block says so, and quire is
// ready for the next prompt.
func TestSubagentsInParallelAreCancelledInTheTerminal(t *testing.T) {
	arrived := newBarrier("task A", "task B")
	srv := startServer(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		if !isSubagent(req) {
			if len(toolMessages(req)) == 0 {
				return testserver.Response{ToolCalls: []testserver.ToolCall{
					taskCall("t1", "Slow task A", "task A", ""), taskCall("t2", "Slow task B", "task B", ""),
				}}
			}
			return textResponse("Both were stopped.\n", 0)
		}
		if len(toolMessages(req)) == 0 {
			return testserver.Call("l1", "list_dir", `{"path":"."}`)
		}
		// Both children are past their first tool before either hangs,
		// so the screen shows two blocks at work with one call each.
		arrived.arrive(firstPrompt(req), 30*time.Second)
		return testserver.Response{Fault: testserver.FaultHang}
	}})
	p := newPane(t, 100, 30)
	p.run(srv.URL())
	p.waitText("Ask anything", 10*time.Second)
	p.literal("do two slow things")
	p.keys("Enter")
	s := p.waitFor("two running subagent blocks", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "Slow task A  running · 1 call") && strings.Contains(s, "Slow task B  running · 1 call")
	})
	if strings.Count(s, "running · 1 call") != 2 {
		t.Fatalf("want two running blocks:\n%s", s)
	}
	p.keys("C-c")
	s = p.waitFor("both blocks cancelled", 20*time.Second, func(s string) bool {
		return strings.Count(s, "⊘ subagent Slow task") == 2 && strings.Contains(s, "Turn cancelled")
	})
	if strings.Contains(s, "running · ") {
		t.Errorf("a block still says it runs after the cancel:\n%s", s)
	}
	p.waitText("Ask anything", 10*time.Second)
	quit(p)
}

// Through quire exec: an agent that builds on a persona runs with the
// persona's instructions before its own, and one whose persona is
// missing does not start; the model is told why and the turn goes on.
func TestExecAgentWithAPersona(t *testing.T) {
	srv := startServer(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		if isSubagent(req) {
			sys := req.Messages[0].Content
			persona, role := strings.Index(sys, "Quote the lines you rely on."), strings.Index(sys, "Review the change.")
			if persona < 0 || role < 0 || persona > role {
				return testserver.Text("no persona in my instructions")
			}
			return testserver.Text("reviewed, as the careful persona")
		}
		if res := toolMessages(req); len(res) > 0 {
			return testserver.Text(fmt.Sprintf("careful: %s | hasty: %s", res["t1"], res["t2"]))
		}
		return testserver.Response{ToolCalls: []testserver.ToolCall{
			taskCall("t1", "Review it", "review the change", "reviewer"),
			taskCall("t2", "Rush it", "rush the change", "hasty"),
		}}
	}})
	e := newExecEnv(t, execUser{name: "self"}, srv.URL())
	agents := filepath.Join(e.ws, ".quire", "agents")
	os.MkdirAll(agents, 0o755)
	os.WriteFile(filepath.Join(agents, "reviewer.md"), []byte("---\ndescription: Reviews.\npersona: careful\n---\nReview the change.\n"), 0o644)
	os.WriteFile(filepath.Join(agents, "hasty.md"), []byte("---\ndescription: Hurries.\npersona: absent\n---\nBe quick.\n"), 0o644)
	personas := filepath.Join(e.config, "quire", "personas")
	os.MkdirAll(personas, 0o755)
	os.WriteFile(filepath.Join(personas, "careful.md"), []byte("---\ntools: [read_file]\n---\nQuote the lines you rely on.\n"), 0o644)
	r := e.quire("exec", "review and rush")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "careful: reviewed, as the careful persona") {
		t.Errorf("the reviewer did not run with its persona: %q", r.stdout)
	}
	if !strings.Contains(r.stdout, `hasty: `) || !strings.Contains(r.stdout, `the persona "absent" cannot be found`) {
		t.Errorf("the model was not told why hasty did not start: %q", r.stdout)
	}
}

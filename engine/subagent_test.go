package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/tools"
)

// fakeSpawner resolves agents from a table and keeps each child's events
// in a recorder of its own.
type fakeSpawner struct {
	defs    map[string]Child
	notices []string

	mu   sync.Mutex
	recs map[string]*recorder // by the task call's id
}

func (f *fakeSpawner) Agents() []Agent {
	var out []Agent
	for name := range f.defs {
		out = append(out, Agent{Name: name, Description: "the " + name + " agent"})
	}
	return out
}

func (f *fakeSpawner) Notices() []string { return f.notices }

func (f *fakeSpawner) Plan(req TaskRequest) (Child, error) {
	var c Child
	if req.Agent != "" {
		d, ok := f.defs[req.Agent]
		if !ok {
			return Child{}, fmt.Errorf("there is no agent named %q", req.Agent)
		}
		c = d
		c.Agent = req.Agent
	}
	if req.Tools != nil {
		c.Tools = req.Tools
	}
	return c, nil
}

func (f *fakeSpawner) Record(link event.ParentLink, cwd string) (Recorder, string, func() error, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.recs == nil {
		f.recs = map[string]*recorder{}
	}
	rec := &recorder{}
	f.recs[link.CallID] = rec
	return rec, "child-" + link.CallID, func() error { return nil }, nil
}

func (f *fakeSpawner) child(callID string) []event.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r := f.recs[callID]; r != nil {
		return r.snapshot()
	}
	return nil
}

// isChild tells a child's request from the parent's: its system prompt
// gives it its role.
func isChild(req testserver.Request) bool {
	return len(req.Messages) > 0 && strings.Contains(req.Messages[0].Content, "You are a subagent")
}

// firstUser is the first user message of a request: a child's task.
func firstUser(req testserver.Request) string {
	for _, m := range req.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

// toolResults are the tool messages of a request by call id.
func toolResults(req testserver.Request) map[string]string {
	out := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			out[m.ToolCallID] = m.Content
		}
	}
	return out
}

func toolNames(req testserver.Request) []string {
	var out []string
	for _, t := range req.Tools {
		out = append(out, t.Function.Name)
	}
	return out
}

func task(id, description, prompt string, extra ...string) testserver.ToolCall {
	args := map[string]any{"description": description, "prompt": prompt}
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i] == "tools" {
			args["tools"] = strings.Split(extra[i+1], ",")
			continue
		}
		args[extra[i]] = extra[i+1]
	}
	b, _ := json.Marshal(args)
	return testserver.ToolCall{ID: id, Name: TaskTool, Arguments: string(b)}
}

func withSubagents(sp *fakeSpawner) func(*Config) {
	return func(c *Config) { c.Subagents = sp }
}

func subagentUpdates(evs []event.Event, callID string) []event.Subagent {
	var out []event.Subagent
	for _, e := range ofKind(evs, event.SubagentUpdate) {
		if e.CallID == callID {
			out = append(out, *e.Subagent)
		}
	}
	return out
}

// Two task calls in one batch run their children at once; each child
// does a two-tool task with the read-only tools, and the parent gets both
// reports, their tokens and cost rolled up into the turn's.
func TestTaskRunsChildrenInParallelAndRollsUpUsage(t *testing.T) {
	arrived := map[string]chan struct{}{"A": make(chan struct{}), "B": make(chan struct{})}
	var once sync.Map
	usage := func(p, c int) *testserver.Usage { return &testserver.Usage{PromptTokens: p, CompletionTokens: c} }
	sp := &fakeSpawner{}
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		if !isChild(req) {
			if res := toolResults(req); len(res) > 0 {
				return testserver.Response{Text: []string{"A said " + res["t1"] + "; B said " + res["t2"]}, Usage: usage(10, 5)}
			}
			return testserver.Response{ToolCalls: []testserver.ToolCall{
				task("t1", "Look at A", "task A"), task("t2", "Look at B", "task B"),
			}, Usage: usage(10, 5)}
		}
		who := strings.TrimPrefix(firstUser(req), "task ")
		if len(toolResults(req)) > 0 {
			return testserver.Response{Text: []string{"report " + who}, Usage: usage(100, 20)}
		}
		// Each child's first request waits for the other's: the two
		// run at once or this test times out.
		if _, done := once.LoadOrStore(who, true); !done {
			close(arrived[who])
		}
		other := map[string]string{"A": "B", "B": "A"}[who]
		select {
		case <-arrived[other]:
		case <-time.After(5 * time.Second):
			return testserver.Text("the children did not run in parallel")
		}
		return testserver.Response{ToolCalls: []testserver.ToolCall{call("r1", "read", who+"1"), call("r2", "read", who+"2")}, Usage: usage(100, 20)}
	}}, func(c *Config) {
		c.Subagents = sp
		c.Cost = func(u event.Usage) (float64, bool) { return float64(u.TotalTokens) / 1000, true }
	})
	h.s.Submit("look at A and B")
	end := h.turnEnd(1)
	evs := h.all()
	res := results(evs)
	if res["t1"].Output != "report A" || res["t2"].Output != "report B" || res["t1"].Status != event.ToolOK {
		t.Fatalf("task results %+v %+v\n%s", res["t1"], res["t2"], dump(evs))
	}
	if end.State != event.TurnCompleted {
		t.Fatalf("turn ended %s", end.State)
	}
	// 2 parent requests of 15 tokens, 4 child requests of 120.
	if end.Usage.TotalTokens != 2*15+4*120 || end.Cost == nil || *end.Cost != 0.51 {
		t.Fatalf("turn usage %+v cost %v, want 510 tokens, $0.51", end.Usage, end.Cost)
	}
	if info := h.s.Info(); info.Usage.TotalTokens != 510 {
		t.Fatalf("session usage %+v", info.Usage)
	}
	for _, id := range []string{"t1", "t2"} {
		ups := subagentUpdates(evs, id)
		var states []event.SubagentState
		for _, u := range ups {
			states = append(states, u.State)
		}
		want := []event.SubagentState{event.SubagentStarted, event.SubagentRunning, event.SubagentRunning, event.SubagentCompleted}
		if !reflect.DeepEqual(states, want) {
			t.Fatalf("%s updates %v, want %v", id, states, want)
		}
		last := ups[len(ups)-1]
		if last.Session != "child-"+id || last.Calls != 2 || last.Usage == nil || last.Usage.TotalTokens != 240 || last.Cost == nil || *last.Cost != 0.24 {
			t.Fatalf("%s last update %+v", id, last)
		}
		child := sp.child(id)
		if len(child) == 0 || child[0].Kind != event.SessionStarted || child[0].Session.Parent == nil ||
			*child[0].Session.Parent != (event.ParentLink{Session: h.s.cfg.SessionID, CallID: id, Description: map[string]string{"t1": "Look at A", "t2": "Look at B"}[id]}) {
			t.Fatalf("child %s log starts %s", id, dump(child[:min(len(child), 1)]))
		}
		if ends := ofKind(child, event.TurnEnded); len(ends) != 1 || ends[0].End.State != event.TurnCompleted {
			t.Fatalf("child %s turns %s", id, dump(ends))
		}
	}
	// The task call of each batch is the last update's neighbour: the
	// completed update comes right before its ToolFinished.
	for i, e := range evs {
		if e.Kind == event.ToolFinished && e.CallID == "t1" {
			if p := evs[i-1]; p.Kind != event.SubagentUpdate || p.Subagent.State != event.SubagentCompleted {
				t.Fatalf("t1's result follows %s", dump(evs[i-1:i]))
			}
		}
	}
	for _, req := range h.srv.Requests() {
		names := toolNames(req)
		if isChild(req) {
			if !reflect.DeepEqual(names, []string{"read"}) {
				t.Fatalf("a child was offered %v, want only the read-only tools", names)
			}
		} else if !reflect.DeepEqual(names, []string{"read", "task", "write"}) {
			t.Fatalf("the parent was offered %v", names)
		}
	}
}

// Cancelling the parent's turn stops every child promptly, each task
// call ends cancelled, and so does each child's own turn.
func TestTaskCancelStopsEveryChild(t *testing.T) {
	var mu sync.Mutex
	started := 0
	sp := &fakeSpawner{}
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		if !isChild(req) {
			return calls(task("t1", "One", "task one"), task("t2", "Two", "task two"))
		}
		mu.Lock()
		started++
		mu.Unlock()
		return testserver.Response{Text: []string{"never"}, FirstDelay: testserver.Duration(time.Minute)}
	}}, withSubagents(sp))
	h.s.Submit("go")
	for _, id := range []string{"t1", "t2"} {
		h.waitFor("child "+id+" to start", func(e event.Event) bool {
			return e.Kind == event.SubagentUpdate && e.CallID == id
		})
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := started
		mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the children did not both ask the model")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancelled := time.Now()
	h.s.Cancel()
	end := h.turnEnd(1)
	if took := time.Since(cancelled); took > 2*time.Second {
		t.Fatalf("the turn took %s to end after the cancel", took)
	}
	if end.State != event.TurnCancelled {
		t.Fatalf("turn ended %s", end.State)
	}
	evs := h.all()
	res := results(evs)
	for _, id := range []string{"t1", "t2"} {
		if r := res[id]; r == nil || r.Status != event.ToolCancelled || !strings.Contains(r.Output, "cancelled") {
			t.Fatalf("%s result %+v", id, r)
		}
		ups := subagentUpdates(evs, id)
		if last := ups[len(ups)-1]; last.State != event.SubagentCancelled {
			t.Fatalf("%s last update %+v", id, last)
		}
		ends := ofKind(sp.child(id), event.TurnEnded)
		if len(ends) != 1 || ends[0].End.State != event.TurnCancelled {
			t.Fatalf("child %s turns %s", id, dump(ends))
		}
	}
}

// Under an approval mode that asks, a child's write is asked about
// through the parent, under an id of its own, marked as the subagent's;
// the user's answer reaches the child.
func TestTaskChildApprovalGoesThroughTheParent(t *testing.T) {
	sp := &fakeSpawner{defs: map[string]Child{"writer": {Tools: []string{"write", "read"}, Instructions: "You write."}}}
	var wrote sync.Map
	write := &fakeTool{name: "write", kind: tools.KindEdit, writes: true, run: func(ctx context.Context, call tools.Call, args map[string]any) tools.Result {
		wrote.Store(args["path"], true)
		return tools.Result{Output: "written"}
	}}
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		switch {
		case !isChild(req) && len(toolResults(req)) == 0:
			return calls(task("t1", "Write notes", "write notes.txt", "agent", "writer"))
		case !isChild(req):
			return testserver.Text("parent done: " + toolResults(req)["t1"])
		case len(toolResults(req)) == 0:
			return calls(call("w1", "write", "notes.txt"))
		}
		return testserver.Text("child wrote: " + toolResults(req)["w1"])
	}}, func(c *Config) {
		c.Subagents = sp
		c.Approver = &askWrites{}
		c.Tools = tools.NewRegistry(&fakeTool{name: "read", kind: tools.KindRead}, write)
	})
	h.s.Submit("write the notes")
	ask := h.waitFor("the child's approval", func(e event.Event) bool { return e.Kind == event.ApprovalRequested })
	a := ask.Approval
	if ask.CallID != "t1/w1" || a.CallID != "t1/w1" || a.Subagent != "t1" || a.Agent != "writer" || a.Tool != "write" || a.Target != "notes.txt" {
		t.Fatalf("approval asked %+v", a)
	}
	if _, ok := wrote.Load("notes.txt"); ok {
		t.Fatal("the child wrote before the user answered")
	}
	h.s.Answer("t1/w1", event.Approve, "")
	h.turnEnd(1)
	if _, ok := wrote.Load("notes.txt"); !ok {
		t.Fatal("the approved write did not run")
	}
	evs := h.all()
	answered := ofKind(evs, event.ApprovalAnswered)
	if len(answered) != 1 || answered[0].CallID != "t1/w1" || answered[0].Approval.Decision != event.Approve || answered[0].Approval.Subagent != "t1" {
		t.Fatalf("answers %s", dump(answered))
	}
	if r := results(evs)["t1"]; r.Output != "child wrote: written" {
		t.Fatalf("task result %+v", r)
	}
	// The child's prompt told it its role and its agent's instructions.
	for _, req := range h.srv.Requests() {
		if isChild(req) && !strings.Contains(req.Messages[0].Content, "# Instructions of the agent \"writer\"\n\nYou write.") {
			t.Fatalf("child system prompt:\n%s", req.Messages[0].Content)
		}
	}
}

// A denial in a child stops the child, not the parent: the task call's
// result says what happened and the parent's turn goes on.
func TestTaskChildDenialIsTheCallsResult(t *testing.T) {
	sp := &fakeSpawner{defs: map[string]Child{"writer": {Tools: []string{"write"}}}}
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		switch {
		case !isChild(req) && len(toolResults(req)) == 0:
			return calls(task("t1", "Write notes", "write it", "agent", "writer"))
		case !isChild(req):
			return testserver.Text("ok, not written")
		}
		return calls(call("w1", "write", "notes.txt"))
	}}, func(c *Config) { c.Subagents = sp; c.Approver = &askWrites{} })
	h.s.Submit("write")
	h.approval("t1/w1")
	h.s.Answer("t1/w1", event.Deny, "not now")
	end := h.turnEnd(1)
	if end.State != event.TurnCompleted {
		t.Fatalf("the parent's turn ended %s", end.State)
	}
	r := results(h.all())["t1"]
	if r.Status != event.ToolError || !strings.Contains(r.Output, "stopped before it finished") || !strings.Contains(r.Output, "child-t1") {
		t.Fatalf("task result %+v", r)
	}
	if got := h.srv.Requests(); !strings.Contains(got[len(got)-1].LastMessage().Content, "stopped before it finished") {
		t.Fatalf("the parent model was not told: %+v", got[len(got)-1].LastMessage())
	}
}

// Unattended (quire exec), a child's write is denied by the policy like
// the parent's would be, and the parent's log says so.
func TestTaskUnattendedChildDenialIsMirrored(t *testing.T) {
	sp := &fakeSpawner{defs: map[string]Child{"writer": {Tools: []string{"write"}}}}
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		switch {
		case !isChild(req) && len(toolResults(req)) == 0:
			return calls(task("t1", "Write", "write it", "agent", "writer"))
		case !isChild(req):
			return testserver.Text("parent: " + toolResults(req)["t1"])
		case len(toolResults(req)) == 0:
			return calls(call("w1", "write", "notes.txt"))
		}
		return testserver.Text("could not write")
	}}, func(c *Config) { c.Subagents = sp; c.Approver = &askWrites{}; c.Unattended = true })
	h.s.Submit("write")
	h.turnEnd(1)
	evs := h.all()
	if len(ofKind(evs, event.ApprovalRequested)) != 0 {
		t.Fatal("an unattended child asked for approval")
	}
	den := ofKind(evs, event.ApprovalAnswered)
	if len(den) != 1 || den[0].CallID != "t1/w1" || !den[0].Approval.ByPolicy || den[0].Approval.Decision != event.Deny || den[0].Approval.Subagent != "t1" || den[0].Approval.Agent != "writer" {
		t.Fatalf("denials %s", dump(den))
	}
	if r := results(evs)["t1"]; r.Output != "could not write" {
		t.Fatalf("task result %+v", r)
	}
}

// A child that answers with nothing is asked again for its report; one
// that never gives one is a failed call, and the parent goes on.
func TestTaskAsksAgainForAMissingReport(t *testing.T) {
	for _, give := range []bool{true, false} {
		t.Run(fmt.Sprint("gives a report: ", give), func(t *testing.T) {
			sp := &fakeSpawner{}
			h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
				switch {
				case !isChild(req) && len(toolResults(req)) == 0:
					return calls(task("t1", "Do it", "do it"))
				case !isChild(req):
					return testserver.Text("parent done")
				case give && strings.Contains(req.LastMessage().Content, "You stopped without writing your report"):
					return testserver.Text("late report")
				}
				return testserver.Response{Text: []string{" "}}
			}}, withSubagents(sp))
			h.s.Submit("go")
			if end := h.turnEnd(1); end.State != event.TurnCompleted {
				t.Fatalf("parent turn %s", end.State)
			}
			r := results(h.all())["t1"]
			prompts := ofKind(sp.child("t1"), event.UserMessage)
			if give {
				if r.Output != "late report" || len(prompts) != 2 {
					t.Fatalf("result %+v after %d prompts", r, len(prompts))
				}
				return
			}
			if r.Status != event.ToolError || !strings.Contains(r.Output, "without a report") || len(prompts) != 1+reportAttempts {
				t.Fatalf("result %+v after %d prompts", r, len(prompts))
			}
		})
	}
}

// A child whose model fails is that call's error; the parent's turn goes
// on and completes.
func TestTaskChildFailureDoesNotEndTheParentsTurn(t *testing.T) {
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		switch {
		case !isChild(req) && len(toolResults(req)) == 0:
			return calls(task("t1", "Do it", "do it"))
		case !isChild(req):
			return testserver.Text("parent done")
		}
		return testserver.Fail(400, "the child's request is refused")
	}}, withSubagents(&fakeSpawner{}))
	h.s.Submit("go")
	if end := h.turnEnd(1); end.State != event.TurnCompleted {
		t.Fatalf("parent turn %s", end.State)
	}
	evs := h.all()
	r := results(evs)["t1"]
	if r.Status != event.ToolError || !strings.Contains(r.Output, "the subagent failed") || !strings.Contains(r.Output, "refused") {
		t.Fatalf("result %+v", r)
	}
	ups := subagentUpdates(evs, "t1")
	if last := ups[len(ups)-1]; last.State != event.SubagentFailed || !strings.Contains(last.Error, "refused") {
		t.Fatalf("last update %+v", last)
	}
}

// A call naming an agent that does not exist, or without its prompt, is
// refused before any child starts, with every problem named.
func TestTaskRefusesBadCalls(t *testing.T) {
	sp := &fakeSpawner{defs: map[string]Child{"explorer": {}}}
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		if len(toolResults(req)) == 0 {
			return calls(task("t1", "x", "y", "agent", "nobody"),
				testserver.ToolCall{ID: "t2", Name: TaskTool, Arguments: `{"description":""}`},
				testserver.ToolCall{ID: "t3", Name: TaskTool, Arguments: `{"description":"a","prompt":"b","colour":"red"}`})
		}
		return testserver.Text("done")
	}}, withSubagents(sp))
	h.s.Submit("go")
	h.turnEnd(1)
	evs := h.all()
	res := results(evs)
	for id, says := range map[string][]string{
		"t1": {`there is no agent named "nobody"`},
		"t2": {"description is missing", "prompt is missing"},
		"t3": {`unknown field "colour"`},
	} {
		for _, s := range says {
			if r := res[id]; r.Status != event.ToolError || !strings.Contains(r.Output, s) {
				t.Errorf("%s result %+v does not say %q", id, r, s)
			}
		}
	}
	if len(ofKind(evs, event.SubagentUpdate)) != 0 || len(sp.recs) != 0 {
		t.Fatal("a child started for a bad call")
	}
	// The agents are offered in the task tool's description and schema.
	desc := ""
	for _, tl := range h.srv.Requests()[0].Tools {
		if tl.Function.Name == TaskTool {
			desc = tl.Function.Description + string(tl.Function.Parameters)
		}
	}
	if !strings.Contains(desc, "- explorer: the explorer agent") || !strings.Contains(desc, `"enum":["explorer"]`) {
		t.Fatalf("task tool description: %s", desc)
	}
}

func TestNarrowTools(t *testing.T) {
	mk := func(name string, writes bool) tools.Tool { return &fakeTool{name: name, writes: writes} }
	parent := tools.NewRegistry(mk("read_file", false), mk("grep", false), mk("edit_file", true), mk("shell", true),
		mk("mcp__github__issues", true), mk("mcp__github__pr", true), mk("mcp__jira__search", true), mk(TaskTool, false))
	cases := []struct {
		name     string
		patterns []string
		want     []string
		warns    []string
	}{
		{"nothing named: the read-only tools", nil, []string{"grep", "read_file"}, nil},
		{"named tools only", []string{"read_file", "edit_file"}, []string{"edit_file", "read_file"}, nil},
		{"an MCP server's tools by pattern", []string{"grep", "mcp__github__*"}, []string{"grep", "mcp__github__issues", "mcp__github__pr"}, nil},
		{"everything is never the task tool", []string{"*"}, []string{"edit_file", "grep", "mcp__github__issues", "mcp__github__pr", "mcp__jira__search", "read_file", "shell"}, nil},
		{"nothing", []string{}, nil, nil},
		{"beyond the parent's is not given", []string{"read_file", "web_fetch", "mcp__slack__*"}, []string{"read_file"},
			[]string{"the subagent runs without web_fetch: this session has no tool of that name"}},
		{"the task tool is refused", []string{TaskTool, "grep"}, []string{"grep"},
			[]string{"the subagent runs without task: subagents cannot start subagents of their own"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg, warns := narrowTools(parent, c.patterns)
			var got []string
			for _, sp := range reg.Specs() {
				got = append(got, sp.Name)
			}
			if !reflect.DeepEqual(got, c.want) || !reflect.DeepEqual(warns, c.warns) {
				t.Fatalf("got %v %q, want %v %q", got, warns, c.want, c.warns)
			}
		})
	}
}

// A child never gets the task tool, whatever its agent names, and its
// writes are planned as writes of the working directory.
func TestTaskDepthLimitAndPlan(t *testing.T) {
	sp := &fakeSpawner{defs: map[string]Child{"all": {Tools: []string{"*"}}}}
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		switch {
		case !isChild(req) && len(toolResults(req)) == 0:
			return calls(task("t1", "Everything", "go", "agent", "all"))
		case !isChild(req):
			return testserver.Text("done")
		case len(toolResults(req)) == 0:
			return calls(task("nested", "Deeper", "go deeper"))
		}
		return testserver.Text("child: " + toolResults(req)["nested"])
	}}, withSubagents(sp))
	h.s.Submit("go")
	h.turnEnd(1)
	for _, req := range h.srv.Requests() {
		if isChild(req) && strings.Contains(strings.Join(toolNames(req), ","), TaskTool) {
			t.Fatalf("a child was offered %v", toolNames(req))
		}
	}
	r := results(h.all())["t1"]
	if !strings.Contains(r.Output, `child: error: there is no tool named "task"`) {
		t.Fatalf("result %+v", r)
	}
	tt := taskTool{s: h.s, spec: taskSpec(sp)}
	env := &tools.Env{Dir: "/w"}
	p, err := tt.Plan(env, nil, json.RawMessage(`{"description":"d","prompt":"p","agent":"all"}`))
	if err != nil || !reflect.DeepEqual(p.Writes, []string{"/w"}) || !reflect.DeepEqual(p.Reads, []string{"/w"}) {
		t.Fatalf("a writing child's plan %+v %v", p, err)
	}
	p, err = tt.Plan(env, nil, json.RawMessage(`{"description":"d","prompt":"p"}`))
	if err != nil || p.Writes != nil || p.Target != "d" {
		t.Fatalf("a read-only child's plan %+v %v", p, err)
	}
}

func TestTurnCostOfChildren(t *testing.T) {
	price := func(u event.Usage) (float64, bool) { return float64(u.TotalTokens), true }
	unknown := func(event.Usage) (float64, bool) { return 0, false }
	two := 2.0
	cases := []struct {
		name  string
		own   int
		child *event.Usage
		cost  *float64
		price func(event.Usage) (float64, bool)
		want  *float64
	}{
		{"own and child known", 3, &event.Usage{TotalTokens: 5}, &two, price, ptr(5)},
		{"child price unknown", 3, &event.Usage{TotalTokens: 5}, nil, price, nil},
		{"own price unknown", 3, &event.Usage{TotalTokens: 5}, &two, unknown, nil},
		{"only the child used tokens", 0, &event.Usage{TotalTokens: 5}, &two, unknown, ptr(2)},
		{"nothing used", 0, nil, nil, price, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tn := &turn{usage: event.Usage{TotalTokens: c.own}}
			tn.addChildUsage(c.child, c.cost)
			got := tn.cost(c.price)
			if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
				t.Fatalf("cost %v, want %v", deref(got), deref(c.want))
			}
		})
	}
}

func ptr(f float64) *float64 { return &f }

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

func TestBoundReport(t *testing.T) {
	if got := boundReport("short", "s1"); got != "short" {
		t.Fatalf("%q", got)
	}
	long := strings.Repeat("é", maxReportBytes) // 2 bytes each
	got := boundReport(long, "s1")
	if !strings.HasSuffix(got, "The whole of it is in session s1.]") || len(got) > maxReportBytes+200 || !strings.HasPrefix(got, "éé") {
		t.Fatalf("bounded report ends %q (%d bytes)", got[len(got)-80:], len(got))
	}
	if cut := got[:strings.Index(got, "\n\n[")]; len(cut)%2 != 0 {
		t.Fatal("the cut split a character")
	}
}

// The definitions' problems are warnings as the session starts.
func TestSpawnerNoticesAtStart(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{testserver.Text("hi")}},
		withSubagents(&fakeSpawner{notices: []string{"agent definition x.md: it has no description; it is skipped"}}))
	h.s.Submit("hi")
	h.turnEnd(1)
	evs := h.all()
	if evs[1].Kind != event.Notice || evs[1].Level != "warn" || !strings.Contains(evs[1].Text, "x.md") {
		t.Fatalf("events start %s", dump(evs[:2]))
	}
}

// quire exec shows a subagent's progress and says which subagent had a
// call denied.
func TestExecShowsSubagentProgressAndDenials(t *testing.T) {
	sp := &fakeSpawner{defs: map[string]Child{"writer": {Tools: []string{"read", "write"}}}}
	state, err, out, errOut, _ := execWith(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		switch {
		case !isChild(req) && len(toolResults(req)) == 0:
			return calls(task("t1", "Write notes", "write it", "agent", "writer"))
		case !isChild(req):
			return testserver.Text("parent: " + toolResults(req)["t1"])
		case len(toolResults(req)) == 0:
			return calls(call("r1", "read", "a.go"), call("w1", "write", "notes.txt"))
		}
		return testserver.Text("wrote nothing")
	}}, ExecOptions{Progress: true}, func(c *Config) { c.Subagents = sp; c.Approver = &askWrites{}; c.ApprovalMode = "ask" })
	if err != nil || state != event.TurnCompleted || out != "parent: wrote nothing\n" {
		t.Fatalf("state %s err %v out %q", state, err, out)
	}
	for _, want := range []string{"→ task Write notes", "writer → read a.go", "writer → write notes.txt", "quire: subagent writer: denied write notes.txt"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// A child runs under the parent's sandbox profile, approver and mode, and
// its writes are checkpointed in the parent's turn (so /rewind of that
// turn puts them back); it never has a spawner of its own.
func TestChildConfigKeepsTheParentsLimits(t *testing.T) {
	var got []string
	approver := &askWrites{}
	s := &Session{cfg: Config{
		SessionID: "p", Model: "m", ApprovalMode: "ask", Sandbox: "strict", Approver: approver, Unattended: true,
		MaxToolRounds: 100, ToolCancelGrace: time.Second, Subagents: &fakeSpawner{},
		Env: &tools.Env{Dir: "/w", BeforeWrite: func(turn int, path string) error {
			got = append(got, fmt.Sprintf("%d:%s", turn, path))
			return nil
		}},
	}}
	a := &taskAction{child: Child{Agent: "writer", Instructions: "Write well."}, tools: tools.NewRegistry()}
	c := s.childConfig(a, nil, "c", 7, event.ParentLink{Session: "p", CallID: "t1"})
	if c.Approver != approver || c.ApprovalMode != "ask" || c.Sandbox != "strict" || !c.Unattended || c.Env.Dir != "/w" {
		t.Fatalf("the child loosened the parent's limits: %+v", c)
	}
	if c.Subagents != nil || c.MaxToolRounds != childToolRounds || c.ToolCancelGrace != time.Second/2 || c.Model != "m" {
		t.Fatalf("child config %+v", c)
	}
	c.Env.BeforeWrite(1, "/w/a.go") // the child's own turn 1
	if len(got) != 1 || got[0] != "7:/w/a.go" {
		t.Fatalf("the child's write was checkpointed as %v, want in the parent's turn 7", got)
	}
	if !strings.Contains(c.Role, "You are a subagent") || !strings.Contains(c.Role, "Write well.") {
		t.Fatalf("role %q", c.Role)
	}
}

// A task call whose turn is cancelled before its child begins never lets
// the child ask its model.
func TestTaskCancelledBeforeTheChildBegins(t *testing.T) {
	cfg := baseConfig(t, "http://127.0.0.1:1/v1")
	sampler := &countingSampler{}
	cfg.Sampler = sampler
	sp := &fakeSpawner{}
	cfg.Subagents = sp
	s := &Session{cfg: cfg, work: make(chan any, 256), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := &callState{call: event.ToolCall{ID: "t1", Name: TaskTool},
		plan: tools.Plan{Action: &taskAction{args: taskArgs{Description: "d", Prompt: "p"}, tools: tools.NewRegistry()}}}
	res := s.runTask(ctx, 1, 1, c)
	if !res.IsError || !strings.Contains(res.Output, "cancelled") {
		t.Fatalf("result %+v", res)
	}
	if n := sampler.calls.Load(); n != 0 {
		t.Fatalf("the child asked its model %d times", n)
	}
}

// countingSampler answers every request with "ok" and counts them.
type countingSampler struct{ calls atomic.Int64 }

func (c *countingSampler) Stream(ctx context.Context, req llm.Request, h llm.Handler) (llm.Response, error) {
	c.calls.Add(1)
	return llm.Response{Text: "ok", FinishReason: llm.FinishStop}, nil
}

// A child that reaches its tool-round cap stops there, with no recovery
// attempt, and the call's result says why.
func TestTaskChildRoundCap(t *testing.T) {
	sp := &fakeSpawner{}
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		switch {
		case !isChild(req) && len(toolResults(req)) == 0:
			return calls(task("t1", "Loop", "go"))
		case !isChild(req):
			return testserver.Text("parent done")
		}
		return calls(call(fmt.Sprintf("r%d", n), "read", fmt.Sprintf("f%d", n)))
	}}, func(c *Config) { c.Subagents = sp; c.MaxToolRounds = 2 })
	h.s.Submit("go")
	h.turnEnd(1)
	r := results(h.all())["t1"]
	if r.Status != event.ToolError || !strings.Contains(r.Output, "limit of 2 tool rounds") {
		t.Fatalf("result %+v", r)
	}
	if prompts := ofKind(sp.child("t1"), event.UserMessage); len(prompts) != 1 {
		t.Fatalf("the child was prompted %d times; a capped child is not asked again", len(prompts))
	}
}

// Hooks fire for subagents: SubagentStart and SubagentStop carry the
// agent, its task and its session (and how it ended), and the user's
// PreToolUse hooks gate a child's calls as they do the parent's.
func TestSubagentHooks(t *testing.T) {
	sp := &fakeSpawner{defs: map[string]Child{"writer": {Tools: []string{"write"}}}}
	hooks := &fakeHooks{gated: map[string]bool{"write": true}, verdicts: map[string]HookVerdict{
		"w1": {Decision: HookDeny, Reason: "no writes from subagents", Hook: "./guard.sh"},
	}}
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		switch {
		case !isChild(req) && len(toolResults(req)) == 0:
			return calls(task("t1", "Write notes", "write it", "agent", "writer"))
		case !isChild(req):
			return testserver.Text("parent done")
		case len(toolResults(req)) == 0:
			return calls(call("w1", "write", "notes.txt"))
		}
		return testserver.Text("child: " + toolResults(req)["w1"])
	}}, func(c *Config) { c.Subagents = sp; c.Hooks = hooks })
	h.s.Submit("write")
	h.turnEnd(1)
	h.close()
	hooks.mu.Lock()
	pre := append([]HookEvent(nil), hooks.pre...)
	hooks.mu.Unlock()
	if len(pre) != 1 || pre[0].Tool != "write" || pre[0].CallID != "w1" {
		t.Fatalf("PreToolUse saw %+v, want the child's write", pre)
	}
	if r := results(h.all())["t1"]; !strings.Contains(r.Output, "no writes from subagents") {
		t.Errorf("the child was not told the hook's reason: %+v", r)
	}
	start, stop := hooks.find(HookSubagentStart), hooks.find(HookSubagentStop)
	if len(start) != 1 || len(stop) != 1 {
		t.Fatalf("SubagentStart %d, SubagentStop %d times", len(start), len(stop))
	}
	if s := start[0].Subagent; s == nil || s.Agent != "writer" || s.Description != "Write notes" || s.Session == "" || start[0].CallID != "t1" || start[0].Tool != TaskTool {
		t.Errorf("SubagentStart %+v %+v", start[0], start[0].Subagent)
	}
	if s := stop[0].Subagent; s == nil || !s.State.Done() {
		t.Errorf("SubagentStop %+v", stop[0].Subagent)
	}
}

package engine

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/tools"
)

func TestToolThenText(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		{Text: []string{"Reading."}, ToolCalls: []testserver.ToolCall{{ID: "c1", Name: "read", Arguments: `{"path":"a.go"}`, Split: 4}}},
		testserver.Text("It says ok."),
	}}, nil)
	h.s.Submit("what is in a.go?")
	if end := h.turnEnd(1); end.State != event.TurnCompleted {
		t.Fatalf("end %+v", end)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	asst, tool := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if len(asst.ToolCalls) != 1 || asst.ToolCalls[0].ID != "c1" || asst.ToolCalls[0].Function.Arguments != `{"path":"a.go"}` || asst.Content != "Reading." {
		t.Errorf("assistant message sent back: %+v", asst)
	}
	if tool.Role != "tool" || tool.ToolCallID != "c1" || tool.Content != "read a.go ok" {
		t.Errorf("tool message: %+v", tool)
	}
	reqd := ofKind(h.all(), event.ToolCallRequested)
	if len(reqd) != 1 || reqd[0].Call.ToolKind != "read" || reqd[0].Call.Target != "a.go" {
		t.Errorf("tool call event %+v", reqd)
	}
}

// Five calls that all need approval; the user approves two and denies the
// third.
func TestDenialStopsTheRemainingCalls(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		calls(call("c1", "write", "1"), call("c2", "write", "2"), call("c3", "write", "3"), call("c4", "write", "4"), call("c5", "write", "5")),
		testserver.Text("ok, I will not."),
	}}, func(c *Config) { c.Approver = &askWrites{} })
	h.s.Submit("write five files")
	h.approval("c1")
	h.s.Answer("c1", event.Approve, "")
	h.approval("c2")
	h.s.Answer("c2", event.Approve, "")
	h.approval("c3")
	h.s.Answer("c3", event.Deny, "not that one")
	end := h.turnEnd(1)
	if end.State != event.TurnCancelled {
		t.Fatalf("state %s", end.State)
	}
	res := results(h.all())
	want := map[string]event.ToolStatus{"c1": event.ToolOK, "c2": event.ToolOK, "c3": event.ToolDenied, "c4": event.ToolCancelled, "c5": event.ToolCancelled}
	for id, st := range want {
		if res[id] == nil || res[id].Status != st {
			t.Errorf("%s: %+v, want %s", id, res[id], st)
		}
	}
	if !strings.Contains(res["c3"].Output, "not that one") {
		t.Errorf("denial reason lost: %q", res["c3"].Output)
	}
	if n := len(ofKind(h.all(), event.ApprovalRequested)); n != 3 {
		t.Errorf("%d approvals asked, want 3", n)
	}
	// The next request carries a result for every call, in order.
	h.s.Submit("fine")
	h.turnEnd(2)
	reqs := h.srv.Requests()
	var ids []string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" {
			ids = append(ids, m.ToolCallID)
		}
	}
	if strings.Join(ids, ",") != "c1,c2,c3,c4,c5" {
		t.Fatalf("tool messages %v", ids)
	}
}

func TestApproveForSessionIsRemembered(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		calls(call("c1", "write", "1"), call("c2", "write", "2")),
		testserver.Text("done"),
	}}, func(c *Config) { c.Approver = &askWrites{} })
	h.s.Submit("go")
	h.approval("c1")
	h.s.Answer("c1", event.ApproveSession, "")
	if end := h.turnEnd(1); end.State != event.TurnCompleted {
		t.Fatalf("end %+v", end)
	}
	if n := len(ofKind(h.all(), event.ApprovalRequested)); n != 1 {
		t.Fatalf("asked %d times", n)
	}
}

func TestNewPromptDuringApprovalInterjects(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		calls(call("c1", "write", "1"), call("c2", "write", "2"), call("c3", "write", "3"), call("c4", "write", "4")),
		testserver.Text("switching"),
	}}, func(c *Config) { c.Approver = &askWrites{} })
	h.s.Submit("go")
	h.approval("c1")
	h.s.Answer("c1", event.Approve, "")
	h.approval("c2")
	h.s.Submit("actually, stop")
	if end := h.turnEnd(1); end.State != event.TurnCancelled {
		t.Fatalf("turn 1: %+v", end)
	}
	res := results(h.all())
	if res["c1"].Status != event.ToolOK {
		t.Errorf("approved call did not run: %+v", res["c1"])
	}
	for _, id := range []string{"c2", "c3", "c4"} {
		if res[id] == nil || res[id].Status != event.ToolCancelled {
			t.Errorf("%s: %+v", id, res[id])
		}
	}
	if end := h.turnEnd(2); end.State != event.TurnCompleted {
		t.Fatalf("turn 2: %+v", end)
	}
	// A late answer for the old call is ignored.
	h.s.Answer("c2", event.Approve, "")
	if h.s.Info().Running {
		t.Error("a stale answer started something")
	}
}

func TestCancelDuringApproval(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		calls(call("c1", "read", "a"), call("c2", "write", "b")),
	}}, func(c *Config) { c.Approver = &askWrites{} })
	h.s.Submit("go")
	h.approval("c2")
	h.s.Cancel()
	if end := h.turnEnd(1); end.State != event.TurnCancelled {
		t.Fatalf("end %+v", end)
	}
	res := results(h.all())
	if len(res) != 2 || res["c1"].Status != event.ToolCancelled || res["c2"].Status != event.ToolCancelled {
		t.Fatalf("results %+v %+v", res["c1"], res["c2"])
	}
}

// Three reads run at once and finish in the order 2, 3, 1; their results
// go back to the model in the order of the calls.
func TestParallelCallsKeepRequestOrder(t *testing.T) {
	started := make(chan string, 3)
	release := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{}), "c": make(chan struct{})}
	slow := &fakeTool{name: "read", kind: tools.KindRead, run: func(ctx context.Context, c tools.Call, args map[string]any) tools.Result {
		p := args["path"].(string)
		started <- p
		select {
		case <-release[p]:
		case <-ctx.Done():
		}
		return tools.Result{Output: "content of " + p}
	}}
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
		calls(call("c1", "read", "a"), call("c2", "read", "b"), call("c3", "read", "c")),
		testserver.Text("done"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h := &harness{t: t, srv: srv, rec: &recorder{}, more: make(chan struct{}, 1), closed: make(chan struct{})}
	h.s, err = New(baseConfig(t, srv.URL(), slow))
	if err != nil {
		t.Fatal(err)
	}
	h.collect()
	defer h.close()
	h.s.Submit("read three")
	for i := 0; i < 3; i++ {
		select {
		case <-started:
		case <-time.After(5 * time.Second):
			t.Fatal("the calls did not all start together")
		}
	}
	for _, c := range []struct{ path, id string }{{"b", "c2"}, {"c", "c3"}, {"a", "c1"}} {
		close(release[c.path])
		h.waitFor(c.id+" to finish", func(e event.Event) bool { return e.Kind == event.ToolFinished && e.CallID == c.id })
	}
	h.turnEnd(1)
	var got []string
	for _, m := range srv.Requests()[1].Messages {
		if m.Role == "tool" {
			got = append(got, m.ToolCallID+"="+m.Content)
		}
	}
	if strings.Join(got, ";") != "c1=content of a;c2=content of b;c3=content of c" {
		t.Fatalf("tool messages %v", got)
	}
	var order []string
	for _, e := range ofKind(h.all(), event.ToolFinished) {
		order = append(order, e.CallID)
	}
	if strings.Join(order, ",") != "c2,c3,c1" {
		t.Errorf("finish order %v, want c2,c3,c1", order)
	}
}

// Writes to one path never overlap and apply in model order; writes to
// different paths run at the same time.
func TestWritesToOnePathAreSerialised(t *testing.T) {
	var mu sync.Mutex
	active := map[string]int{}
	var order []string
	var overlapSame atomic.Bool
	bothRunning := make(chan struct{})
	var running atomic.Int32
	w := &fakeTool{name: "write", kind: tools.KindEdit, writes: true, run: func(ctx context.Context, c tools.Call, args map[string]any) tools.Result {
		p := args["path"].(string)
		mu.Lock()
		active[p]++
		if active[p] > 1 {
			overlapSame.Store(true)
		}
		order = append(order, c.ID)
		mu.Unlock()
		if p == "other" || p == "same" && c.ID == "c1" {
			// c1 (same) and c3 (other) must be able to run together.
			if running.Add(1) == 2 {
				close(bothRunning)
			}
			select {
			case <-bothRunning:
			case <-time.After(5 * time.Second):
				return tools.Result{Output: "never ran alongside", IsError: true}
			}
		}
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		active[p]--
		mu.Unlock()
		return tools.Result{Output: "wrote " + p}
	}}
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
		calls(call("c1", "write", "same"), call("c2", "write", "same"), call("c3", "write", "other")),
		testserver.Text("done"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h := &harness{t: t, srv: srv, rec: &recorder{}, more: make(chan struct{}, 1), closed: make(chan struct{})}
	h.s, err = New(baseConfig(t, srv.URL(), w))
	if err != nil {
		t.Fatal(err)
	}
	h.collect()
	defer h.close()
	h.s.Submit("write")
	h.turnEnd(1)
	if overlapSame.Load() {
		t.Fatal("two writes to the same path overlapped")
	}
	res := results(h.all())
	for _, id := range []string{"c1", "c2", "c3"} {
		if res[id].Status != event.ToolOK {
			t.Errorf("%s: %+v", id, res[id])
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if idx := strings.Index(strings.Join(order, ","), "c1"); idx > strings.Index(strings.Join(order, ","), "c2") {
		t.Errorf("writes to one path ran out of order: %v", order)
	}
}

func TestToolErrorIsDataAndTheLoopGoesOn(t *testing.T) {
	failing := &fakeTool{name: "read", kind: tools.KindRead, run: func(ctx context.Context, c tools.Call, args map[string]any) tools.Result {
		if args["path"] == "missing" {
			return tools.Result{Output: "error: missing: no such file", IsError: true}
		}
		return tools.Result{Output: "fine"}
	}}
	panicking := &fakeTool{name: "explode", kind: tools.KindOther, run: func(context.Context, tools.Call, map[string]any) tools.Result {
		panic("boom")
	}}
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
		calls(call("c1", "read", "missing"), call("c2", "read", "here"), call("c3", "explode", "x")),
		testserver.Text("adapted"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h := &harness{t: t, srv: srv, rec: &recorder{}, more: make(chan struct{}, 1), closed: make(chan struct{})}
	h.s, err = New(baseConfig(t, srv.URL(), failing, panicking))
	if err != nil {
		t.Fatal(err)
	}
	h.collect()
	defer h.close()
	h.s.Submit("go")
	if end := h.turnEnd(1); end.State != event.TurnCompleted {
		t.Fatalf("end %+v", end)
	}
	res := results(h.all())
	if res["c1"].Status != event.ToolError || res["c1"].Output != "error: missing: no such file" {
		t.Errorf("c1 %+v", res["c1"])
	}
	if res["c2"].Status != event.ToolOK || !strings.Contains(res["c3"].Output, "crashed: boom") {
		t.Errorf("c2 %+v c3 %+v", res["c2"], res["c3"])
	}
	if len(srv.Requests()) != 2 {
		t.Fatal("the turn did not sample again")
	}
}

func TestBadCallsGetErrorResults(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		calls(
			testserver.ToolCall{ID: "c1", Name: "read", Arguments: `{"path": "a.go"`, Split: 3},
			testserver.ToolCall{ID: "c2", Name: "teleport", Arguments: `{}`},
			testserver.ToolCall{ID: "c3", Name: "read", Arguments: `["a"]`},
			testserver.ToolCall{ID: "c4", Name: "read", Arguments: `{"path": 7}`},
		),
		testserver.Text("sorry"),
	}}, nil)
	h.s.Submit("go")
	if end := h.turnEnd(1); end.State != event.TurnCompleted {
		t.Fatalf("end %+v", end)
	}
	res := results(h.all())
	checks := map[string]string{"c1": "not valid JSON", "c2": `no tool named "teleport"`, "c3": "must be a JSON object", "c4": "bad arguments"}
	for id, want := range checks {
		if r := res[id]; r == nil || r.Status != event.ToolError || !strings.Contains(r.Output, want) {
			t.Errorf("%s: %+v, want an error saying %q", id, r, want)
		}
	}
	if !strings.Contains(res["c2"].Output, "read, write") {
		t.Errorf("unknown tool error does not list the tools: %q", res["c2"].Output)
	}
	// The model gets its malformed arguments back exactly as it wrote them.
	msgs := h.srv.Requests()[1].Messages
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if c.ID == "c1" && c.Function.Arguments != `{"path": "a.go"` {
				t.Errorf("c1 arguments sent back as %q", c.Function.Arguments)
			}
		}
	}
}

func TestCancelReachesRunningTools(t *testing.T) {
	running := make(chan struct{})
	var once sync.Once
	block := &fakeTool{name: "read", kind: tools.KindRead, run: func(ctx context.Context, c tools.Call, args map[string]any) tools.Result {
		if args["path"] == "stubborn" {
			once.Do(func() { close(running) })
			time.Sleep(3 * time.Second) // ignores ctx
			return tools.Result{Output: "late"}
		}
		<-ctx.Done()
		return tools.Result{Output: "interrupted", IsError: true}
	}}
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
		calls(call("c1", "read", "polite"), call("c2", "read", "stubborn")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h := &harness{t: t, srv: srv, rec: &recorder{}, more: make(chan struct{}, 1), closed: make(chan struct{})}
	h.s, err = New(baseConfig(t, srv.URL(), block))
	if err != nil {
		t.Fatal(err)
	}
	h.collect()
	defer h.close()
	h.s.Submit("go")
	<-running
	h.s.Cancel()
	end := h.turnEnd(1)
	if end.State != event.TurnCancelled {
		t.Fatalf("end %+v", end)
	}
	res := results(h.all())
	if res["c1"].Status != event.ToolCancelled || res["c2"].Status != event.ToolCancelled || !strings.Contains(res["c2"].Output, "did not stop") {
		t.Fatalf("c1 %+v c2 %+v", res["c1"], res["c2"])
	}
}

func TestToolOutputIsStreamed(t *testing.T) {
	streamer := &fakeTool{name: "read", kind: tools.KindRead, run: func(ctx context.Context, c tools.Call, args map[string]any) tools.Result {
		c.Output([]byte("line 1\n\xe4\xb8"))
		c.Output([]byte("\xadline 2\n"))
		return tools.Result{Output: "line 1\n中line 2\n"}
	}}
	srv, _ := testserver.Start(testserver.Script{Responses: []testserver.Response{calls(call("c1", "read", "x")), testserver.Text("ok")}})
	defer srv.Close()
	h := &harness{t: t, srv: srv, rec: &recorder{}, more: make(chan struct{}, 1), closed: make(chan struct{})}
	var err error
	h.s, err = New(baseConfig(t, srv.URL(), streamer))
	if err != nil {
		t.Fatal(err)
	}
	h.collect()
	defer h.close()
	h.s.Submit("go")
	h.turnEnd(1)
	var out strings.Builder
	for _, e := range ofKind(h.all(), event.ToolOutputDelta) {
		if e.CallID != "c1" {
			t.Errorf("delta for %q", e.CallID)
		}
		out.WriteString(e.Text)
	}
	if out.String() != "line 1\n中line 2\n" {
		t.Fatalf("streamed %q", out.String())
	}
}

func TestRepeatedCallStopsTheTurn(t *testing.T) {
	same := func(id string) testserver.Response { return calls(call(id, "read", "loop.go")) }
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{same("c1"), same("c2"), same("c3"), same("c4")}}, nil)
	h.s.Submit("go")
	if end := h.turnEnd(1); end.State != event.TurnCancelled {
		t.Fatalf("end %+v", end)
	}
	res := results(h.all())
	if res["c1"].Status != event.ToolOK || res["c2"].Status != event.ToolOK || res["c3"].Status != event.ToolCancelled {
		t.Fatalf("results %+v %+v %+v", res["c1"], res["c2"], res["c3"])
	}
	if len(h.srv.Requests()) != 3 {
		t.Errorf("%d requests", len(h.srv.Requests()))
	}
	if n := ofKind(h.all(), event.Notice); len(n) != 1 || !strings.Contains(n[0].Text, "3 times in a row") {
		t.Errorf("notices %+v", n)
	}
}

func TestToolRoundCap(t *testing.T) {
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		return calls(call("c"+string(rune('a'+n)), "read", string(rune('a'+n))))
	}}, func(c *Config) { c.MaxToolRounds = 3 })
	h.s.Submit("go")
	if end := h.turnEnd(1); end.State != event.TurnCancelled {
		t.Fatalf("end %+v", end)
	}
	if n := len(h.srv.Requests()); n != 4 {
		t.Errorf("%d requests, want 4 (3 rounds, then the 4th batch is refused)", n)
	}
	res := results(h.all())
	if r := res["cd"]; r == nil || r.Status != event.ToolCancelled || !strings.Contains(r.Output, "limit of 3") {
		t.Errorf("capped call: %+v", r)
	}
}

func FuzzDecodeArguments(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"a":1}`, `{"a":`, `"str"`, `[1]`, "  {\"x\": \"\xff\"} ", `null`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		args := decodeArguments(raw)
		if !json.Valid(args) {
			t.Fatalf("decodeArguments(%q) = %q: not JSON", raw, args)
		}
		back := wireArguments(args)
		trimmed := strings.TrimSpace(raw)
		switch {
		case trimmed == "":
			if back != "{}" {
				t.Fatalf("empty arguments sent back as %q", back)
			}
		case json.Valid([]byte(trimmed)) && !strings.HasPrefix(trimmed, `"`):
			if back != trimmed {
				t.Fatalf("valid arguments %q sent back as %q", trimmed, back)
			}
		default:
			// Invalid UTF-8 cannot be kept in a JSON log; anything else
			// goes back exactly as the model wrote it.
			if utf8.ValidString(raw) && back != raw || !utf8.ValidString(back) {
				t.Fatalf("invalid arguments %q sent back as %q", raw, back)
			}
		}
		argumentsObject(args) // must not panic
	})
}

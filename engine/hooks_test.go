package engine

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
)

// fakeHooks is a Hooks whose verdicts a test sets, recording what it is
// given.
type fakeHooks struct {
	mu       sync.Mutex
	gated    map[string]bool        // tool → has PreToolUse hooks
	verdicts map[string]HookVerdict // call id → verdict
	// wait, when set, holds PreToolUse until ctx ends.
	wait bool
	// problemOn names an observed event whose hook "fails".
	problemOn string

	pre      []HookEvent
	observed []HookEvent
	// seen is what the recorder held when each observed event arrived.
	seen []int
	rec  *recorder
}

func (f *fakeHooks) Gates(tool string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gated[tool]
}

func (f *fakeHooks) PreToolUse(ctx context.Context, e HookEvent) HookVerdict {
	f.mu.Lock()
	f.pre = append(f.pre, e)
	v, wait := f.verdicts[e.CallID], f.wait
	f.mu.Unlock()
	if wait {
		<-ctx.Done()
	}
	return v
}

func (f *fakeHooks) Observe(e HookEvent, report func(string)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.observed = append(f.observed, e)
	if f.rec != nil {
		f.seen = append(f.seen, len(f.rec.snapshot()))
	}
	if e.Name == f.problemOn {
		go report("hook `./notify.sh` (" + e.Name + ") timed out after 1s; quire went on without it")
	}
}

func (f *fakeHooks) names() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, e := range f.observed {
		out = append(out, e.Name)
	}
	return out
}

func (f *fakeHooks) find(name string) []HookEvent {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []HookEvent
	for _, e := range f.observed {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// A PreToolUse hook runs for each call in the model's order before the
// user is asked: a refusal never reaches the user, gives the call a
// denied result holding the hook's reason, fires PermissionDenied and
// lets the turn go on; a call no hook refuses is then put to the user.
func TestPreToolUseHookRefusesBeforeTheUserIsAsked(t *testing.T) {
	hooks := &fakeHooks{
		gated:    map[string]bool{"write": true},
		verdicts: map[string]HookVerdict{"a": {Decision: HookDeny, Reason: "a.txt is generated; edit a.in", Hook: "./guard.sh"}},
	}
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		calls(call("a", "write", "a.txt"), call("b", "write", "b.txt"), call("c", "read", "c.txt")),
		testserver.Text("done"),
	}}, func(c *Config) { c.Approver = &askWrites{}; c.Hooks = hooks })
	h.s.Submit("go")
	h.approval("b")
	hooks.mu.Lock()
	pre := append([]HookEvent(nil), hooks.pre...)
	hooks.mu.Unlock()
	if len(pre) != 2 || pre[0].CallID != "a" || pre[1].CallID != "b" || pre[0].Tool != "write" || string(pre[0].Arguments) != `{"path":"a.txt"}` || pre[0].SessionID == "" || pre[0].Cwd == "" {
		t.Fatalf("PreToolUse saw %+v; want a then b, before b's approval, with the call's arguments", pre)
	}
	h.s.Answer("b", event.Approve, "")
	if end := h.turnEnd(1); end.State != event.TurnCompleted {
		t.Fatalf("turn ended %s: a hook's refusal must not stop the turn", end.State)
	}
	evs := h.all()
	for _, e := range ofKind(evs, event.ApprovalRequested) {
		if e.CallID == "a" {
			t.Error("the user was asked about a call a hook refused")
		}
	}
	var answered *event.Approval
	for _, e := range ofKind(evs, event.ApprovalAnswered) {
		if e.CallID == "a" {
			answered = e.Approval
		}
	}
	if answered == nil || answered.Decision != event.Deny || answered.Hook != "./guard.sh" || !strings.Contains(answered.Reason, "edit a.in") {
		t.Errorf("the refusal is not in the log as the hook's: %+v", answered)
	}
	res := results(evs)
	if r := res["a"]; r.Status != event.ToolDenied || !strings.Contains(r.Output, "a.txt is generated; edit a.in") {
		t.Errorf("a: %+v", r)
	}
	if res["b"].Status != event.ToolOK || res["c"].Status != event.ToolOK {
		t.Errorf("b %+v, c %+v", res["b"], res["c"])
	}
	if got := h.srv.Requests()[1].Messages; !strings.Contains(toolMessage(got, "a"), "edit a.in") {
		t.Errorf("the model was not told the hook's reason: %+v", got)
	}
	denied := hooks.find(HookPermissionDenied)
	if len(denied) != 1 || denied[0].DeniedBy != "hook" || denied[0].CallID != "a" {
		t.Errorf("PermissionDenied: %+v", denied)
	}
	if post := hooks.find(HookPostToolUse); len(post) != 2 || post[0].Result == nil || post[0].Result.Output == "" {
		t.Errorf("PostToolUse fired for %+v; want b and c, with their results", post)
	}
}

// toolMessage is the content of the tool message answering callID.
func toolMessage(msgs []testserver.Message, callID string) string {
	for _, m := range msgs {
		if m.Role == "tool" && m.ToolCallID == callID {
			return m.Content
		}
	}
	return ""
}

// A hook that asks for the user makes quire ask even where the approval
// mode would not; unattended, that is a policy denial.
func TestPreToolUseHookCanAskForTheUser(t *testing.T) {
	for _, unattended := range []bool{false, true} {
		hooks := &fakeHooks{gated: map[string]bool{"read": true}, verdicts: map[string]HookVerdict{"r": {Decision: HookAsk}}}
		h := newHarness(t, testserver.Script{Responses: []testserver.Response{calls(call("r", "read", "secret.txt")), testserver.Text("ok")}},
			func(c *Config) { c.Approver = &askWrites{}; c.Hooks = hooks; c.Unattended = unattended })
		h.s.Submit("go")
		if unattended {
			h.turnEnd(1)
			if r := results(h.all())["r"]; r.Status != event.ToolDenied {
				t.Errorf("unattended: %+v", r)
			}
			if d := hooks.find(HookPermissionDenied); len(d) != 1 || d[0].DeniedBy != "policy" {
				t.Errorf("unattended PermissionDenied: %+v", d)
			}
			continue
		}
		h.approval("r")
		if n := hooks.find(HookNotification); len(n) != 1 || !strings.Contains(n[0].Message, "read") {
			t.Errorf("Notification: %+v", n)
		}
		h.s.Answer("r", event.Deny, "not that one")
		h.turnEnd(1)
		if d := hooks.find(HookPermissionDenied); len(d) != 1 || d[0].DeniedBy != "user" || d[0].Reason != "not that one" {
			t.Errorf("PermissionDenied: %+v", d)
		}
	}
}

// Hooks fail open: a hook that failed is shown as a notice and the call
// goes on.
func TestPreToolUseProblemsAreShownAndTheCallRuns(t *testing.T) {
	hooks := &fakeHooks{gated: map[string]bool{"read": true}, verdicts: map[string]HookVerdict{"r": {Problems: []string{"hook `./slow.sh` (PreToolUse) timed out after 1s; the call went ahead"}}}}
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{calls(call("r", "read", "x")), testserver.Text("ok")}},
		func(c *Config) { c.Hooks = hooks })
	h.s.Submit("go")
	h.turnEnd(1)
	evs := h.all()
	if r := results(evs)["r"]; r.Status != event.ToolOK {
		t.Errorf("the call did not run: %+v", r)
	}
	found := false
	for _, e := range ofKind(evs, event.Notice) {
		found = found || e.Level == "warn" && strings.Contains(e.Text, "./slow.sh")
	}
	if !found {
		t.Errorf("no notice names the hook:\n%s", dump(evs))
	}
}

// Cancelling while a call's hooks run ends the turn at once, every call
// answered.
func TestCancelWhileAHookRuns(t *testing.T) {
	hooks := &fakeHooks{gated: map[string]bool{"read": true}, wait: true}
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{calls(call("r", "read", "x"), call("w", "write", "y"))}},
		func(c *Config) { c.Hooks = hooks })
	h.s.Submit("go")
	deadline := time.Now().Add(5 * time.Second)
	for {
		hooks.mu.Lock()
		n := len(hooks.pre)
		hooks.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("PreToolUse never ran")
		}
		time.Sleep(time.Millisecond)
	}
	h.s.Cancel()
	if end := h.turnEnd(1); end.State != event.TurnCancelled {
		t.Fatalf("turn %s", end.State)
	}
	res := results(h.all())
	if res["r"] == nil || res["w"] == nil || res["r"].Status != event.ToolCancelled {
		t.Errorf("results %+v", res)
	}
	// Stop is observed right after TurnEnded is emitted, which a waiting
	// reader may take first.
	stop := hooks.find(HookStop)
	for wait := time.Now().Add(5 * time.Second); len(stop) == 0 && time.Now().Before(wait); stop = hooks.find(HookStop) {
		time.Sleep(time.Millisecond)
	}
	if len(stop) != 1 || stop[0].State != event.TurnCancelled {
		t.Errorf("Stop: %+v", stop)
	}
}

// The observational events fire at their points, in order: the prompt
// only once it is durable; a failing observer is a notice in the log.
func TestObservationalHookEvents(t *testing.T) {
	hooks := &fakeHooks{problemOn: HookStop}
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		calls(call("w", "write", "f.txt")), testserver.Text("done"),
	}}, func(c *Config) {
		c.Approver = &askWrites{}
		c.Hooks = hooks
		c.Notices = []Notice{{Level: "warn", Text: "ignored /p/.quire/hooks.json: not valid JSON"}}
	})
	hooks.mu.Lock()
	hooks.rec = h.rec
	hooks.mu.Unlock()
	h.s.Submit("write it")
	h.approval("w")
	h.s.Answer("w", event.Approve, "")
	h.turnEnd(1)
	h.waitFor("the Stop hook's problem", func(e event.Event) bool {
		return e.Kind == event.Notice && strings.Contains(e.Text, "./notify.sh")
	})
	h.close()
	want := []string{HookSessionStart, HookUserPromptSubmit, HookNotification, HookPostToolUse, HookStop, HookSessionEnd}
	if got := hooks.names(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("observed %v, want %v", got, want)
	}
	start := hooks.find(HookSessionStart)[0]
	if start.Trigger != "startup" || start.SessionID == "" || start.Cwd == "" {
		t.Errorf("SessionStart %+v", start)
	}
	prompt := hooks.find(HookUserPromptSubmit)[0]
	if prompt.Prompt != "write it" || prompt.Turn != 1 {
		t.Errorf("UserPromptSubmit %+v", prompt)
	}
	hooks.mu.Lock()
	seenAtPrompt := hooks.seen[1]
	hooks.mu.Unlock()
	recorded := h.rec.snapshot()
	durable := -1
	for i, e := range recorded {
		if e.Kind == event.UserMessage {
			durable = i
		}
	}
	if durable < 0 || seenAtPrompt <= durable {
		t.Errorf("UserPromptSubmit was observed before the prompt was recorded (%d events recorded, prompt at %d)", seenAtPrompt, durable)
	}
	if stop := hooks.find(HookStop)[0]; stop.State != event.TurnCompleted || stop.Turn != 1 {
		t.Errorf("Stop %+v", stop)
	}
	evs := h.all()
	if evs[1].Kind != event.Notice || !strings.Contains(evs[1].Text, "hooks.json") {
		t.Errorf("the start notice is not right after SessionStarted:\n%s", dump(evs[:3]))
	}
}

// /compact fires PreCompact and PostCompact with what it did.
func TestCompactionHookEvents(t *testing.T) {
	hooks := &fakeHooks{}
	sc := &split{samples: []testserver.Response{testserver.Text("answer one")}}
	h := newHarness(t, testserver.Script{Respond: sc.respond}, func(c *Config) { c.Hooks = hooks })
	h.s.Submit("one")
	h.turnEnd(1)
	h.s.Compact("keep auth")
	h.waitFor("compaction", func(e event.Event) bool { return e.Kind == event.Compacted })
	h.close()
	pre, post := hooks.find(HookPreCompact), hooks.find(HookPostCompact)
	if len(pre) != 1 || pre[0].Trigger != "manual" || pre[0].Focus != "keep auth" || pre[0].BeforeTokens == 0 {
		t.Errorf("PreCompact %+v", pre)
	}
	if len(post) != 1 || post[0].Trigger != "manual" || post[0].AfterTokens == 0 {
		t.Errorf("PostCompact %+v", post)
	}
}

package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/llm/chat"
	"github.com/quire-sh/quire/engine/testserver"
)

// chatMessages is the "messages" array the chat protocol sends for the
// system prompt and a history.
func chatMessages(system string, hist []Message) string {
	body, err := chat.Body(llm.Request{System: system, Messages: requestMessages(hist)})
	if err != nil {
		return err.Error()
	}
	return messagesJSON(body)
}

// messagesJSON is the "messages" array of a chat completion request body.
func messagesJSON(body []byte) string {
	var r struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return err.Error()
	}
	var b bytes.Buffer
	if err := json.Indent(&b, r.Messages, "", " "); err != nil {
		return err.Error()
	}
	return b.String()
}

// At every request of a long session — tools, approvals, a denial, a
// cancel mid-answer, automatic and manual compactions, malformed calls, a
// context overflow — what the model was sent is exactly what
// HistoryFromEvents rebuilds from the events recorded so far.
func TestHistoryFromEventsIsWhatTheModelSaw(t *testing.T) {
	var (
		mu         sync.Mutex
		rec        *recorder
		system     string
		mismatches []string
		checked    int
	)
	overflow := testserver.Response{Status: 400, Error: "maximum context length exceeded", Code: "context_length_exceeded"}
	sc := &split{samples: []testserver.Response{
		// turn 1: a read, then text
		{Text: []string{"Let me read."}, ToolCalls: []testserver.ToolCall{{ID: "r1", Name: "read", Arguments: `{"path":"a.go"}`, Split: 5}}},
		testserver.Text("a.go is fine."),
		// turn 2: an approved write and a read in one batch
		calls(call("w1", "write", "b.go"), call("r2", "read", "b.go")),
		testserver.Text("Wrote b.go."),
		// turn 3: a denied write
		calls(call("w2", "write", "c.go")),
		// turn 4: cancelled mid-answer
		{Text: []string{"I will now "}, Fault: testserver.FaultHang, FaultAfter: 2},
		// turn 5: a tool round whose usage triggers compaction mid-turn
		{ToolCalls: []testserver.ToolCall{call("r3", "read", "d.go")}, Usage: usage(95_000, 50)},
		testserver.Text("Done with d.go."),
		// turn 6: malformed and unknown calls
		calls(testserver.ToolCall{ID: "bad", Name: "read", Arguments: `{"path":`}, testserver.ToolCall{ID: "ghost", Name: "nope", Arguments: `{}`}),
		testserver.Text("Sorry about that."),
		// turn 7: overflow, compaction, retry
		overflow,
		testserver.Text("Fits again."),
	}}
	respond := func(n int, req testserver.Request) testserver.Response {
		if !isSummary(req) {
			mu.Lock()
			if got, w := messagesJSON(req.Body), chatMessages(system, HistoryFromEvents(rec.snapshot())); got != w {
				mismatches = append(mismatches, fmt.Sprintf("request %d:\nsent %s\nrebuilt %s", n, got, w))
			}
			checked++
			mu.Unlock()
		}
		return sc.respond(n, req)
	}
	h := newHarness(t, testserver.Script{Respond: respond}, func(c *Config) {
		c.ContextWindow = 100_000
		c.Approver = &askWrites{}
	})
	mu.Lock()
	rec, system = h.rec, h.s.system
	mu.Unlock()

	h.s.Submit("check a.go")
	h.turnEnd(1)
	h.s.Submit("write b.go")
	h.approval("w1")
	h.s.Answer("w1", event.Approve, "")
	h.turnEnd(2)
	h.s.Submit("write c.go")
	h.approval("w2")
	h.s.Answer("w2", event.Deny, "no")
	h.turnEnd(3)
	h.s.Submit("explain")
	h.waitFor("turn 4 text", func(e event.Event) bool { return e.Kind == event.AssistantDelta && e.Turn == 4 })
	h.s.Cancel()
	h.turnEnd(4)
	h.s.Submit("read d.go")
	h.turnEnd(5)
	h.s.Compact("keep d.go")
	h.waitFor("manual compaction", func(e event.Event) bool { return e.Kind == event.Compacted && e.Compaction.Manual })
	h.s.Submit("try tools")
	h.turnEnd(6)
	h.s.Submit("big one")
	if end := h.turnEnd(7); end.State != event.TurnCompleted {
		t.Fatalf("turn 7: %+v", end)
	}

	mu.Lock()
	defer mu.Unlock()
	for _, m := range mismatches {
		t.Error(m)
	}
	if checked < 12 {
		t.Errorf("only %d requests checked", checked)
	}
	if n := len(ofKind(h.rec.snapshot(), event.Compacted)); n != 3 {
		t.Errorf("%d compactions, want 3", n)
	}
	// The delivered stream (with merged deltas) rebuilds the same history
	// as the recorded one and as the live session.
	live := h.s.History()
	if !reflect.DeepEqual(HistoryFromEvents(h.all()), live) || !reflect.DeepEqual(HistoryFromEvents(h.rec.snapshot()), live) {
		t.Error("history from events differs from the live history")
	}
}

func TestResumeContinuesTheConversation(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		calls(call("r1", "read", "a.go")),
		testserver.Text("a.go read."),
	}}, nil)
	h.s.Submit("read a.go")
	h.turnEnd(1)
	id := h.s.Info().ID
	h.close()
	prior := h.rec.snapshot()
	want := HistoryFromEvents(prior)

	srv, _ := testserver.Start(testserver.Script{Responses: []testserver.Response{testserver.Text("continued")}})
	defer srv.Close()
	cfg := baseConfig(t, srv.URL())
	cfg.Env = h.s.cfg.Env
	rec := &recorder{}
	cfg.Recorder = rec
	s, err := Resume(cfg, prior)
	if err != nil {
		t.Fatal(err)
	}
	s.Submit("and now?")
	var evs []event.Event
	for e := range s.Events() {
		evs = append(evs, e)
		if e.Kind == event.TurnEnded {
			break
		}
	}
	s.Close()
	start := evs[0]
	if start.Kind != event.SessionStarted || !start.Session.Resumed || start.Session.ID != id || start.Seq != prior[len(prior)-1].Seq+1 {
		t.Fatalf("start event %+v %+v", start, start.Session)
	}
	if u := ofKind(evs, event.UserMessage); len(u) != 1 || u[0].Turn != 2 {
		t.Fatalf("turn numbering did not continue: %+v", u)
	}
	sent := messagesJSON(srv.Requests()[0].Body)
	want = append(want, Message{Role: RoleUser, Content: "and now?"})
	if w := chatMessages(h.s.system, want); sent != w {
		t.Fatalf("resumed request\n%s\nwant\n%s", sent, w)
	}
}

// A log cut off in the middle of a tool call (quire was killed) resumes
// with that call answered and the turn closed.
func TestResumeClosesAnInterruptedTurn(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		calls(call("r1", "read", "a.go"), call("r2", "read", "b.go")),
		testserver.Text("done"),
	}}, nil)
	h.s.Submit("read")
	h.turnEnd(1)
	h.close()
	all := h.rec.snapshot()
	var cut int
	open := ""
	for i, e := range all {
		if e.Kind == event.ToolFinished {
			cut = i + 1 // keep the first result only
			open = map[string]string{"r1": "r2", "r2": "r1"}[e.CallID]
			break
		}
	}
	prior := all[:cut]

	srv, _ := testserver.Start(testserver.Script{Responses: []testserver.Response{testserver.Text("ok")}})
	defer srv.Close()
	cfg := baseConfig(t, srv.URL())
	s, err := Resume(cfg, prior)
	if err != nil {
		t.Fatal(err)
	}
	var evs []event.Event
	go func() {
		time.Sleep(10 * time.Millisecond)
		s.Submit("again")
	}()
	for e := range s.Events() {
		evs = append(evs, e)
		if e.Kind == event.TurnEnded && e.Turn == 2 {
			break
		}
	}
	s.Close()
	ended := ofKind(evs, event.TurnEnded)
	if len(ended) != 2 || ended[0].Turn != 1 || ended[0].End.State != event.TurnCancelled || !strings.Contains(ended[0].End.Error, "interrupted") {
		t.Fatalf("turn ends %+v", ended)
	}
	res := results(evs)
	if len(res) != 1 || res[open] == nil || res[open].Status != event.ToolCancelled {
		t.Fatalf("results %+v", res)
	}
	var tools []string
	for _, m := range srv.Requests()[0].Messages {
		if m.Role == "tool" {
			tools = append(tools, m.ToolCallID)
		}
	}
	if strings.Join(tools, ",") != "r1,r2" {
		t.Fatalf("tool messages after resume %v", tools)
	}
}

func TestResumeRefusesANewerLog(t *testing.T) {
	cfg := baseConfig(t, "http://127.0.0.1:1/v1")
	_, err := Resume(cfg, []event.Event{{V: event.SchemaVersion + 1, Seq: 1, Kind: event.SessionStarted}})
	if err == nil || !strings.Contains(err.Error(), "newer quire") {
		t.Fatalf("error %v", err)
	}
}

func TestSystemPrompt(t *testing.T) {
	p := systemPrompt(promptEnv{Dir: "/src/x", OS: "linux/amd64", Date: time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC),
		Sandbox: "workspace", Approval: "ask", Tools: nil, AgentsMD: "be nice"})
	for _, want := range []string{"You are quire", "/src/x", "linux/amd64", "2026-03-04", "workspace", "Approval mode: ask", "AGENTS.md", "be nice\n"} {
		if !strings.Contains(p, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	if strings.Contains(systemPrompt(promptEnv{}), "AGENTS.md") {
		t.Error("AGENTS.md section without AGENTS.md")
	}
}

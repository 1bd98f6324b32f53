package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/testserver"
)

func TestTextReplyCompletesAfterOneSample(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		{Text: testserver.Words("Hello there, friend."), Usage: &testserver.Usage{PromptTokens: 50, CompletionTokens: 4}},
	}}, nil)
	h.s.Submit("hi")
	end := h.turnEnd(1)
	if end.State != event.TurnCompleted || end.Usage.PromptTokens != 50 || end.Usage.Estimated {
		t.Fatalf("end %+v", end)
	}
	if n := len(h.srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
	evs := h.all()
	var text strings.Builder
	for _, e := range ofKind(evs, event.AssistantDelta) {
		text.WriteString(e.Text)
	}
	msgs := ofKind(evs, event.AssistantMessage)
	if text.String() != "Hello there, friend." || len(msgs) != 1 || msgs[0].Text != text.String() {
		t.Fatalf("streamed %q, messages %+v", text.String(), msgs)
	}
	want := []event.Kind{event.SessionStarted, event.UserMessage, event.TurnStarted}
	for i, k := range want {
		if evs[i].Kind != k {
			t.Fatalf("event %d is %s, want %s", i, evs[i].Kind, k)
		}
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq <= evs[i-1].Seq {
			t.Fatalf("seq not increasing at %d: %d after %d", i, evs[i].Seq, evs[i-1].Seq)
		}
	}
}

func TestQueuedPromptRunsAfterTheTurn(t *testing.T) {
	gate := make(chan struct{})
	h := newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		if n == 0 {
			<-gate // A's answer waits until B is queued
		}
		return testserver.Text(fmt.Sprintf("answer %d", n))
	}}, nil)
	h.s.Submit("A")
	h.waitFor("A's turn", func(e event.Event) bool { return e.Kind == event.TurnStarted })
	h.s.Submit("B")
	if i := h.s.Info(); !i.Running || i.Queued != 1 || i.Turn != 1 {
		t.Errorf("info during A: %+v", i)
	}
	close(gate)
	h.turnEnd(2)
	var order []string
	for _, e := range h.all() {
		switch e.Kind {
		case event.UserMessage:
			order = append(order, "user:"+e.Text)
		case event.TurnStarted, event.TurnEnded:
			order = append(order, string(e.Kind))
		}
	}
	want := "user:A turn_started turn_ended user:B turn_started turn_ended"
	if strings.Join(order, " ") != want {
		t.Fatalf("order %v, want %s", order, want)
	}
}

func TestPromptsRunStrictlyInOrder(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{testserver.Text("1"), testserver.Text("2"), testserver.Text("3")}}, nil)
	h.s.Submit("A")
	h.s.Submit("B")
	h.s.Submit("C")
	h.turnEnd(3)
	reqs := h.srv.Requests()
	for i, want := range []string{"A", "B", "C"} {
		if got := reqs[i].LastMessage().Content; got != want {
			t.Errorf("request %d ends with %q, want %q", i, got, want)
		}
	}
}

func TestSendersNeverBlock(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{{Fault: testserver.FaultHang}}}, nil)
	h.s.Submit("stall")
	h.waitFor("the turn", func(e event.Event) bool { return e.Kind == event.TurnStarted })
	done := make(chan struct{})
	go func() {
		for i := 0; i < 10000; i++ {
			h.s.Submit("more")
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Submit blocked on a stalled session")
	}
	if i := h.s.Info(); i.Queued != 10000 {
		t.Errorf("queued %d", i.Queued)
	}
}

func TestCancelDuringSampling(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		{Text: []string{"partial"}, Fault: testserver.FaultHang, FaultAfter: 2},
	}}, nil)
	h.s.Submit("go")
	h.waitFor("a delta", func(e event.Event) bool { return e.Kind == event.AssistantDelta })
	begin := time.Now()
	h.s.Cancel()
	end := h.turnEnd(1)
	if end.State != event.TurnCancelled {
		t.Fatalf("state %s", end.State)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("cancel took %v", d)
	}
	msgs := ofKind(h.all(), event.AssistantMessage)
	if len(msgs) != 1 || msgs[0].Text != "partial" {
		t.Errorf("partial answer not kept: %+v", msgs)
	}
}

func TestSlowConsumerMergesDeltasOnly(t *testing.T) {
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
		{Text: testserver.Chunks(strings.Repeat("word ", 400), 5), Reasoning: []string{"r1", "r2", "r3"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	rec := &recorder{}
	cfg := baseConfig(t, srv.URL())
	cfg.Recorder = rec
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Submit("go")
	// Nobody reads Events until the turn is over: the session must not
	// wait for us.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if evs := rec.snapshot(); len(evs) > 0 && evs[len(evs)-1].Kind == event.TurnEnded {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the turn did not finish while the consumer was stalled")
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.Close()
	var got []event.Event
	for e := range s.Events() {
		got = append(got, e)
	}
	recorded := rec.snapshot()
	var text strings.Builder
	for _, e := range ofKind(got, event.AssistantDelta) {
		text.WriteString(e.Text)
	}
	if text.String() != strings.Repeat("word ", 400) {
		t.Fatalf("merged text differs: %d bytes", text.Len())
	}
	if n, all := len(ofKind(got, event.AssistantDelta)), len(ofKind(recorded, event.AssistantDelta)); n >= all {
		t.Errorf("%d deltas delivered of %d: nothing merged", n, all)
	}
	for _, k := range []event.Kind{event.SessionStarted, event.UserMessage, event.TurnStarted, event.AssistantMessage, event.TurnEnded} {
		if len(ofKind(got, k)) != len(ofKind(recorded, k)) {
			t.Errorf("%s events dropped", k)
		}
	}
	for i := 1; i < len(got); i++ {
		if got[i].Seq <= got[i-1].Seq {
			t.Fatalf("seq not increasing")
		}
	}
}

func TestUserMessageIsDurableBeforeTheRequest(t *testing.T) {
	var h *harness
	var durableBeforeRequest bool
	h = newHarness(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		h.rec.mu.Lock()
		for i, e := range h.rec.events {
			if e.Kind == event.UserMessage && e.Text == "persist me" && h.rec.durable[i] {
				durableBeforeRequest = true
			}
		}
		h.rec.mu.Unlock()
		return testserver.Text("ok")
	}}, nil)
	h.s.Submit("persist me")
	h.turnEnd(1)
	if !durableBeforeRequest {
		t.Fatal("the user message was not durably recorded before the model was asked")
	}
	for i, e := range h.rec.snapshot() {
		if e.Kind != event.UserMessage && h.rec.durable[i] {
			t.Errorf("%s recorded durably", e.Kind)
		}
	}
}

func TestUnsavedUserMessageIsNotSent(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{testserver.Text("ok")}}, func(c *Config) {
		c.Recorder = &recorder{fail: func(e event.Event, durable bool) error {
			if durable && e.Text == "lost" {
				return errDiskFull
			}
			return nil
		}}
	})
	h.s.Submit("lost")
	h.s.Submit("kept")
	h.turnEnd(1)
	errs := ofKind(h.all(), event.Error)
	if len(errs) != 1 || !strings.Contains(errs[0].Text, "disk full") {
		t.Fatalf("errors %+v", errs)
	}
	if reqs := h.srv.Requests(); len(reqs) != 1 || reqs[0].LastMessage().Content != "kept" {
		t.Fatalf("requests %+v", reqs)
	}
}

type diskFull struct{}

func (diskFull) Error() string { return "disk full" }

var errDiskFull = diskFull{}

func TestAPIErrorsEndTheTurn(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		testserver.Fail(401, "Incorrect API key provided."),
		{Status: 429, Error: "slow down", RetryAfter: "0"},
		testserver.Text("recovered"),
	}}, nil)
	h.s.Submit("one")
	end := h.turnEnd(1)
	if end.State != event.TurnFailed || !strings.Contains(end.Error, "OPENAI_API_KEY") {
		t.Fatalf("401 turn: %+v", end)
	}
	if len(h.srv.Requests()) != 1 {
		t.Fatalf("401 was retried")
	}
	h.s.Submit("two")
	if end := h.turnEnd(2); end.State != event.TurnCompleted {
		t.Fatalf("turn 2: %+v", end)
	}
	notices := ofKind(h.all(), event.Notice)
	if len(notices) != 1 || !strings.Contains(notices[0].Text, "rate limiting") || notices[0].Level != "warn" {
		t.Fatalf("retry notice %+v", notices)
	}
}

func TestEmptyAnswerAtMaxTokensFails(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		{Reasoning: []string{"thinking and thinking"}, FinishReason: "length"},
	}}, nil)
	h.s.Submit("go")
	end := h.turnEnd(1)
	if end.State != event.TurnFailed || !strings.Contains(end.Error, "output budget") {
		t.Fatalf("end %+v", end)
	}
}

func TestInfoAfterClose(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{testserver.Text("x")}}, nil)
	h.s.Submit("a")
	h.turnEnd(1)
	h.close()
	i := h.s.Info()
	if i.Turn != 1 || i.Running || i.Model != "test-model" || i.LastSeq == 0 {
		t.Fatalf("info %+v", i)
	}
}

// A finished sample and a command ready at the same moment: the sample is
// digested first (the turn ends), then the command sees the result.
func TestFinishedWorkBeatsCommands(t *testing.T) {
	cfg := baseConfig(t, "http://127.0.0.1:1/v1")
	s, err := build(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.turnNo = 1
	ctx, cancel := context.WithCancel(context.Background())
	s.turn = &turn{n: 1, ctx: ctx, cancel: cancel, job: 7}
	s.work <- sampleDone{job: 7, resp: llm.Response{Text: "done"}}
	reply := make(chan Info, 1)
	s.cmds.Push(cmdInfo{reply})
	go s.run()
	defer s.Close()
	go func() {
		for range s.Events() {
		}
	}()
	if i := <-reply; i.Running {
		t.Fatal("the command was handled before the finished sample")
	}
}

func TestCancelWhenIdleIsANoOp(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{testserver.Text("x")}}, nil)
	h.s.Cancel()
	h.s.Answer("nothing", event.Approve, "")
	h.s.Submit("a")
	if end := h.turnEnd(1); end.State != event.TurnCompleted {
		t.Fatalf("end %+v", end)
	}
}

func TestCloseDuringATurnEndsIt(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{{Fault: testserver.FaultHang}}}, nil)
	h.s.Submit("a")
	h.s.Submit("queued, dropped by Close")
	h.waitFor("request", func(e event.Event) bool { return e.Kind == event.TurnStarted })
	h.close()
	evs := h.all()
	last := evs[len(evs)-1]
	if last.Kind != event.TurnEnded || last.End.State != event.TurnCancelled {
		t.Fatalf("last event %+v", last)
	}
	if n := len(ofKind(evs, event.UserMessage)); n != 1 {
		t.Fatalf("%d user messages", n)
	}
}

func TestCompactWithNothingToCompact(t *testing.T) {
	h := newHarness(t, testserver.Script{}, nil)
	h.s.Compact("")
	n := h.waitFor("notice", func(e event.Event) bool { return e.Kind == event.Notice })
	if !strings.Contains(n.Text, "Nothing to compact") || len(h.srv.Requests()) != 0 {
		t.Fatalf("notice %q, %d requests", n.Text, len(h.srv.Requests()))
	}
}

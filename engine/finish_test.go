package engine

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
)

// An answer cut off at the output limit is kept, marked, and announced;
// "continue" carries on from it.
func TestTruncatedAnswerCanBeContinued(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		{Text: []string{"Here are the steps: 1. open", " the"}, FinishReason: "length"},
		testserver.Text("file. 2. save it."),
	}}, nil)
	h.s.Submit("explain")
	end := h.turnEnd(1)
	if end.State != event.TurnCompleted || !end.Truncated {
		t.Fatalf("end %+v", end)
	}
	evs := h.all()
	msgs := ofKind(evs, event.AssistantMessage)
	if len(msgs) != 1 || msgs[0].FinishReason != "length" || msgs[0].Text != "Here are the steps: 1. open the" {
		t.Fatalf("assistant messages %+v", msgs)
	}
	var notice string
	for _, e := range ofKind(evs, event.Notice) {
		notice += e.Text
	}
	if !strings.Contains(notice, "cut off at the model's output limit") || !strings.Contains(notice, `"continue"`) {
		t.Errorf("notice %q", notice)
	}
	h.s.Submit("continue")
	if end := h.turnEnd(2); end.State != event.TurnCompleted || end.Truncated {
		t.Fatalf("turn 2: %+v", end)
	}
	msgsSent := h.srv.Requests()[1].Messages
	n := len(msgsSent)
	if msgsSent[n-2].Role != "assistant" || msgsSent[n-2].Content != "Here are the steps: 1. open the" || msgsSent[n-1].Content != "continue" {
		t.Fatalf("the partial answer did not go back: %+v", msgsSent)
	}
	// The log rebuilds the same history.
	hist := HistoryFromEvents(h.rec.snapshot())
	if hist[1].Content != "Here are the steps: 1. open the" {
		t.Errorf("history %+v", hist)
	}
}

// An answer cut while writing a tool call: the complete calls run, the
// cut one is refused with a reason the model can act on, and the turn
// goes on.
func TestCutToolCallIsNotRun(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		{ToolCalls: []testserver.ToolCall{
			call("c1", "read", "a.go"),
			{ID: "c2", Name: "write", Arguments: `{"path":"big.go","content":"package big\nfunc`},
		}, FinishReason: "length"},
		testserver.Text("I will write it in parts."),
	}}, nil)
	h.s.Submit("write a big file")
	if end := h.turnEnd(1); end.State != event.TurnCompleted || end.Truncated {
		t.Fatalf("end %+v", end)
	}
	res := results(h.all())
	if res["c1"].Status != event.ToolOK || res["c2"].Status != event.ToolError || !strings.Contains(res["c2"].Output, "reached the output limit") {
		t.Fatalf("results %+v %+v", res["c1"], res["c2"])
	}
	if m := ofKind(h.all(), event.AssistantMessage)[0]; m.FinishReason != "length" {
		t.Errorf("finish %q", m.FinishReason)
	}
	var warned bool
	for _, e := range ofKind(h.all(), event.Notice) {
		warned = warned || strings.Contains(e.Text, "while it was writing tool calls")
	}
	if !warned {
		t.Error("no notice")
	}
}

func TestContentFilterIsAnnounced(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{{Text: []string{"I"}, FinishReason: "content_filter"}}}, nil)
	h.s.Submit("x")
	if end := h.turnEnd(1); end.Truncated {
		t.Fatalf("end %+v", end)
	}
	var notice string
	for _, e := range ofKind(h.all(), event.Notice) {
		notice += e.Text
	}
	if !strings.Contains(notice, "content filter") {
		t.Errorf("notice %q", notice)
	}
}

func TestExecReportsATruncatedAnswer(t *testing.T) {
	script := testserver.Script{Responses: []testserver.Response{{Text: []string{"partial"}, FinishReason: "length"}}}
	_, err, out, _, _ := execWith(t, script, ExecOptions{JSON: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var end *event.TurnEnd
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var e event.Event
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Kind == event.TurnEnded {
			end = e.End
		}
	}
	if end == nil || !end.Truncated || !strings.Contains(out, `"truncated":true`) {
		t.Fatalf("turn end %+v in\n%s", end, out)
	}
	state, err, out, errOut, _ := execWith(t, script, ExecOptions{}, nil)
	if err != nil || state != event.TurnCompleted || out != "partial\n" || !strings.Contains(errOut, "cut off") {
		t.Fatalf("state %s err %v out %q stderr %q", state, err, out, errOut)
	}
}

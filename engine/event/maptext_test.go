package event

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestMapText(t *testing.T) {
	up := func(s string) string { return strings.ReplaceAll(s, "secret", "XXX") }
	raw := json.RawMessage(`{"a":  "keep",  "n": 1.50}`)
	e := Event{Kind: AssistantMessage, Text: "a secret", Calls: []ToolCall{
		{ID: "1", Arguments: raw, Target: "secret target"},
		{ID: "2", Arguments: json.RawMessage(`{"cmd":["echo","secret"],"opts":{"secret":true}}`)},
	}}
	got := e.MapText(up)
	if got.Text != "a XXX" || got.Calls[0].Target != "XXX target" {
		t.Errorf("text fields: %+v", got)
	}
	if string(got.Calls[0].Arguments) != string(raw) {
		t.Errorf("unchanged arguments lost their bytes: %s", got.Calls[0].Arguments)
	}
	if string(got.Calls[1].Arguments) != `{"cmd":["echo","XXX"],"opts":{"XXX":true}}` {
		t.Errorf("arguments: %s", got.Calls[1].Arguments)
	}
	if e.Text != "a secret" || e.Calls[0].Target != "secret target" || strings.Contains(string(e.Calls[1].Arguments), "XXX") {
		t.Error("MapText changed the event it was given")
	}
	bad := Event{Call: &ToolCall{Arguments: json.RawMessage(`not json secret`)}}
	if got := bad.MapText(up); !json.Valid(got.Call.Arguments) || !strings.Contains(string(got.Call.Arguments), "XXX") {
		t.Errorf("arguments that are not JSON: %s", got.Call.Arguments)
	}
	for _, e := range []Event{
		{Session: &SessionInfo{Cwd: "/secret"}}, {Approval: &Approval{Preview: "secret"}}, {Result: &ToolResult{Output: "secret", Diff: "secret"}},
		{End: &TurnEnd{Error: "secret"}}, {Compaction: &Compaction{Summary: "secret", Focus: "secret"}},
		{Subagent: &Subagent{Description: "secret", Target: "secret", Error: "secret"}},
		{Session: &SessionInfo{Parent: &ParentLink{Description: "secret"}}},
	} {
		b, _ := json.Marshal(e.MapText(up))
		if strings.Contains(string(b), "secret") {
			t.Errorf("a field was not mapped: %s", b)
		}
	}
}

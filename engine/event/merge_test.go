package event

import "testing"

func TestMergeable(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b Event
		want bool
	}{
		{"answer text of one turn", Event{Kind: AssistantDelta, Turn: 1}, Event{Kind: AssistantDelta, Turn: 1}, true},
		{"reasoning of one turn", Event{Kind: ReasoningDelta, Turn: 2}, Event{Kind: ReasoningDelta, Turn: 2}, true},
		{"output of one call", Event{Kind: ToolOutputDelta, Turn: 1, CallID: "a"}, Event{Kind: ToolOutputDelta, Turn: 1, CallID: "a"}, true},
		{"output of two calls", Event{Kind: ToolOutputDelta, Turn: 1, CallID: "a"}, Event{Kind: ToolOutputDelta, Turn: 1, CallID: "b"}, false},
		{"answer after reasoning", Event{Kind: ReasoningDelta, Turn: 1}, Event{Kind: AssistantDelta, Turn: 1}, false},
		{"two turns", Event{Kind: AssistantDelta, Turn: 1}, Event{Kind: AssistantDelta, Turn: 2}, false},
		{"notices", Event{Kind: Notice, Text: "a"}, Event{Kind: Notice, Text: "b"}, false},
		{"whole messages", Event{Kind: AssistantMessage, Turn: 1}, Event{Kind: AssistantMessage, Turn: 1}, false},
	} {
		if got := Mergeable(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: Mergeable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

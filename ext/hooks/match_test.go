package hooks

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
)

// A subagent event's matcher matches the agent the child runs as, the
// same name the transcript shows ("subagent" for none).
func TestSubagentEventsMatchTheAgent(t *testing.T) {
	set := mustParse(t, Source{Name: "user", Content: []byte(`{"hooks": {
		"SubagentStop": [{"matcher": "explorer", "hooks": [{"type":"command","command":"./explorer.sh"}]},
			{"matcher": "subagent", "hooks": [{"type":"command","command":"./plain.sh"}]}],
		"SubagentStart": [{"hooks": [{"type":"command","command":"./any.sh"}]}]}}`)})
	cases := []struct {
		name  string
		event string
		agent string
		want  string
	}{
		{"named agent", engine.HookSubagentStop, "explorer", "./explorer.sh"},
		{"no agent", engine.HookSubagentStop, "", "./plain.sh"},
		{"another agent", engine.HookSubagentStop, "writer", ""},
		{"no matcher matches every agent", engine.HookSubagentStart, "writer", "./any.sh"},
	}
	for _, c := range cases {
		e := engine.HookEvent{Name: c.event, Subagent: &event.Subagent{Agent: c.agent}}
		var got []string
		for _, h := range set.matching(e.Name, subject(e)) {
			got = append(got, h.Command)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

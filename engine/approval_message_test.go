package engine

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/tools"
)

// The notification asking for approval names the call on one bounded
// line, however long or multi-line its target is.
func TestApprovalMessageIsOneBoundedLine(t *testing.T) {
	cases := []struct{ target, want string }{
		{"ls", "quire needs your approval to run shell: ls"},
		{"make\nmake test", "quire needs your approval to run shell: make …"},
		{strings.Repeat("é", 80), "quire needs your approval to run shell: " + strings.Repeat("é", 50) + "…"},
	}
	for _, c := range cases {
		cs := &callState{call: event.ToolCall{Name: "shell"}, plan: tools.Plan{Target: c.target}}
		got := approvalMessage(cs)
		if got != c.want || !utf8.ValidString(got) || strings.Contains(got, "\n") {
			t.Errorf("target %q: %q, want %q", c.target, got, c.want)
		}
	}
}

package app

import (
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestParseSlash(t *testing.T) {
	tests := []struct {
		in      string
		ok      bool
		inv     SlashInvocation
		errPart string
	}{
		{"/compact keep the API notes", true, SlashInvocation{Name: "compact", Args: []string{"keep", "the", "API", "notes"}}, ""},
		{"  /quit  ", true, SlashInvocation{Name: "quit", Args: []string{}}, ""},
		{"/etc/hosts is wrong, fix it", false, SlashInvocation{}, ""},
		{"/", false, SlashInvocation{}, ""},
		{"/mode\nsecond line", false, SlashInvocation{}, ""},
		{"plain prompt", false, SlashInvocation{}, ""},
		{"/comp", true, SlashInvocation{}, "did you mean /compact"},
		{"/frobnicate", true, SlashInvocation{}, "/help lists them"},
	}
	for _, tt := range tests {
		inv, ok, err := ParseSlash(tt.in)
		if ok != tt.ok {
			t.Errorf("%q: ok=%v", tt.in, ok)
			continue
		}
		if tt.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Errorf("%q: err %v, want %q", tt.in, err, tt.errPart)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
		}
		if ok && !reflect.DeepEqual(inv, tt.inv) {
			t.Errorf("%q: %+v, want %+v", tt.in, inv, tt.inv)
		}
	}
}

func TestCompleteSlashLine(t *testing.T) {
	if got, _ := CompleteSlashLine("/he"); got != "/help " {
		t.Errorf("completed %q", got)
	}
	if _, c := CompleteSlashLine("/"); len(c) != len(slashCommands) {
		t.Errorf("bare slash lists %d candidates", len(c))
	}
	if got, c := CompleteSlashLine("/compact now"); got != "/compact now" || c != nil {
		t.Errorf("arguments must not be completed: %q %v", got, c)
	}
}

// An MCP server's prompt is a command from outside the app's table: it
// parses, completes and shows in /help beside /mcp, which stays the
// app's own.
func TestMCPPromptCommands(t *testing.T) {
	ext := []Command{{Name: "mcp__t__greet", Args: "name style?", Summary: "Greet someone.", Source: "mcp t",
		Expand: func(context.Context, string) (string, error) { return "", nil }}}
	inv, ok, err := ParseSlash("/mcp__t__greet Ada very formal", ext...)
	if !ok || err != nil || inv.External == nil || inv.Name != "mcp__t__greet" || inv.Rest != "Ada very formal" {
		t.Fatalf("parse: %+v %v %v", inv, ok, err)
	}
	if inv, _, _ := ParseSlash("/mcp restart t", ext...); inv.External != nil || inv.Name != "mcp" || !reflect.DeepEqual(inv.Args, []string{"restart", "t"}) {
		t.Errorf("/mcp: %+v", inv)
	}
	if _, _, err := ParseSlash("/mcp__t__greet"); err == nil {
		t.Error("a prompt's command parsed without the session's commands")
	}
	if got, _ := CompleteSlashLine("/mcp__t", ext...); got != "/mcp__t__greet " {
		t.Errorf("completed %q", got)
	}
	if got, _ := CompleteSlashLine("/mc", ext...); got != "/mcp" {
		t.Errorf("completed /mc to %q, want the common prefix", got)
	}
	if _, c := CompleteSlashLine("/mcp", ext...); !reflect.DeepEqual(c, []string{"mcp", "mcp__t__greet"}) {
		t.Errorf("candidates %v", c)
	}
	h := strings.Join(helpLines(false, ext), "\n")
	if !regexp.MustCompile(`/mcp__t__greet +name style\? +Greet someone\. \(mcp t\)`).MatchString(h) || !strings.Contains(h, "/mcp ") {
		t.Errorf("help:\n%s", h)
	}
}

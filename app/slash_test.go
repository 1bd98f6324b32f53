package app

import (
	"reflect"
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

// An extension's commands (MCP prompts) parse, complete and show in
// /help beside the built-in ones.
func TestExtensionCommands(t *testing.T) {
	extra := []slashCommand{{name: "mcp__t__greet", args: "name style?", help: "Greet someone."}}
	inv, ok, err := parseSlash("/mcp__t__greet Ada very formal", extra)
	if !ok || err != nil || !inv.Extension || inv.Name != "mcp__t__greet" || !reflect.DeepEqual(inv.Args, []string{"Ada", "very", "formal"}) {
		t.Fatalf("parse: %+v %v %v", inv, ok, err)
	}
	if inv, _, _ := parseSlash("/mcp restart t", extra); inv.Extension || inv.Name != "mcp" {
		t.Errorf("/mcp: %+v", inv)
	}
	if _, _, err := ParseSlash("/mcp__t__greet"); err == nil {
		t.Error("an extension command parsed without the extension")
	}
	if got, _ := completeSlashLine("/mcp__t", extra); got != "/mcp__t__greet " {
		t.Errorf("completed %q", got)
	}
	if _, c := completeSlashLine("/mc", extra); !reflect.DeepEqual(c, []string{"mcp", "mcp__t__greet"}) {
		t.Errorf("candidates %v", c)
	}
	if h := strings.Join(helpLines(false, extra...), "\n"); !strings.Contains(h, "/mcp__t__greet name style?  Greet someone.") || !strings.Contains(h, "/mcp ") {
		t.Errorf("help:\n%s", h)
	}
}

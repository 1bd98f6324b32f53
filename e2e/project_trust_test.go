package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
)

// A project's hooks.json is asked about first thing, in the real
// terminal; once trusted its hooks run from the very next prompt, and a
// PreToolUse hook's refusal shows on the call with the hook's reason.
func TestProjectTrustQuestionAndHooks(t *testing.T) {
	srv := startServer(t, testserver.Script{Responses: []testserver.Response{
		testserver.Call("c1", "shell", `{"command":"git push --force"}`),
		textResponse("I did not push.\n", 0),
	}})
	p := newPane(t, 110, 32)
	os.MkdirAll(filepath.Join(p.dir, ".quire"), 0o755)
	os.WriteFile(filepath.Join(p.dir, ".quire", "hooks.json"), []byte(`{"hooks": {
		"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "cat > prompted.json"}]}],
		"PreToolUse": [{"matcher": "shell", "hooks": [{"type": "command",
			"command": "if grep -q -- '--force'; then echo 'no force pushes from agents' >&2; exit 2; fi"}]}]}}`), 0o644)
	p.run(srv.URL(), "--approval", "yolo")
	s := p.waitText("This project has a file that would make quire run programs", 10*time.Second)
	for _, want := range []string{".quire/hooks.json — hooks", "UserPromptSubmit: cat > prompted.json", "PreToolUse [shell]: if grep", "[y] yes, trust"} {
		if !strings.Contains(s, want) {
			t.Errorf("the question lacks %q:\n%s", want, s)
		}
	}
	p.keys("y")
	p.waitText("trusted .quire/hooks.json", 10*time.Second)
	p.literal("push it")
	p.keys("Enter")
	s = p.waitText("I did not push.", 10*time.Second)
	if !strings.Contains(s, "no force pushes from agents") || !strings.Contains(s, "denied") {
		t.Errorf("the hook's refusal is not shown on the call:\n%s", s)
	}
	b, err := os.ReadFile(filepath.Join(p.dir, "prompted.json"))
	if err != nil || !strings.Contains(string(b), `"prompt":"push it"`) {
		t.Errorf("the trusted UserPromptSubmit hook got %q (%v)", b, err)
	}
	quit(p)

	// Trusted as it is: the next start does not ask, and quire trust says so.
	p.keys("clear; "+quireBin+" trust", "Enter")
	p.waitText(".quire/hooks.json  trusted", 10*time.Second)
}

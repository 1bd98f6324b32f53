package tools

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/quire-sh/quire/sandbox"
)

func TestGitWorkflowUnderWorkspace(t *testing.T) {
	te := newTestEnv(t, "workspace")
	requireSandbox(t, te.Env)
	if out, err := exec.Command("git", "init", "-q", te.ws).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	te.write(t, "a.txt", "a\n")
	// Rebuild the profile now that .git exists, as a new session would.
	p, err := sandbox.ProfileByName("workspace", te.ws)
	if err != nil {
		t.Fatal(err)
	}
	te.Profile = p
	res := run(t, Shell{}, te.Env, obj{"command": "git -c user.email=a@b -c user.name=n add -A && git -c user.email=a@b -c user.name=n commit -qm first && git log --oneline | wc -l && git checkout -qb topic && git mv a.txt b.txt && git -c user.email=a@b -c user.name=n commit -qm mv && git status --short && echo DONE; echo hook > .git/hooks/pre-commit; git config core.hooksPath /tmp/x"})
	if !strings.Contains(res.Output, "DONE") {
		t.Fatalf("git workflow failed: %s", res.Output)
	}
	if !strings.Contains(res.Output, "Read-only file system") {
		t.Fatalf("hooks or config were writable: %s", res.Output)
	}
}

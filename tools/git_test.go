package tools

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/quire-sh/quire/sandbox"
)

// shellRepo makes the test env's working dir a repository with one file and
// rebuilds the profile now that .git exists, as a new session would.
func shellRepo(t *testing.T, te testEnv, settings sandbox.Settings) {
	t.Helper()
	if out, err := exec.Command("git", "init", "-q", te.ws).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	te.write(t, "a.txt", "a\n")
	p, err := settings.Profile("workspace", te.ws)
	if err != nil {
		t.Fatal(err)
	}
	te.Profile = p
}

func TestGitMetadataIsReadOnlyUnderWorkspace(t *testing.T) {
	te := newTestEnv(t, "workspace")
	requireSandbox(t, te.Env)
	shellRepo(t, te, sandbox.Settings{})
	res := run(t, Shell{}, te.Env, obj{"command": "git status --short && echo STATUS-OK; git -c user.email=a@b -c user.name=n add -A && echo ADDED; echo hook > .git/hooks/pre-commit && echo HOOKED; mv .git .git-aside && echo MOVED"})
	if !strings.Contains(res.Output, "STATUS-OK") {
		t.Fatalf("reading the repository failed: %s", res.Output)
	}
	for _, bad := range []string{"ADDED", "HOOKED", "MOVED"} {
		if strings.Contains(res.Output, bad) {
			t.Fatalf("git metadata was writable (%s): %s", bad, res.Output)
		}
	}
	res = run(t, WriteFile{}, te.Env, obj{"path": ".git/config", "content": "[core]\n\tfsmonitor = /tmp/x\n"})
	if !res.IsError || !strings.Contains(res.Output, "git_writes") {
		t.Fatalf("write_file into .git: %+v", res)
	}
}

func TestGitWorkflowWithGitWrites(t *testing.T) {
	te := newTestEnv(t, "workspace")
	requireSandbox(t, te.Env)
	shellRepo(t, te, sandbox.Settings{GitWrites: true})
	res := run(t, Shell{}, te.Env, obj{"command": "git -c user.email=a@b -c user.name=n add -A && git -c user.email=a@b -c user.name=n commit -qm first && git log --oneline | wc -l && git checkout -qb topic && git mv a.txt b.txt && git -c user.email=a@b -c user.name=n commit -qm mv && git status --short && echo DONE; echo hook > .git/hooks/pre-commit; git config core.hooksPath /tmp/x; mv .git .git-aside && echo MOVED"})
	if !strings.Contains(res.Output, "DONE") {
		t.Fatalf("git workflow failed: %s", res.Output)
	}
	if !strings.Contains(res.Output, "Read-only file system") || strings.Contains(res.Output, "MOVED") {
		t.Fatalf("hooks or config were writable, or .git could be moved: %s", res.Output)
	}
}

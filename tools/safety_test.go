package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileToolsRefuseEscapes(t *testing.T) {
	te := newTestEnv(t, "workspace")
	te.write(t, "f.txt", "a\n")
	outFile := te.write(t, filepath.Join(te.out, "target.txt"), "outside\n")
	if err := os.Symlink(te.out, filepath.Join(te.ws, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(te.out, "new.txt"), filepath.Join(te.ws, "dangling")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(te.ws, ".git", "hooks"), 0o755)
	before := snapshot(t, te.base)
	for _, c := range []struct {
		tool Tool
		args obj
	}{
		{WriteFile{}, obj{"path": "link/target.txt", "content": "x"}},
		{WriteFile{}, obj{"path": "link/new.txt", "content": "x"}},
		{WriteFile{}, obj{"path": "dangling", "content": "x"}},
		{WriteFile{}, obj{"path": "../out/new.txt", "content": "x"}},
		{WriteFile{}, obj{"path": "sub/../../out/new.txt", "content": "x"}},
		{WriteFile{}, obj{"path": outFile, "content": "x"}},
		{WriteFile{}, obj{"path": ".git/hooks/pre-commit", "content": "x"}},
		{WriteFile{}, obj{"path": ".git/config", "content": "x"}},
		{WriteFile{}, obj{"path": filepath.Join(te.home, ".config", "quire", "config.toml"), "content": "x"}},
		{EditFile{}, obj{"path": "link/target.txt", "old_string": "outside", "new_string": "x"}},
		{EditFile{}, obj{"path": outFile, "old_string": "outside", "new_string": "x"}},
	} {
		res := run(t, c.tool, te.Env, c.args)
		if !res.IsError || !strings.Contains(res.Output, "does not allow writing") {
			t.Errorf("%s %v: %+v", c.tool.Spec().Name, c.args["path"], res)
		}
		if _, err := c.tool.Plan(te.Env, nil, args(t, c.args)); err == nil {
			t.Errorf("%s %v: Plan accepted it", c.tool.Spec().Name, c.args["path"])
		}
	}
	if !sameSnapshot(before, snapshot(t, te.base)) {
		t.Fatal("a refused write changed files")
	}
	// Reading outside is fine under workspace: it reads everything.
	if res := run(t, ReadFile{}, te.Env, obj{"path": "link/target.txt"}); res.IsError {
		t.Errorf("workspace read through a symlink: %s", res.Output)
	}
}

func TestStrictReadFileRefusesHome(t *testing.T) {
	te := newTestEnv(t, "strict")
	key := te.write(t, filepath.Join(te.home, ".ssh", "id_rsa"), "PRIVATE\n")
	res := run(t, ReadFile{}, te.Env, obj{"path": key})
	if !res.IsError || strings.Contains(res.Output, "PRIVATE") || !strings.Contains(res.Output, "does not allow reading") {
		t.Fatalf("%+v", res)
	}
	res = run(t, Grep{}, te.Env, obj{"pattern": "PRIVATE", "path": te.home})
	if !res.IsError {
		t.Fatalf("grep under strict read the home dir: %+v", res)
	}
}

func TestReadOnlyProfileRefusesWorkspaceWrites(t *testing.T) {
	te := newTestEnv(t, "read-only")
	res := run(t, WriteFile{}, te.Env, obj{"path": "x.txt", "content": "x"})
	if !res.IsError {
		t.Fatalf("%+v", res)
	}
	tmp := filepath.Join(t.TempDir(), "ok.txt")
	if res := run(t, WriteFile{}, te.Env, obj{"path": tmp, "content": "x"}); res.IsError {
		t.Fatalf("temp dirs stay writable: %s", res.Output)
	}
}

func TestFileToolsCannotReadQuiresOwnProcess(t *testing.T) {
	te := newTestEnv(t, "workspace")
	for _, path := range []string{"/proc/self/environ", "/proc/thread-self/environ", fmt.Sprintf("/proc/%d/cmdline", os.Getpid())} {
		res := run(t, ReadFile{}, te.Env, obj{"path": path})
		if !res.IsError || !strings.Contains(res.Output, "quire's own process") {
			t.Errorf("%s: %+v", path, res)
		}
	}
}

package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestApplyPatchOperations(t *testing.T) {
	te := newTestEnv(t, "workspace")
	te.write(t, "del.txt", "bye\n")
	te.write(t, "a.py", "def f():\n    return 1\n")
	te.write(t, "crlf.txt", "one\r\ntwo\r\n")
	p := "*** Begin Patch\n" +
		"*** Add File: n.txt\n+hi\n" +
		"*** Delete File: del.txt\n" +
		"*** Update File: a.py\n*** Move to: b.py\n@@ def f():\n-    return 1\n+    return 2\n" +
		"*** Update File: crlf.txt\n one\n-two\n+three\n" +
		"*** End Patch\n"
	plan, err := ApplyPatch{}.Plan(te.Env, nil, args(t, obj{"patch": p}))
	if err != nil || len(plan.Writes) != 5 || !plan.InDir || !strings.Contains(plan.Preview, "+    return 2") {
		t.Fatalf("plan %+v, err %v", plan, err)
	}
	res := run(t, ApplyPatch{}, te.Env, obj{"patch": p})
	if res.IsError {
		t.Fatal(res.Output)
	}
	if got := te.read(t, "n.txt"); got != "hi\n" {
		t.Errorf("n.txt = %q", got)
	}
	if _, err := os.Stat(filepath.Join(te.ws, "del.txt")); !os.IsNotExist(err) {
		t.Error("del.txt still exists")
	}
	if _, err := os.Stat(filepath.Join(te.ws, "a.py")); !os.IsNotExist(err) {
		t.Error("a.py was not moved")
	}
	if got := te.read(t, "b.py"); got != "def f():\n    return 2\n" {
		t.Errorf("b.py = %q", got)
	}
	if got := te.read(t, "crlf.txt"); got != "one\r\nthree\r\n" {
		t.Errorf("crlf.txt = %q", got)
	}
	for _, want := range []string{"A n.txt", "D del.txt", "M b.py (moved from a.py)", "M crlf.txt"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("summary lacks %q: %s", want, res.Output)
		}
	}
	if !strings.Contains(res.Diff, "--- /dev/null\n+++ b/n.txt") || !strings.Contains(res.Diff, "--- a/del.txt\n+++ /dev/null") {
		t.Errorf("diff:\n%s", res.Diff)
	}
}

// snapshot records every file under dir, to prove failures change nothing.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			m[p] = string(b)
		}
		return nil
	})
	return m
}

func sameSnapshot(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestApplyPatchIsAllOrNothing(t *testing.T) {
	for _, c := range []struct{ name, patch, want string }{
		{"no begin", "*** Update File: a.txt\n-a\n+b\n*** End Patch", "Begin Patch"},
		{"no end", "*** Begin Patch\n*** Add File: z.txt\n+z\n", "End Patch"},
		{"second file fails", "*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n*** Update File: b.txt\n-nope\n+x\n*** End Patch", "Failed to find expected lines in b.txt"},
		{"missing file", "*** Begin Patch\n*** Add File: new.txt\n+n\n*** Update File: gone.txt\n-a\n+b\n*** End Patch", "does not exist"},
		{"delete missing", "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch", "does not exist"},
		{"write outside", "*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n*** Add File: ../out/evil.txt\n+x\n*** End Patch", "does not allow writing"},
		{"absolute outside", "*** Begin Patch\n*** Add File: new.txt\n+n\n*** Add File: OUT/evil.txt\n+x\n*** End Patch", "does not allow writing"},
		{"protected hooks", "*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+#!/bin/sh\n*** End Patch", "never writable"},
		{"same file twice", "*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n*** Delete File: a.txt\n*** End Patch", "more than one operation"},
		{"reverse hunks", "*** Begin Patch\n*** Update File: b.txt\n-3\n+x\n@@\n-1\n+y\n*** End Patch", "Failed to find expected lines"},
	} {
		t.Run(c.name, func(t *testing.T) {
			te := newTestEnv(t, "workspace")
			te.write(t, "a.txt", "a\n")
			te.write(t, "b.txt", "1\n2\n3\n")
			os.MkdirAll(filepath.Join(te.ws, ".git", "hooks"), 0o755)
			before := snapshot(t, te.base)
			res := run(t, ApplyPatch{}, te.Env, obj{"patch": strings.ReplaceAll(c.patch, "OUT", te.out)})
			if !res.IsError || !strings.Contains(res.Output, c.want) {
				t.Fatalf("result %+v, want an error mentioning %q", res, c.want)
			}
			if !sameSnapshot(before, snapshot(t, te.base)) {
				t.Fatal("a refused patch changed files")
			}
		})
	}
}

func TestCommitRollsBackOnWriteFailure(t *testing.T) {
	te := newTestEnv(t, "workspace")
	te.write(t, "a.txt", "a\n")
	first, err := loadForChange(filepath.Join(te.ws, "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	first.new = []byte("changed\n")
	// The second change creates a file under a dangling link: the file is
	// as planned (absent), but writing it fails, which is only discovered
	// after the first one was written.
	if err := os.Symlink(filepath.Join(te.ws, "missing"), filepath.Join(te.ws, "dangling")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, te.base)
	second := fileChange{path: filepath.Join(te.ws, "dangling", "x.txt"), new: []byte("x")}
	if err := commitChanges(te.Env, 1, []fileChange{first, second}); err == nil || !strings.Contains(err.Error(), "no file was changed") {
		t.Fatalf("err = %v", err)
	}
	if !sameSnapshot(before, snapshot(t, te.base)) {
		t.Fatal("files changed after a failed write")
	}
}

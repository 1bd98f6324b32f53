package tools

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func TestEditFile(t *testing.T) {
	for _, c := range []struct {
		name    string
		file    string
		args    obj
		want    string // file afterwards
		errHas  []string
		success bool
	}{
		{name: "unique replace", file: "a\nfoo\nb\n", args: obj{"old_string": "foo", "new_string": "bar"}, want: "a\nbar\nb\n", success: true},
		{name: "not found", file: "a\nb\n", args: obj{"old_string": "x", "new_string": "y"},
			errHas: []string{"The string to replace was not found in the file, use the read_file tool to see the correct string."}},
		{name: "two matches", file: "foo\nfoo\n", args: obj{"old_string": "foo", "new_string": "bar"},
			errHas: []string{"Found 2 matches", "lines 1, 2", "replace_all"}},
		{name: "replace all", file: "foo\nfoo\n", args: obj{"old_string": "foo", "new_string": "bar", "replace_all": true}, want: "bar\nbar\n", success: true},
		{name: "no re-matching inside replacements", file: "aaa", args: obj{"old_string": "a", "new_string": "aa", "replace_all": true}, want: "aaaaaa", success: true},
		{name: "CRLF kept", file: "x\r\ny\r\n", args: obj{"old_string": "x\ny", "new_string": "z"}, want: "z\r\n", success: true},
		{name: "CRLF in old_string too", file: "x\r\ny\r\nw\r\n", args: obj{"old_string": "y\r\n", "new_string": "v\n"}, want: "x\r\nv\r\nw\r\n", success: true},
		{name: "mixed endings matched byte for byte", file: "x\r\ny\nz\n", args: obj{"old_string": "y\n", "new_string": "q\n"}, want: "x\r\nq\nz\n", success: true},
		{name: "confusable hint", file: "a\nit’s here\n", args: obj{"old_string": "it's here", "new_string": "x"}, errHas: []string{"Line(s) 2 contain typographic"}},
		{name: "whitespace hint", file: "a\n\tif x {\n", args: obj{"old_string": "  if x {", "new_string": "y"}, errHas: []string{"matches at line 2 if whitespace is ignored"}},
		{name: "nearest line", file: "1\n2\n3\n4\n5\n6\nlet totals = compute(items);\n8\n", args: obj{"old_string": "let total = compute(items)\nfoo", "new_string": "x"}, errHas: []string{"line 7: let totals = compute(items);"}},
		{name: "identical strings", file: "a\n", args: obj{"old_string": "a", "new_string": "a"}, errHas: []string{"identical"}},
		{name: "empty old_string on content", file: "a\n", args: obj{"old_string": "", "new_string": "b"}, errHas: []string{"already has content"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			te := newTestEnv(t, "workspace")
			te.write(t, "f.txt", c.file)
			c.args["path"] = "f.txt"
			res := run(t, EditFile{}, te.Env, c.args)
			got := te.read(t, "f.txt")
			if res.IsError == c.success {
				t.Fatalf("IsError = %v: %s", res.IsError, res.Output)
			}
			for _, h := range c.errHas {
				if !strings.Contains(res.Output, h) {
					t.Errorf("output lacks %q:\n%s", h, res.Output)
				}
			}
			if !c.success {
				if got != c.file {
					t.Fatalf("a failed edit changed the file: %q -> %q", c.file, got)
				}
				return
			}
			if got != c.want {
				t.Fatalf("file = %q, want %q", got, c.want)
			}
			if !strings.Contains(res.Diff, "--- a/f.txt\n+++ b/f.txt\n@@") {
				t.Errorf("diff = %q", res.Diff)
			}
		})
	}
}

func TestEditNotFoundStartsExactly(t *testing.T) {
	te := newTestEnv(t, "workspace")
	te.write(t, "f.txt", "a\nb\n")
	res := run(t, EditFile{}, te.Env, obj{"path": "f.txt", "old_string": "x", "new_string": "y"})
	if !strings.HasPrefix(res.Output, "The string to replace was not found in the file, use the read_file tool to see the correct string.") {
		t.Fatalf("%q", res.Output)
	}
}

func TestEditCreatesAndRefusesMissing(t *testing.T) {
	te := newTestEnv(t, "workspace")
	res := run(t, EditFile{}, te.Env, obj{"path": "new/f.txt", "old_string": "", "new_string": "hello\n"})
	if res.IsError || te.read(t, "new/f.txt") != "hello\n" {
		t.Fatalf("create: %+v", res)
	}
	res = run(t, EditFile{}, te.Env, obj{"path": "missing.txt", "old_string": "a", "new_string": "b"})
	if !res.IsError || !strings.Contains(res.Output, "does not exist") {
		t.Fatalf("missing: %+v", res)
	}
}

func TestWriteFile(t *testing.T) {
	te := newTestEnv(t, "workspace")
	res := run(t, WriteFile{}, te.Env, obj{"path": "d/n.txt", "content": "one\n"})
	if res.IsError || te.read(t, "d/n.txt") != "one\n" || !strings.HasPrefix(res.Output, "Created") {
		t.Fatalf("%+v", res)
	}
	os.Chmod(filepath.Join(te.ws, "d/n.txt"), 0o755)
	plan, err := WriteFile{}.Plan(te.Env, nil, args(t, obj{"path": "d/n.txt", "content": "two\n"}))
	if err != nil || !strings.Contains(plan.Preview, "-one\n+two\n") || !plan.InDir || plan.Writes[0] != filepath.Join(te.ws, "d/n.txt") {
		t.Fatalf("plan %+v, err %v", plan, err)
	}
	res = run(t, WriteFile{}, te.Env, obj{"path": "d/n.txt", "content": "two\n"})
	if res.IsError || te.read(t, "d/n.txt") != "two\n" || !strings.HasPrefix(res.Output, "Overwrote") {
		t.Fatalf("%+v", res)
	}
	if fi, _ := os.Stat(filepath.Join(te.ws, "d/n.txt")); fi.Mode().Perm() != 0o755 {
		t.Errorf("mode not kept: %v", fi.Mode())
	}
}

func TestBeforeWriteHook(t *testing.T) {
	te := newTestEnv(t, "workspace")
	te.write(t, "f.txt", "a\n")
	var seen []string
	te.BeforeWrite = func(turn int, p string) error { seen = append(seen, fmt.Sprint(turn, " ", p)); return nil }
	p, err := EditFile{}.Plan(te.Env, nil, args(t, obj{"path": "f.txt", "old_string": "a", "new_string": "b"}))
	if err != nil {
		t.Fatal(err)
	}
	EditFile{}.Run(t.Context(), te.Env, Call{ID: "c", Turn: 7, Plan: p})
	// The hook gets the turn from the call, not from watching events.
	if len(seen) != 1 || seen[0] != "7 "+filepath.Join(te.ws, "f.txt") {
		t.Fatalf("hook saw %v", seen)
	}
	te.BeforeWrite = func(int, string) error { return os.ErrPermission }
	res := run(t, WriteFile{}, te.Env, obj{"path": "f.txt", "content": "zzz"})
	if !res.IsError || te.read(t, "f.txt") != "b\n" {
		t.Fatalf("a failing hook must abort the write: %+v, file %q", res, te.read(t, "f.txt"))
	}
}

// TestModelFacingErrors pins the error texts the model sees: they are an
// API contract. Run with -update to accept intended changes.
func TestModelFacingErrors(t *testing.T) {
	te := newTestEnv(t, "workspace")
	te.write(t, "f.txt", "alpha\nbeta\nbeta\nit’s\n")
	te.write(t, "g.py", "def f():\n    return 1\n")
	var b strings.Builder
	for _, c := range []struct {
		tool Tool
		args obj
	}{
		{EditFile{}, obj{"path": "f.txt", "old_string": "gamma", "new_string": "x"}},
		{EditFile{}, obj{"path": "f.txt", "old_string": "beta", "new_string": "x"}},
		{EditFile{}, obj{"path": "f.txt", "old_string": "it's", "new_string": "x"}},
		{EditFile{}, obj{"path": "nope.txt", "old_string": "a", "new_string": "b"}},
		{EditFile{}, obj{"pth": "f.txt"}},
		{ApplyPatch{}, obj{"patch": "*** Update File: g.py\n"}},
		{ApplyPatch{}, obj{"patch": "*** Begin Patch\n*** Update File: g.py\n@@ def g():\n-    return 1\n+    return 2\n*** End Patch"}},
		{ApplyPatch{}, obj{"patch": "*** Begin Patch\n*** Update File: g.py\n-    return 9\n+    return 2\n*** End Patch"}},
		{ReadFile{}, obj{"path": "f.txt", "offset": 99}},
	} {
		res := run(t, c.tool, te.Env, c.args)
		if !res.IsError {
			t.Fatalf("%s %v succeeded", c.tool.Spec().Name, c.args)
		}
		b.WriteString("== " + c.tool.Spec().Name + "\n" + res.Output + "\n")
	}
	golden := filepath.Join("testdata", "errors.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != b.String() {
		t.Errorf("model-facing errors changed (run with -update if intended):\n--- got\n%s\n--- want\n%s", b.String(), want)
	}
}

package tools

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// files is a workspace's content: path relative to it → bytes.
type files map[string]string

// workspaceFiles reads every file under dir, relative to it.
func workspaceFiles(t *testing.T, dir string) files {
	t.Helper()
	got := files{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			got[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func (f files) String() string {
	var keys []string
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + ": " + strconv.Quote(f[k]) + "\n")
	}
	return b.String()
}

// patchText wraps body in the envelope.
func patchText(body string) string { return "*** Begin Patch\n" + body + "*** End Patch\n" }

const pyFile = "import os\n\ndef f():\n    return 1\n\ndef g():\n    return 1\n"

// The apply_patch tool on disk, one case per class of the published
// grammar and of the leniency models were trained against: the files
// after the call are exactly these.
func TestApplyPatchGrammar(t *testing.T) {
	tests := []struct {
		name          string
		before, after files
		patch         string
	}{
		// Operations.
		{"add, creating directories", files{}, files{"a/b/new.txt": "one\n\nthree\n"},
			patchText("*** Add File: a/b/new.txt\n+one\n+\n+three\n")},
		{"add over an existing file replaces it", files{"a.txt": "old\n"}, files{"a.txt": "new\n"},
			patchText("*** Add File: a.txt\n+new\n")},
		{"delete", files{"a.txt": "a\n", "keep.txt": "k\n"}, files{"keep.txt": "k\n"},
			patchText("*** Delete File: a.txt\n")},
		{"update under a context line", files{"m.py": pyFile}, files{"m.py": strings.Replace(pyFile, "def g():\n    return 1", "def g():\n    return 2", 1)},
			patchText("*** Update File: m.py\n@@ def g():\n-    return 1\n+    return 2\n")},
		{"two chunks", files{"m.py": pyFile}, files{"m.py": "import os\nimport sys\n\ndef f():\n    return 1\n\ndef g():\n    return 3\n"},
			patchText("*** Update File: m.py\n@@\n import os\n+import sys\n@@ def g():\n-    return 1\n+    return 3\n")},
		{"move to a new directory", files{"old/a.txt": "x\ny\n", "old/other.txt": "o\n"}, files{"new/dir/b.txt": "x\nz\n", "old/other.txt": "o\n"},
			patchText("*** Update File: old/a.txt\n*** Move to: new/dir/b.txt\n@@\n x\n-y\n+z\n")},
		{"move over an existing file replaces it", files{"a.txt": "1\n", "b.txt": "old b\n"}, files{"b.txt": "2\n"},
			patchText("*** Update File: a.txt\n*** Move to: b.txt\n-1\n+2\n")},
		{"move to the same path is an update", files{"a.txt": "1\n"}, files{"a.txt": "2\n"},
			patchText("*** Update File: a.txt\n*** Move to: ./a.txt\n-1\n+2\n")},
		{"rename only", files{"a.txt": "same\n"}, files{"b.txt": "same\n"},
			patchText("*** Update File: a.txt\n*** Move to: b.txt\n")},
		{"end of file picks the last occurrence", files{"t.txt": "x\ny\nx\ny\n"}, files{"t.txt": "x\ny\nx\nz\n"},
			patchText("*** Update File: t.txt\n@@\n x\n-y\n+z\n*** End of File\n")},
		{"pure addition goes at the end", files{"t.txt": "a\nb\n"}, files{"t.txt": "a\nb\nc\nd\n"},
			patchText("*** Update File: t.txt\n@@\n+c\n+d\n")},
		{"deletion only", files{"t.txt": "a\nb\nc\n"}, files{"t.txt": "a\nc\n"},
			patchText("*** Update File: t.txt\n@@\n-b\n")},
		{"a file without a final newline gets one", files{"t.txt": "a\nb"}, files{"t.txt": "a\nB\n"},
			patchText("*** Update File: t.txt\n a\n-b\n+B\n")},
		{"unicode text", files{"t.txt": "完成后\nthe end\n"}, files{"t.txt": "完成前\nthe end\n"},
			patchText("*** Update File: t.txt\n-完成后\n+完成前\n")},

		// Line ends.
		{"a CRLF file stays CRLF", files{"w.txt": "one\r\ntwo\r\n"}, files{"w.txt": "one\r\nTWO\r\n"},
			patchText("*** Update File: w.txt\n one\n-two\n+TWO\n")},
		{"a CRLF patch on an LF file", files{"t.txt": "one\ntwo\n"}, files{"t.txt": "one\nTWO\n", "n.txt": "new\n"},
			strings.ReplaceAll(patchText("*** Update File: t.txt\n one\n-two\n+TWO\n*** Add File: n.txt\n+new\n"), "\n", "\r\n")},
		{"a CRLF patch on a CRLF file", files{"w.txt": "one\r\ntwo\r\n"}, files{"w.txt": "one\r\nTWO\r\n"},
			strings.ReplaceAll(patchText("*** Update File: w.txt\n one\n-two\n+TWO\n"), "\n", "\r\n")},

		// Whitespace around markers.
		{"padded update header", files{"a.txt": "old\n"}, files{"a.txt": "new\n"},
			"*** Begin Patch\n  *** Update File: a.txt\n@@\n-old\n+new\n*** End Patch\n"},
		{"padded markers everywhere", files{"a.txt": "1\n2\n", "c.txt": "c\n"}, files{"b.txt": "1\nTWO\n", "n.txt": "n\n"},
			"*** Begin Patch  \n\t*** Update File: a.txt \n  *** Move to: b.txt\n@@\n 1\n-2\n+TWO\n *** End of File\n   *** Add File: n.txt\n+n\n *** Delete File: c.txt\n  *** End Patch  \n"},

		// Blank lines.
		{"blank line after the update header", files{"m.py": pyFile}, files{"m.py": strings.Replace(pyFile, "return 1", "return 5", 1)},
			patchText("*** Update File: m.py\n\n@@ def f():\n-    return 1\n+    return 5\n")},
		{"blank line between chunks", files{"m.py": pyFile}, files{"m.py": "import os\n\ndef f():\n    return 5\n\ndef g():\n    return 6\n"},
			patchText("*** Update File: m.py\n@@ def f():\n-    return 1\n+    return 5\n\n@@ def g():\n-    return 1\n+    return 6\n")},
		{"blank lines and whitespace between chunks", files{"t.txt": "a\nb\nc\nd\n"}, files{"t.txt": "A\nb\nc\nD\n"},
			patchText("*** Update File: t.txt\n@@\n-a\n+A\n\n \t\n\n@@\n-d\n+D\n")},
		{"blank lines between operations", files{"a.txt": "a\n"}, files{"a.txt": "A\n", "n.txt": "n\n"},
			patchText("\n*** Update File: a.txt\n-a\n+A\n\n\n*** Add File: n.txt\n+n\n\n")},
		{"blank line after end of file", files{"t.txt": "a\nb\n"}, files{"t.txt": "a\nB\nc\n"},
			patchText("*** Update File: t.txt\n@@\n-b\n+B\n*** End of File\n\n@@\n+c\n")},
		{"end of file before trailing blank lines", files{"t.go": "}\nfunc f() {\n}\n\n"}, files{"t.go": "}\nfunc f() {\n}\n\nfunc g() {}\n\n"},
			patchText("*** Update File: t.go\n@@\n }\n+\n+func g() {}\n*** End of File\n")},
		{"empty context line without its space", files{"m.py": pyFile}, files{"m.py": strings.Replace(pyFile, "\n\ndef g", "\n\n# g\ndef g", 1)},
			patchText("*** Update File: m.py\n@@\n     return 1\n\n+# g\n def g():\n")},

		// "@@" lines.
		{"@@ context with trailing whitespace", files{"m.py": pyFile}, files{"m.py": strings.Replace(pyFile, "def g():\n    return 1", "def g():\n    return 9", 1)},
			patchText("*** Update File: m.py\n@@ def g():   \n-    return 1\n+    return 9\n")},
		{"@@ with only whitespace", files{"t.txt": "a\n"}, files{"t.txt": "b\n"},
			patchText("*** Update File: t.txt\n@@  \t\n-a\n+b\n")},
		{"stacked @@ lines narrow the search", files{"c.py": "class A:\n  def f(self):\n    pass\nclass B:\n  def f(self):\n    pass\n"},
			files{"c.py": "class A:\n  def f(self):\n    pass\nclass B:\n  def f(self):\n    return 1\n"},
			patchText("*** Update File: c.py\n@@ class B:\n@@   def f(self):\n-    pass\n+    return 1\n")},
		{"unified diff position", files{"m.py": pyFile}, files{"m.py": strings.Replace(pyFile, "def g():\n    return 1", "def g():\n    return 7", 1)},
			patchText("*** Update File: m.py\n@@ -6,2 +6,2 @@ def g():\n-    return 1\n+    return 7\n")},

		// Finding the lines.
		{"trailing whitespace in the file", files{"t.txt": "a  \nb\t\n"}, files{"t.txt": "a  \nB\n"},
			patchText("*** Update File: t.txt\n a\n-b\n+B\n")},
		{"indentation differs", files{"t.go": "func f() {\n\treturn\n}\n"}, files{"t.go": "func f() {\n\treturn nil\n}\n"},
			patchText("*** Update File: t.go\n@@ func f() {\n-    return\n+\treturn nil\n")},
		{"dashes, quotes and no-break spaces in the file", files{"d.md": "Title \u2014 \u201cquoted\u201d\nit\u2019s\u00a0here\n"}, files{"d.md": "Title - \"quoted\"\nit is here\n"},
			patchText("*** Update File: d.md\n-Title - \"quoted\"\n-it's here\n+Title - \"quoted\"\n+it is here\n")},
		{"typography in the patch", files{"t.txt": "a - b\n\"c\"\n"}, files{"t.txt": "x\n"},
			patchText("*** Update File: t.txt\n-a \u2013 b\n-\u201cc\u201d\n+x\n")},
		{"unicode context line", files{"t.md": "# One \u2013 intro\nx\n# Two \u2013 body\nx\n"}, files{"t.md": "# One \u2013 intro\nx\n# Two \u2013 body\ny\n"},
			patchText("*** Update File: t.md\n@@ # Two - body\n-x\n+y\n")},
		{"alignment drifted", files{"s.go": "type T struct {\n\tName    string\n\tAge     int\n}\n"}, files{"s.go": "type T struct {\n\tName string\n\tAge  int64\n}\n"},
			patchText("*** Update File: s.go\n-\tName string\n-\tAge int\n+\tName string\n+\tAge  int64\n")},
		{"context lines keep the file's text", files{"t.py": "# Title \u2014 \u201cx\u201d\n\tindented  \nold\n"}, files{"t.py": "# Title \u2014 \u201cx\u201d\n\tindented  \nnew\n"},
			patchText("*** Update File: t.py\n # Title - \"x\"\n     indented\n-old\n+new\n")},
		{"exact match wins over an earlier lenient one", files{"t.txt": "  foo\nfoo\n"}, files{"t.txt": "  foo\nbar\n"},
			patchText("*** Update File: t.txt\n-foo\n+bar\n")},

		// Wrappers.
		{"heredoc", files{"a.txt": "1\n"}, files{"a.txt": "2\n"}, "<<'EOF'\n" + patchText("*** Update File: a.txt\n-1\n+2\n") + "EOF\n"},
		{"heredoc unquoted", files{"a.txt": "1\n"}, files{"a.txt": "2\n"}, "<<EOF\n" + patchText("*** Update File: a.txt\n-1\n+2\n") + "EOF"},
		{"apply_patch heredoc", files{"a.txt": "1\n"}, files{"a.txt": "2\n"}, "apply_patch <<'EOF'\n" + patchText("*** Update File: a.txt\n-1\n+2\n") + "EOF\n"},
		{"cd && apply_patch heredoc", files{"sub/a.txt": "1\n"}, files{"sub/a.txt": "2\n", "sub/new.txt": "n\n"},
			"cd sub && apply_patch <<'EOF'\n" + patchText("*** Update File: a.txt\n-1\n+2\n*** Add File: new.txt\n+n\n") + "EOF\n"},
		{"code fence", files{"a.txt": "1\n"}, files{"a.txt": "2\n"}, "```\n" + patchText("*** Update File: a.txt\n-1\n+2\n") + "```\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			te := newTestEnv(t, "workspace")
			for p, content := range tt.before {
				te.write(t, p, content)
			}
			res := run(t, ApplyPatch{}, te.Env, obj{"patch": tt.patch})
			if res.IsError {
				t.Fatalf("refused: %s", res.Output)
			}
			if got := workspaceFiles(t, te.ws); got.String() != tt.after.String() {
				t.Errorf("workspace after:\n%swant:\n%s", got, tt.after)
			}
		})
	}
}

// Every refused patch says why and leaves every file byte for byte as it
// was, in the workspace and outside it.
func TestApplyPatchRefusals(t *testing.T) {
	before := files{"a.txt": "a\n", "b.txt": "1\n2\n3\n", "m.py": pyFile, "dir/keep.txt": "k\n"}
	tests := []struct{ name, patch, want string }{
		{"empty", "", "the patch is empty"},
		{"whitespace only", "  \n\n", "the patch is empty"},
		{"no operations", patchText(""), "no file operations"},
		{"no end", "*** Begin Patch\n*** Add File: z.txt\n+z\n", "'*** End Patch'"},
		{"no begin", "*** Update File: a.txt\n-a\n+b\n*** End Patch\n", "'*** Begin Patch'"},
		{"invalid hunk header", patchText("*** Add File: z.txt\n+z\n*** Copy File: a.txt\n"), "line 4: \"*** Copy File: a.txt\" is not a valid hunk header"},
		{"unexpected line in an update", patchText("*** Add File: z.txt\n+z\n*** Update File: a.txt\n-a\n+b\nc\n"), "line 7: unexpected line \"c\""},
		{"end of file before any change", patchText("*** Update File: a.txt\n*** End of File\n"), "'*** End of File' must follow the lines of a change"},
		{"update without changes", patchText("*** Update File: a.txt\n"), "contains no changes"},
		{"update of a missing file", patchText("*** Add File: z.txt\n+z\n*** Update File: gone.txt\n-a\n+b\n"), "cannot update gone.txt: it does not exist"},
		{"delete of a missing file", patchText("*** Delete File: gone.txt\n"), "cannot delete gone.txt: it does not exist"},
		{"delete of a directory", patchText("*** Delete File: dir\n"), "is a directory"},
		{"move onto a directory", patchText("*** Update File: a.txt\n*** Move to: dir\n-a\n+b\n"), "is a directory"},
		{"context not found", patchText("*** Update File: m.py\n@@ def h():\n-    return 1\n+    return 2\n"), "Failed to find context 'def h():' in m.py"},
		{"lines not found", patchText("*** Update File: b.txt\n-4\n+5\n"), "Failed to find expected lines in b.txt:\n4"},
		{"chunks out of order", patchText("*** Update File: b.txt\n@@\n-3\n+x\n@@\n-1\n+y\n"), "Failed to find expected lines in b.txt:\n1"},
		{"end of file not at the end", patchText("*** Update File: b.txt\n-1\n+x\n*** End of File\n"), "Failed to find expected lines"},
		{"second file fails after the first applied", patchText("*** Update File: a.txt\n-a\n+b\n*** Add File: new/n.txt\n+n\n*** Update File: b.txt\n-nope\n+x\n"), "Failed to find expected lines in b.txt"},
		{"relative path out of the workspace", patchText("*** Update File: a.txt\n-a\n+b\n*** Add File: ../out/evil.txt\n+x\n"), "does not allow writing"},
		{"absolute path out of the workspace", patchText("*** Add File: OUT/evil.txt\n+x\n"), "does not allow writing"},
		{"delete out of the workspace", patchText("*** Delete File: ../out/victim.txt\n"), "does not allow writing"},
		{"move out of the workspace", patchText("*** Update File: a.txt\n*** Move to: ../out/a.txt\n-a\n+b\n"), "does not allow writing"},
		{"cd out of the workspace", "cd .. && apply_patch <<'EOF'\n" + patchText("*** Add File: out/evil.txt\n+x\n") + "EOF\n", "does not allow writing"},
		{"through a symlink out of the workspace", patchText("*** Add File: link/evil.txt\n+x\n"), "does not allow writing"},
		{"git hooks", patchText("*** Add File: .git/hooks/pre-commit\n+#!/bin/sh\n"), "never writable"},
		{"same file twice", patchText("*** Update File: a.txt\n-a\n+b\n*** Delete File: a.txt\n"), "more than one operation"},
		{"move onto a file the patch deletes", patchText("*** Delete File: b.txt\n*** Update File: a.txt\n*** Move to: b.txt\n-a\n+b\n"), "more than one operation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			te := newTestEnv(t, "workspace")
			for p, content := range before {
				te.write(t, p, content)
			}
			if err := os.WriteFile(filepath.Join(te.out, "victim.txt"), []byte("v\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(te.out, filepath.Join(te.ws, "link")); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(te.ws, ".git", "hooks"), 0o755); err != nil {
				t.Fatal(err)
			}
			was := workspaceFiles(t, te.base)
			res := run(t, ApplyPatch{}, te.Env, obj{"patch": strings.ReplaceAll(tt.patch, "OUT", te.out)})
			if !res.IsError || !strings.Contains(res.Output, tt.want) || !strings.Contains(res.Output, "Nothing was changed.") {
				t.Fatalf("result %q, want an error mentioning %q and that nothing changed", res.Output, tt.want)
			}
			if now := workspaceFiles(t, te.base); now.String() != was.String() {
				t.Fatalf("a refused patch changed files:\n%swas:\n%s", now, was)
			}
		})
	}
}

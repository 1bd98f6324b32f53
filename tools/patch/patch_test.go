package patch

import (
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	text := "*** Begin Patch\n" +
		"*** Add File: n.txt\n+hi\n+\n" +
		"*** Delete File: old.txt\n" +
		"*** Update File: a.py\n*** Move to: b.py\n@@ def f():\n-    return 1\n+    return 2\n\n x = 1\n*** End of File\n" +
		"*** End Patch\n"
	hunks, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(hunks) != 3 {
		t.Fatalf("got %d hunks", len(hunks))
	}
	if h := hunks[0]; h.Op != Add || h.Path != "n.txt" || h.Contents != "hi\n\n" {
		t.Errorf("add hunk = %+v", h)
	}
	if h := hunks[1]; h.Op != Delete || h.Path != "old.txt" {
		t.Errorf("delete hunk = %+v", h)
	}
	h := hunks[2]
	if h.Op != Update || h.Path != "a.py" || h.MoveTo != "b.py" || len(h.Chunks) != 1 {
		t.Fatalf("update hunk = %+v", h)
	}
	c := h.Chunks[0]
	if c.Context != "def f():" || !c.EOF ||
		strings.Join(c.Old, "|") != "    return 1||x = 1" || strings.Join(c.New, "|") != "    return 2||x = 1" {
		t.Errorf("chunk = %+v", c)
	}
}

func TestParseHeredocWrapper(t *testing.T) {
	for _, text := range []string{
		"<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n",
		"<<EOF\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF",
	} {
		if hunks, err := Parse(text); err != nil || len(hunks) != 1 || hunks[0].Path != "a" {
			t.Errorf("%q: %v %v", text, hunks, err)
		}
	}
	if _, err := Parse("<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEND\n"); err == nil {
		t.Error("a mismatched heredoc terminator was accepted")
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"no begin", "*** Add File: a\n+x\n*** End Patch\n", "first line"},
		{"no end", "*** Begin Patch\n*** Add File: a\n+x\n", "last line"},
		{"empty", "*** Begin Patch\n*** End Patch\n", "no file operations"},
		{"bad header", "*** Begin Patch\n*** Frobnicate File: a\n*** End Patch", "not a valid hunk header"},
		{"add without plus", "*** Begin Patch\n*** Add File: a\nx\n*** End Patch", "must start with '+'"},
		{"empty update", "*** Begin Patch\n*** Update File: a\n*** End Patch", "contains no changes"},
		{"bad change line", "*** Begin Patch\n*** Update File: a\n@@\n x\n?y\n*** End Patch", "line 5"},
		{"missing path", "*** Begin Patch\n*** Delete File: \n*** End Patch", "missing file path"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.text)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to mention %q", err, c.want)
			}
		})
	}
}

func TestApplyFuzzLevels(t *testing.T) {
	for _, c := range []struct {
		name, file string
		chunk      Chunk
		want       string
	}{
		{"exact", "a\nfoo\nb\n", Chunk{Old: []string{"foo"}, New: []string{"bar"}}, "a\nbar\nb\n"},
		{"trailing whitespace (level 2)", "a\nfoo   \nb\n", Chunk{Old: []string{"foo"}, New: []string{"bar"}}, "a\nbar\nb\n"},
		{"indentation (level 3)", "a\n    foo\nb\n", Chunk{Old: []string{"foo"}, New: []string{"bar"}}, "a\nbar\nb\n"},
		{"typography (level 4)", "x\na – b\ny\n", Chunk{Old: []string{"a - b"}, New: []string{"c"}}, "x\nc\ny\n"},
		{"curly quotes (level 4)", "it’s “q”\n", Chunk{Old: []string{`it's "q"`}, New: []string{"ok"}}, "ok\n"},
		{"exact beats an earlier fuzzy match", "  foo\nfoo\n", Chunk{Old: []string{"foo"}, New: []string{"bar"}}, "  foo\nbar\n"},
		{"end of file prefers the last occurrence", "x\ny\nx\ny\n", Chunk{Old: []string{"x", "y"}, New: []string{"z"}, EOF: true}, "x\ny\nz\n"},
		{"context cursor", "def f():\n  return 1\ndef g():\n  return 1\n", Chunk{Context: "def g():", Old: []string{"  return 1"}, New: []string{"  return 2"}}, "def f():\n  return 1\ndef g():\n  return 2\n"},
		{"pure insertion appends", "a\n", Chunk{New: []string{"b"}}, "a\nb\n"},
		{"trailing empty old line stands for the final newline", "a\nb", Chunk{Old: []string{"b", ""}, New: []string{"c", ""}}, "a\nc\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Apply(c.file, "f", []Chunk{c.chunk})
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	file := "def f():\n    return 1\n\ndef h():\n    return 3\n"
	for _, c := range []struct {
		name   string
		chunks []Chunk
		want   string
	}{
		{"missing context", []Chunk{{Context: "def g():", Old: []string{"x"}}}, "Failed to find context 'def g():' in f.py"},
		{"missing lines", []Chunk{{Old: []string{"nope", "still nope"}}}, "Failed to find expected lines in f.py:\nnope\nstill nope"},
		{"reverse order", []Chunk{
			{Old: []string{"    return 3"}, New: []string{"    return 4"}},
			{Old: []string{"    return 1"}, New: []string{"    return 2"}},
		}, "Failed to find expected lines in f.py:\n    return 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Apply(file, "f.py", c.chunks)
			if err == nil || err.Error() != c.want {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

func TestSeekEdges(t *testing.T) {
	lines := []string{"a", "b"}
	if got := Seek(lines, nil, 1, false); got != 1 {
		t.Errorf("empty pattern: %d", got)
	}
	if got := Seek(lines, []string{"a", "b", "c"}, 0, false); got != -1 {
		t.Errorf("pattern longer than file: %d", got)
	}
	if got := Seek(lines, []string{"a"}, 1, false); got != -1 {
		t.Errorf("search is forward only: %d", got)
	}
}

// TestPure keeps the engine free of filesystem access: it works on
// strings, the tool layer does the I/O under the sandbox rules.
func TestPure(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		pf, err := goparser.ParseFile(token.NewFileSet(), f, nil, goparser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range pf.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch path {
			case "os", "io/fs", "io/ioutil", "path/filepath", "syscall", "os/exec":
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
}

func FuzzParseApply(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: a\n@@ x\n-y\n+z\n*** End of File\n*** End Patch", "x\ny\n")
	f.Add("*** Begin Patch\n*** Add File: n\n+hi\n*** Delete File: d\n*** End Patch\n", "")
	f.Add("*** Begin Patch\n*** Update File: a\n*** Move to: b\n\n a\n*** End Patch", "a\n\n")
	f.Fuzz(func(t *testing.T, text, original string) {
		hunks, err := Parse(text)
		if err != nil {
			return
		}
		if len(hunks) == 0 {
			t.Fatal("Parse succeeded with no hunks")
		}
		for _, h := range hunks {
			if h.Path == "" {
				t.Fatal("hunk without a path")
			}
			if h.Op != Update {
				continue
			}
			out, err := Apply(original, h.Path, h.Chunks)
			if err == nil && !strings.HasSuffix(out, "\n") {
				t.Fatalf("Apply result %q does not end with a newline", out)
			}
		}
	})
}

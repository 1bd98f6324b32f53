package patch

import (
	"errors"
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
		{"pure insertion goes before a final empty line", "a\n\n", Chunk{New: []string{"b"}}, "a\nb\n\n"},
		{"trailing empty old line stands for the final newline", "a\nb", Chunk{Old: []string{"b", ""}, New: []string{"c", ""}}, "a\nc\n"},
		{"trailing blank lines that separated chunks", "a\nb\nc\n", Chunk{Old: []string{"b", "", " "}, New: []string{"x", "", " "}}, "a\nx\nc\n"},
		{"trailing blank context kept where the file has it", "b\nc\nb\n\nd\n", Chunk{Old: []string{"b", ""}, New: []string{"x", ""}}, "b\nc\nx\n\nd\n"},
		{"blank context alone falls back to the cursor", "def f():\n  pass\n", Chunk{Context: "def f():", Old: []string{""}, New: []string{"  x = 1", ""}}, "def f():\n  x = 1\n  pass\n"},
		{"tabs against spaces (level 3)", "\tfoo()\n", Chunk{Old: []string{"    foo()"}, New: []string{"\tbar()"}}, "\tbar()\n"},
		{"aligned columns drifted (level 5)", "type T struct {\n\tName    string // the name\n}\n", Chunk{Old: []string{"\tName string // the name"}, New: []string{"\tName string"}}, "type T struct {\n\tName string\n}\n"},
		{"non-breaking space in the file (level 4)", "x\u00a0=\u00a01\n", Chunk{Old: []string{"x = 1"}, New: []string{"x = 2"}}, "x = 2\n"},
		{"minus sign and non-breaking hyphen (level 4)", "x = a \u2212 b\ny = c\u2011d\n", Chunk{Old: []string{"x = a - b", "y = c-d"}, New: []string{"z"}}, "z\n"},
		{"low and reversed quotes (level 4)", "\u201aa\u2018 \u201eb\u201c \u201bc\u2019 \u201fd\u201d\n", Chunk{Old: []string{"'a' \"b\" 'c' \"d\""}, New: []string{"q"}}, "q\n"},
		{"thin, narrow and ideographic spaces (level 4)", "a\u2009=\u202fb\u3000c\u205fd\n", Chunk{Old: []string{"a = b c d"}, New: []string{"e"}}, "e\n"},
		{"the patch's own odd spaces against plain ones", "f(a, b)\n", Chunk{Old: []string{"f(a,\u2009b)"}, New: []string{"g()"}}, "g()\n"},
		{"typography in the patch, ASCII in the file", "say(\"it's - ok\")\n", Chunk{Old: []string{"say(\u201cit\u2019s \u2014 ok\u201d)"}, New: []string{"ok"}}, "ok\n"},
		{"unicode context line", "# Section \u2013 one\nx\n# Section \u2013 two\nx\n", Chunk{Context: "# Section - two", Old: []string{"x"}, New: []string{"y"}}, "# Section \u2013 one\nx\n# Section \u2013 two\ny\n"},
		{"context line with trailing whitespace", "a\ndef f():\nx\n", Chunk{Context: "def f():   ", Old: []string{"x"}, New: []string{"y"}}, "a\ndef f():\ny\n"},
		{"a file without a final newline gets one", "a\nb", Chunk{Old: []string{"a"}, New: []string{"z"}}, "z\nb\n"},
		{"empty file", "", Chunk{New: []string{"first"}}, "first\n"},
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

// A chunk of context alone moves the cursor, so repeated "@@" lines narrow
// the search down.
func TestApplyCursorChunks(t *testing.T) {
	file := "class A:\n  def f(self):\n    return 1\nclass B:\n  def f(self):\n    return 1\n"
	chunks := []Chunk{
		{Context: "class B:"},
		{Context: "  def f(self):", Old: []string{"    return 1"}, New: []string{"    return 2"}},
	}
	got, err := Apply(file, "f.py", chunks)
	if err != nil {
		t.Fatal(err)
	}
	if want := "class A:\n  def f(self):\n    return 1\nclass B:\n  def f(self):\n    return 2\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
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
	tail := []string{"x", "}", "y", "}", "", " "}
	for _, c := range []struct {
		pattern []string
		want    int
	}{
		{[]string{"}"}, 3},       // past the trailing blank lines
		{[]string{"y", "}"}, 2},  // likewise
		{[]string{"x"}, -1},      // not at the end: refused, not found elsewhere
		{[]string{"}", ""}, 3},   // a blank line of the pattern may match one of the file
		{[]string{"  }  "}, 3},   // with leniency
		{[]string{"y", "z"}, -1}, // nothing like it
	} {
		if got := Seek(tail, c.pattern, 0, true); got != c.want {
			t.Errorf("Seek(%q at the end) = %d, want %d", c.pattern, got, c.want)
		}
	}
}

// Context lines are found leniently but written back as the file has
// them; "-" and "+" lines are what changes.
func TestApplyKeepsContextText(t *testing.T) {
	file := "def f():\n\treturn \u201cold\u201d  \n\n# end \u2014 here\n"
	hunks, err := Parse(patchOf("*** Update File: f.py\n@@ def f():\n-    return \"old\"\n+\treturn \"new\"\n \n # end - here\n+# more\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Apply(file, "f.py", hunks[0].Chunks)
	if err != nil {
		t.Fatal(err)
	}
	if want := "def f():\n\treturn \"new\"\n\n# end \u2014 here\n# more\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
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
	f.Add("  *** Begin Patch\r\n\t*** Update File: a\r\n\r\n@@ -1 +1 @@ x\r\n-y\r\n\r\n@@\r\n+z\r\n *** End of File\r\n*** End Patch ", "x\r\ny\r\n")
	f.Add("cd d && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n+1\n\n+2\n*** End Patch\nEOF\n", "")
	f.Fuzz(func(t *testing.T, text, original string) {
		hunks, err := Parse(text)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 0 || pe.Line > strings.Count(text, "\n")+1 {
				t.Fatalf("error %v names no line of the patch", err)
			}
			return
		}
		if len(hunks) == 0 {
			t.Fatal("Parse succeeded with no hunks")
		}
		// A heredoc around a patch changes nothing, and neither do CRLF
		// line ends.
		if wrapped, err := Parse("apply_patch <<'EOF'\n" + text + "\nEOF\n"); err != nil || dump(wrapped) != dump(hunks) {
			t.Fatalf("in a heredoc: %v\n%s\nwant\n%s", err, dump(wrapped), dump(hunks))
		}
		if !strings.Contains(text, "\r") {
			if crlf, err := Parse(strings.ReplaceAll(text, "\n", "\r\n")); err != nil || dump(crlf) != dump(hunks) {
				t.Fatalf("with CRLF: %v\n%s\nwant\n%s", err, dump(crlf), dump(hunks))
			}
		}
		for _, h := range hunks {
			if h.Path == "" || strings.TrimSpace(h.Path) != h.Path {
				t.Fatalf("hunk path %q", h.Path)
			}
			if h.Op != Update {
				continue
			}
			if len(h.Chunks) == 0 && h.MoveTo == "" {
				t.Fatal("an update without changes parsed")
			}
			for _, c := range h.Chunks {
				if c.Unchanged == nil {
					continue
				}
				if len(c.Unchanged) != len(c.New) {
					t.Fatalf("chunk %+v: Unchanged does not match New", c)
				}
				for i, u := range c.Unchanged {
					if u >= len(c.Old) || u >= 0 && c.Old[u] != c.New[i] {
						t.Fatalf("chunk %+v: New[%d] is not Old[%d]", c, i, u)
					}
				}
			}
			out, err := Apply(original, h.Path, h.Chunks)
			if err == nil && !strings.HasSuffix(out, "\n") {
				t.Fatalf("Apply result %q does not end with a newline", out)
			}
		}
	})
}

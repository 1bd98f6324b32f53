package patch

import (
	"fmt"
	"strings"
	"testing"
)

// dump writes hunks one per line in a form a test can spell out:
// "A path "contents"", "D path", "U path[>moved] {@"ctx" -["old"...] +["new"...] eof}...".
func dump(hunks []Hunk) string {
	var b strings.Builder
	for _, h := range hunks {
		switch h.Op {
		case Add:
			fmt.Fprintf(&b, "A %s %q\n", h.Path, h.Contents)
		case Delete:
			fmt.Fprintf(&b, "D %s\n", h.Path)
		case Update:
			b.WriteString("U " + h.Path)
			if h.MoveTo != "" {
				b.WriteString(">" + h.MoveTo)
			}
			for _, c := range h.Chunks {
				fmt.Fprintf(&b, " {@%q -%q +%q", c.Context, c.Old, c.New)
				if c.EOF {
					b.WriteString(" eof")
				}
				b.WriteString("}")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// patchOf wraps body in the envelope.
func patchOf(body string) string { return "*** Begin Patch\n" + body + "*** End Patch\n" }

// The grammar as published, and the leniency of the implementation models
// were trained against: every case here must parse, to these hunks.
func TestParseGrammar(t *testing.T) {
	simple := "*** Update File: a.txt\n@@ def f():\n-x\n+y\n"
	simpleWant := `U a.txt {@"def f():" -["x"] +["y"]}` + "\n"
	tests := []struct{ name, in, want string }{
		// The operations.
		{"add", patchOf("*** Add File: dir/new.txt\n+one\n+\n+three\n"), `A dir/new.txt "one\n\nthree\n"` + "\n"},
		{"add with no lines", patchOf("*** Add File: empty.txt\n*** Delete File: x\n"), `A empty.txt ""` + "\nD x\n"},
		{"delete", patchOf("*** Delete File: old.txt\n"), "D old.txt\n"},
		{"update", patchOf(simple), simpleWant},
		{"update and move", patchOf("*** Update File: a.py\n*** Move to: lib/b.py\n@@\n x\n-y\n+z\n"), `U a.py>lib/b.py {@"" -["x" "y"] +["x" "z"]}` + "\n"},
		{"rename only", patchOf("*** Update File: a\n*** Move to: b\n"), "U a>b\n"},
		{"end of file", patchOf("*** Update File: a\n@@\n last\n+appended\n*** End of File\n"), `U a {@"" -["last"] +["last" "appended"] eof}` + "\n"},
		{"first chunk without @@", patchOf("*** Update File: a\n import os\n+import sys\n"), `U a {@"" -["import os"] +["import os" "import sys"]}` + "\n"},
		{"pure addition", patchOf("*** Update File: a\n@@\n+x\n+y\n"), `U a {@"" -[] +["x" "y"]}` + "\n"},
		{"deletion only", patchOf("*** Update File: a\n@@\n-x\n-y\n"), `U a {@"" -["x" "y"] +[]}` + "\n"},
		{"several chunks", patchOf("*** Update File: a\n@@ f\n-1\n+2\n@@ g\n-3\n+4\n"), `U a {@"f" -["1"] +["2"]} {@"g" -["3"] +["4"]}` + "\n"},
		{"several operations", patchOf("*** Add File: n\n+hi\n*** Delete File: d\n" + simple + "*** Delete File: e\n"), `A n "hi\n"` + "\nD d\n" + simpleWant + "D e\n"},
		{"markers inside file text", patchOf("*** Add File: doc.md\n+*** Begin Patch\n+@@ x\n*** Update File: a\n ** bold **\n-*** End Patch\n+end\n"), `A doc.md "*** Begin Patch\n@@ x\n"` + "\n" + `U a {@"" -["** bold **" "*** End Patch"] +["** bold **" "end"]}` + "\n"},

		// Whitespace around markers.
		{"padded update header", patchOf("  *** Update File: a.txt\n@@ def f():\n-x\n+y\n"), simpleWant},
		{"padded headers after an update", patchOf(simple + "\t*** Add File: b\n+z\n *** Delete File: c\n   *** Update File: d\n-p\n+q\n"),
			simpleWant + `A b "z\n"` + "\nD c\n" + `U d {@"" -["p"] +["q"]}` + "\n"},
		{"header with trailing spaces", "*** Begin Patch\n*** Delete File: a.txt   \n*** End Patch", "D a.txt\n"},
		{"no space after the colon", patchOf("*** Delete File:a\n*** Update File:b\n*** Move to:c\n"), "D a\nU b>c\n"},
		{"padded begin and end", "*** Begin Patch   \n*** Delete File: a\n   *** End Patch \t", "D a\n"},
		{"padded move and end of file", patchOf("*** Update File: a\n  *** Move to: b  \n@@\n-x\n+y\n  *** End of File\n"), `U a>b {@"" -["x"] +["y"] eof}` + "\n"},
		{"path with spaces", patchOf("*** Add File: my dir/a b.txt\n+x\n"), `A my dir/a b.txt "x\n"` + "\n"},

		// Blank lines.
		{"blank lines around the envelope", "\n\n  \n" + patchOf(simple) + "\n\n", simpleWant},
		{"blank line after the update header", patchOf("*** Update File: a.txt\n\n@@ def f():\n-x\n+y\n"), simpleWant},
		{"blank lines after the move", patchOf("*** Update File: a\n\n*** Move to: b\n \n\n@@\n-x\n+y\n"), `U a>b {@"" -["x"] +["y"]}` + "\n"},
		{"blank line between chunks", patchOf("*** Update File: a\n@@ f\n-1\n+2\n\n@@ g\n-3\n+4\n"), `U a {@"f" -["1" ""] +["2" ""]} {@"g" -["3"] +["4"]}` + "\n"},
		{"whitespace line between chunks", patchOf("*** Update File: a\n@@ f\n-1\n+2\n\t\n@@ g\n-3\n+4\n"), `U a {@"f" -["1" ""] +["2" ""]} {@"g" -["3"] +["4"]}` + "\n"},
		{"blank lines after end of file", patchOf("*** Update File: a\n@@\n-x\n+y\n*** End of File\n\n\n@@ g\n-3\n+4\n"), `U a {@"" -["x"] +["y"] eof} {@"g" -["3"] +["4"]}` + "\n"},
		{"blank lines between operations", patchOf("*** Add File: a\n+x\n\n\n*** Delete File: b\n\n" + simple + "\n"), `A a "x\n"` + "\nD b\n" + `U a.txt {@"def f():" -["x" ""] +["y" ""]}` + "\n"},
		{"empty line of an added file without its plus", patchOf("*** Add File: a\n+one\n\n+three\n"), `A a "one\n\nthree\n"` + "\n"},
		{"empty context line without its space", patchOf("*** Update File: a\n@@\n x\n\n-y\n+z\n"), `U a {@"" -["x" "" "y"] +["x" "" "z"]}` + "\n"},
		{"crlf", strings.ReplaceAll(patchOf(simple+"*** Add File: b\n+1\n"), "\n", "\r\n"), simpleWant + `A b "1\n"` + "\n"},

		// "@@" lines.
		{"@@ with only whitespace", patchOf("*** Update File: a\n@@   \n-x\n+y\n"), `U a {@"" -["x"] +["y"]}` + "\n"},
		{"@@ context with trailing whitespace", patchOf("*** Update File: a\n@@ def f():  \n-x\n+y\n"), `U a {@"def f():  " -["x"] +["y"]}` + "\n"},
		{"@@ with a tab", patchOf("*** Update File: a\n@@\tdef f():\n-x\n+y\n"), `U a {@"\tdef f():" -["x"] +["y"]}` + "\n"},
		{"stacked @@ lines", patchOf("*** Update File: a\n@@ class A\n@@     def f(self):\n-x\n+y\n"), `U a {@"class A" -[] +[]} {@"    def f(self):" -["x"] +["y"]}` + "\n"},
		{"stacked @@ lines with a blank between", patchOf("*** Update File: a\n@@ class A\n\n@@ def f(self):\n-x\n+y\n"), `U a {@"class A" -[] +[]} {@"def f(self):" -["x"] +["y"]}` + "\n"},
		{"unified diff position", patchOf("*** Update File: a\n@@ -3,7 +3,8 @@ func main() {\n-x\n+y\n@@ -20 +21 @@\n-p\n+q\n"), `U a {@"func main() {" -["x"] +["y"]} {@"" -["p"] +["q"]}` + "\n"},

		// Wrappers.
		{"heredoc", "<<'EOF'\n" + patchOf(simple) + "EOF\n", simpleWant},
		{"heredoc unquoted", "<<EOF\n" + patchOf(simple) + "EOF", simpleWant},
		{"heredoc double-quoted", "<<\"EOF\"\n" + patchOf(simple) + "EOF", simpleWant},
		{"heredoc with dash and another tag", "<<-PATCH\n" + patchOf(simple) + "PATCH", simpleWant},
		{"apply_patch heredoc", "apply_patch <<'EOF'\n" + patchOf(simple) + "EOF\n", simpleWant},
		{"applypatch heredoc", "applypatch<<EOF\n" + patchOf(simple) + "EOF", simpleWant},
		{"cd && apply_patch heredoc", "cd src/app && apply_patch <<'EOF'\n" + patchOf(simple+"*** Update File: ../b\n*** Move to: c/d\n*** Add File: /abs/e\n+1\n") + "EOF\n",
			`U src/app/a.txt {@"def f():" -["x"] +["y"]}` + "\nU src/b>src/app/c/d\n" + `A /abs/e "1\n"` + "\n"},
		{"cd with a quoted path", "cd 'my dir' && apply_patch <<EOF\n" + patchOf("*** Delete File: a\n") + "EOF", "D my dir/a\n"},
		{"cd with an absolute path", "cd /home/u/p && apply_patch <<'EOF'\n" + patchOf("*** Delete File: a\n") + "EOF", "D /home/u/p/a\n"},
		{"cd then a semicolon", "cd sub; apply_patch <<'EOF'\n" + patchOf("*** Delete File: a\n") + "EOF", "D sub/a\n"},
		{"code fence", "```\n" + patchOf(simple) + "```\n", simpleWant},
		{"code fence with a language", "```diff\n" + patchOf(simple) + "```", simpleWant},
		{"heredoc in a code fence", "```bash\napply_patch <<'EOF'\n" + patchOf(simple) + "EOF\n```\n", simpleWant},
		{"crlf heredoc", strings.ReplaceAll("apply_patch <<'EOF'\n"+patchOf(simple)+"EOF\n", "\n", "\r\n"), simpleWant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hunks, err := Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := dump(hunks); got != tt.want {
				t.Errorf("got\n%swant\n%s", got, tt.want)
			}
		})
	}
}

// Every malformed patch is refused with a message that says what is wrong
// and, where one line is at fault, which.
func TestParseGrammarErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", "invalid patch: the patch is empty"},
		{"only whitespace", " \n\t\n", "invalid patch: the patch is empty"},
		{"no operations", "*** Begin Patch\n\n*** End Patch\n", "no file operations"},
		{"no begin", "*** Update File: a\n-x\n+y\n*** End Patch", "first line of the patch must be '*** Begin Patch'"},
		{"no end", "*** Begin Patch\n*** Add File: a\n+x\n", "last line of the patch must be '*** End Patch'"},
		{"only begin", "*** Begin Patch", "last line of the patch must be '*** End Patch'"},
		{"text after the end", patchOf("*** Delete File: a\n") + "Done!\n", "last line"},
		{"text before the begin", "Here is the patch:\n" + patchOf("*** Delete File: a\n"), "first line"},
		{"invalid header", patchOf("*** Frobnicate File: a\n"), "line 2: \"*** Frobnicate File: a\" is not a valid hunk header"},
		{"invalid header after an update", patchOf("*** Update File: a\n-x\n+y\n*** Rename File: b\n"), "line 5: \"*** Rename File: b\" is not a valid hunk header"},
		{"stray line between operations", patchOf("*** Delete File: a\nplease\n"), "line 3: \"please\" is not a valid hunk header"},
		{"add line without plus", patchOf("*** Add File: a\n+x\ny\n"), "line 4: every line of an added file must start with '+'"},
		{"empty update", patchOf("*** Update File: a\n"), "line 2: the update of a contains no changes"},
		{"update with context only", patchOf("*** Update File: a\n@@ def f():\n\n"), "line 2: the update of a contains no changes"},
		{"bad change line", patchOf("*** Update File: a\n@@\n x\n?y\n"), "line 5: unexpected line \"?y\""},
		{"missing add path", patchOf("*** Add File: \n+x\n"), "line 2: missing file path after \"*** Add File:\""},
		{"missing delete path", patchOf("*** Delete File:\n"), "line 2: missing file path"},
		{"missing move path", patchOf("*** Update File: a\n*** Move to:  \n-x\n"), "line 3: missing file path after \"*** Move to:\""},
		{"end of file first", patchOf("*** Update File: a\n*** End of File\n"), "line 3: '*** End of File' must follow the lines of a change"},
		{"end of file after @@ only", patchOf("*** Update File: a\n@@ x\n*** End of File\n"), "line 4: '*** End of File' must follow"},
		{"change after end of file", patchOf("*** Update File: a\n-x\n*** End of File\n+y\n"), "line 5: a change after '*** End of File' needs its own '@@' line"},
		{"heredoc without its end", "apply_patch <<'EOF'\n" + patchOf("*** Delete File: a\n"), "first line"},
		{"heredoc with another end", "<<'EOF'\n" + patchOf("*** Delete File: a\n") + "END\n", "first line"},
		{"cd without a command", "cd x && <<EOF\n" + patchOf("*** Delete File: a\n") + "EOF\n", "first line"},
		{"cd with an open quote", "cd 'x && apply_patch <<EOF\n" + patchOf("*** Delete File: a\n") + "EOF\n", "first line"},
		{"another command", "git apply <<'EOF'\n" + patchOf("*** Delete File: a\n") + "EOF\n", "first line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hunks, err := Parse(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse = %s, %v; want an error containing %q", dump(hunks), err, tt.want)
			}
		})
	}
}

package markdown

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quire-sh/quire/render"
)

func stream(chunks ...string) *Stream {
	s := NewStream(Options{Width: 80})
	for _, c := range chunks {
		s.Append(c)
	}
	return s
}

// TestCheckpoints covers when the frozen boundary may and may not move.
func TestCheckpoints(t *testing.T) {
	tests := []struct {
		name       string
		chunks     []string
		wantFrozen int // lines
		wantSource int // bytes behind them; -1 = any
	}{
		{"single paragraph", []string{"Hello world"}, 0, 0},
		{"paragraph then blank", []string{"Hello world\n\nNext"}, 1, len("Hello world\n\n")},
		{"fence at EOF", []string{"```go\nx\n```"}, 2, len("```go\nx\n")},
		{"fence then more", []string{"```go\nx\n```", "\nafter"}, 3, len("```go\nx\n```\n")},
		{"quote with list", []string{"> - a\n> - b"}, 0, 0},
		{"quote ended", []string{"> - a\n> - b\n\nnext"}, 2, len("> - a\n> - b\n\n")},
		{"list and blank", []string{"- a\n\n- b"}, 0, 0},
		{"list then blank", []string{"- a\n\n- b\n\n"}, 0, 0},
		{"list ended by paragraph", []string{"- a\n\n- b\n\npara\n"}, 3, len("- a\n\n- b\n\n")},
		{"indented code and blank", []string{"    code\n\n"}, 0, 0},
		{"setext pending", []string{"Title\n"}, 0, 0},
		{"undefined reference freezes", []string{"see [x]\n\nmore\n\n"}, 3, len("see [x]\n\nmore\n\n")},
		{"bracketed code freezes", []string{"use arr[i] and [Enter]\n\nmore\n\n"}, 3, -1},
		{"definition in the tail holds", []string{"see [x]\n\n[x]: /u"}, 0, 0},
		{"table under text", []string{"Results:\n| a | b |\n|---|---|\n| 1 | 2 |\n\nmore\n\n"}, 9, -1},
		{"table under text, open", []string{"Results:\n| a | b |\n|---|---|\n| 1 | 2 |\n"}, 0, 0},
		{"definition then text", []string{"[x]: /u\ntext [x]\n\nmore\n\n"}, 3, -1},
		{"list then text after blank", []string{"- a\n- b\n\nNext"}, 2, len("- a\n- b\n\n")},
		{"list then maybe item after blank", []string{"1. a\n2. b\n\n3"}, 0, 0},
		{"bullet list then number", []string{"- a\n- b\n\n1 more"}, 2, -1},
		{"bullet list then marker in the making", []string{"- a\n- b\n\n1"}, 0, 0},
		{"ordered list then number", []string{"1. a\n2. b\n\n2024 was"}, 2, -1},
		{"indented code then text", []string{"    code\n\ntext"}, 3, -1},
		{"bullet list then other bullet", []string{"- a\n\n* b"}, 1, -1},
		{"bullet list then same bullet", []string{"- a\n\n- b"}, 0, 0},
		{"defined reference frees", []string{"see [x]\n\n[x]: https://x.example\n\nmore\n\n"}, 3, -1},
		{"open fence line by line", []string{"```go\na := 1\nb := 2\nc"}, 3, len("```go\na := 1\nb := 2\n")},
		{"open indented code line by line", []string{strings.Repeat("    x = 1\n", 31) + "    y"}, 32, len(strings.Repeat("    x = 1\n", 31))},
		{"indented code, blank lines wait", []string{strings.Repeat("    x = 1\n", 31) + "\n  \n"}, 32, len(strings.Repeat("    x = 1\n", 31))},
		{"indented code, language undecided", []string{strings.Repeat("    x = 1\n", 29)}, 0, 0},
		{"html comment open", []string{"<!--\n\nstill comment\n\n"}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stream(tt.chunks...)
			if s.Frozen() != tt.wantFrozen || (tt.wantSource >= 0 && s.FrozenSource() != tt.wantSource) {
				t.Errorf("frozen = %d lines / %d bytes, want %d / %d\n%s", s.Frozen(), s.FrozenSource(), tt.wantFrozen, tt.wantSource, dump(s.Lines()))
			}
		})
	}
}

// TestListNotFrozenEarly is §25 item 36: a loose list that continues
// after a blank line renders as the one-shot does, with no list line
// frozen before the list ended.
func TestListNotFrozenEarly(t *testing.T) {
	s := stream("- a\n\n- b", "\n- c")
	if s.Frozen() != 0 {
		t.Fatalf("froze %d lines of an unfinished list", s.Frozen())
	}
	s.Finish()
	if !sameLines(s.Lines(), Render("- a\n\n- b\n- c", Options{Width: 80})) {
		t.Fatalf("stream != one-shot:\n%s", dump(s.Lines()))
	}
}

// TestTailVisible is §25 item 37: a half paragraph shows as it grows.
func TestTailVisible(t *testing.T) {
	s := stream("Hel")
	if got := texts(s.Lines()); !reflect.DeepEqual(got, []string{"Hel"}) {
		t.Fatalf("lines = %q", got)
	}
}

// TestHoldBack is §25 item 38.
func TestHoldBack(t *testing.T) {
	tests := []struct{ src, shown string }{
		{"a \\", "a "},
		{"use `", "use "},
		{"use ``", "use "},
		{"```", ""},
		{"~~", ""},
		{"para\n\n| a | b |", "para\n\n"},
		{"para\n\n| a | b |\n", "para\n\n"},
		{"| a | b |\n|--", ""},
		{"| a | b |\n|---|---|\n", "| a | b |\n|---|---|\n"},
		{"| a | b |\nnot a table", "| a | b |\nnot a table"},
		{"text | pipe", "text | pipe"},
		{"x\n| not a header start", "x\n| not a header start"},
		{"```go\nx := 1\ny :", "```go\nx := 1\n"},
		{"```go\nx := 1\n```", "```go\nx := 1\n"},
		{"- a\n  ```go\n  x := 1", "- a\n  ```go\n  x := 1"},
		{"| a | b |\n|---|---|\n| 1 | 2", "| a | b |\n|---|---|\n"},
		{"| a | b |\n|---|---|\n|", "| a | b |\n|---|---|\n"},
		{"| a | b |\n|---|---|\n| https://x.example/a", "| a | b |\n|---|---|\n"},
		{"see [docs](http", "see "},
		{"a **b", "a "},
		{"a **b** ", "a **b** "},
		{"a **b**\n", "a **b**\n"},
		{"plain wor", "plain wor"},
		{"x " + strings.Repeat("*", 80), "x " + strings.Repeat("*", 80)},
		{"arr[i", "arr[i"},
		{"a (see", "a "},
		{"text\n---", "text\n"},
		{"- ", ""},
		{"a\n\n* * ", "a\n\n"},
		{"* a", "* a"},
		{"    ---", "    ---"},
		{"    x := 1\n    y :", "    x := 1\n"},
		{"    x := 1\n\n\t\ty :", "    x := 1\n\n"},
		{"    x := 1\n      ", "    x := 1\n      "},
		{"    x := 1\n  y", "    x := 1\n  y"},
		{"para\n\n    x := 1", "para\n\n    x := 1"},
		{"- a\n\n      x := 1\n      y", "- a\n\n      x := 1\n      y"},
		{"1. a\n12", "1. a\n"},
		{"1. a\n12.", "1. a\n"},
		{"1. a\n12. ", "1. a\n"},
		{"1. a\n12. b", "1. a\n12. b"},
		{"2024 was", "2024 was"},
		{"1234567890", "1234567890"},
	}
	for _, tt := range tests {
		if got := ShownPrefix(tt.src); got != tt.shown {
			t.Errorf("ShownPrefix(%q) = %q, want %q", tt.src, got, tt.shown)
		}
	}
	s := stream("a `b")
	s.Append("`")
	if got := texts(s.Lines()); !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("held back: lines = %q", got)
	}
	s.Finish()
	if got := texts(s.Lines()); !reflect.DeepEqual(got, []string{"a b"}) {
		t.Errorf("after Finish: lines = %q", got)
	}
}

// TestAutolinkWithoutFinish is §25 item 39: replay never calls Finish,
// and bare URLs are still links.
func TestAutolinkWithoutFinish(t *testing.T) {
	s := stream("see https://example.com for more\n\n")
	found := false
	for _, l := range s.Lines() {
		for _, sp := range l.Spans {
			if sp.Link == "https://example.com" && sp.Text == "https://example.com" {
				found = true
			}
		}
	}
	if !found {
		t.Fatalf("no link span:\n%s", dump(s.Lines()))
	}
}

// TestURLNotBroken: a URL moves to the next line whole instead of being
// split, unless it is wider than the line.
func TestURLNotBroken(t *testing.T) {
	lines := Render("aaaa https://example.com/path-with-hyphens-and/more", Options{Width: 30})
	if len(lines) != 3 || lines[0].Text() != "aaaa" {
		t.Fatalf("lines = %q", texts(lines))
	}
	if got := lines[1].Text() + lines[2].Text(); got != "https://example.com/path-with-hyphens-and/more" {
		t.Fatalf("url split wrongly: %q", texts(lines))
	}
	lines = Render("aaaa https://example.com/x and text", Options{Width: 30})
	if lines[0].Text() != "aaaa https://example.com/x and" {
		t.Fatalf("lines = %q", texts(lines))
	}
}

// TestCJKWraps breaks between ideographs, by display width.
func TestCJKWraps(t *testing.T) {
	lines := Render(strings.Repeat("漢字", 20), Options{Width: 10})
	for _, l := range lines {
		if l.Width() != 10 {
			t.Fatalf("CJK line width %d: %q", l.Width(), texts(lines))
		}
	}
}

// TestCodeWrapMark: long code lines are wrapped with a visible mark and
// nothing is cut.
func TestCodeWrapMark(t *testing.T) {
	long := strings.Repeat("x", 50)
	lines := Render("```\n"+long+"\n```", Options{Width: 20})
	var all string
	marks := 0
	for _, l := range lines[1 : len(lines)-1] {
		if l.Width() > 20 {
			t.Fatalf("line too wide: %q", l.Text())
		}
		txt := l.Text()
		if strings.HasPrefix(txt, "│↪") {
			marks++
		}
		all += string([]rune(txt)[2:])
	}
	if all != long || marks != 2 {
		t.Fatalf("code = %q, %d marks; lines %q", all, marks, texts(lines))
	}
}

// TestNoColorMeaning: with every colour dropped, headings, code, links
// and quotes still differ from body text by attributes or glyphs.
func TestNoColorMeaning(t *testing.T) {
	lines := Render("# H\n\ntext `code` [l](http://x)\n\n> q", Options{Width: 40})
	attrs := map[string]render.Attr{}
	for _, l := range lines {
		for _, sp := range l.Spans {
			attrs[sp.Text] |= sp.Style.Attrs
		}
	}
	if attrs["# H"]&render.Bold == 0 || attrs["code"]&render.Reverse == 0 || attrs["l"]&render.Underline == 0 || attrs["q"]&render.Italic == 0 {
		t.Fatalf("attributes %v", attrs)
	}
}

// TestFileLinks: a code span naming an existing file becomes a file link.
func TestFileLinks(t *testing.T) {
	lines := Render("see `corpus/basics.md:12` and `missing.go`", Options{Width: 80, Cwd: "testdata"})
	var links []string
	for _, l := range lines {
		for _, sp := range l.Spans {
			if sp.Link != "" {
				links = append(links, sp.Link)
			}
		}
	}
	if len(links) != 1 || !strings.HasPrefix(links[0], "file://") || !strings.HasSuffix(links[0], "testdata/corpus/basics.md") {
		t.Fatalf("links = %q", links)
	}
}

// A stream checks a code span's path once: an open list item laid out
// again at every chunk keeps the link it found, without asking the file
// system again (the file removed meanwhile shows that it did not).
func TestStreamChecksAFileLinkOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "main.go")
	if err := os.WriteFile(path, []byte("package main\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	links := func(lines []render.Line) (n int) {
		for _, l := range lines {
			for _, sp := range l.Spans {
				if strings.HasPrefix(sp.Link, "file://") {
					n++
				}
			}
		}
		return n
	}
	s := NewStream(Options{Width: 60, Cwd: dir})
	s.Append("- open `main.go` and read it\n- then")
	if n := links(s.Lines()); n != 1 {
		t.Fatalf("%d file links before the file went away", n)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	for _, chunk := range strings.SplitAfter(" look at the loop and the way it reads each line of the file", " ") {
		s.Append(chunk)
		if n := links(s.Lines()); n != 1 {
			t.Fatalf("after %q: %d file links: the stream asked the file system again", chunk, n)
		}
	}
	if n := links(Render(s.Source(), Options{Width: 60, Cwd: dir})); n != 0 {
		t.Fatalf("Render, which checks afresh, found %d links to a removed file", n)
	}
}

// TestHostileInput: pathological input stays bounded and safe.
func TestHostileInput(t *testing.T) {
	tests := map[string]string{
		"deep quotes":    strings.Repeat(">", 10000) + " deep\n",
		"deep lists":     strings.Repeat("- ", 10000) + "deep\n",
		"long lists":     strings.Repeat("- ", 500000) + "deep\n",
		"deep mixed":     strings.Repeat("> 1. * ", 20000) + "deep\n",
		"deep indented":  deepIndentedList(300),
		"megabyte line":  strings.Repeat("word ", 200000),
		"megabyte token": strings.Repeat("x", 1<<20),
		"wide table":     "|" + strings.Repeat(" c |", 5000) + "\n|" + strings.Repeat("---|", 5000) + "\n|" + strings.Repeat(" v |", 5000) + "\n",
		"invalid utf8":   "\xff\xfe\xfd text \xc3",
		"nul bytes":      "a\x00b\n\n```\n\x00\n```\n",
		"escapes":        "\x1b]52;c;Zm9v\x07\x1b]0;title\x07\x1b[2J\u009b1m",
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			lines := Render(src, Options{Width: 60})
			checkSafe(t, lines, 60)
		})
	}
}

func deepIndentedList(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i) + "- level\n")
	}
	return b.String()
}

// checkSafe asserts that no span holds a raw control byte or invalid
// UTF-8, that no link holds a control byte, and that lines fit (with
// slack for the deepest prefixes).
func checkSafe(t testing.TB, lines []render.Line, width int) {
	t.Helper()
	for i, l := range lines {
		for _, sp := range l.Spans {
			if !utf8.ValidString(sp.Text) || !utf8.ValidString(sp.Link) {
				t.Fatalf("line %d: invalid UTF-8 in %q", i, sp.Text)
			}
			for _, r := range sp.Text + sp.Link {
				if _, ctl := render.VisibleControl(r); ctl {
					t.Fatalf("line %d: raw control %U in %q / %q", i, r, sp.Text, sp.Link)
				}
			}
		}
		if w := l.Width(); w > width+2*maxDepth {
			t.Fatalf("line %d is %d columns wide", i, w)
		}
	}
}

func texts(ls []render.Line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.Text()
	}
	return out
}

// TestSourceIntact: rendering never writes into the text it was given
// (goldmark appends a newline to a last code line in place, which once
// overwrote the held-back backtick after it).
func TestSourceIntact(t *testing.T) {
	const src = "~~~\nabc`"
	s := stream(src)
	s.Lines()
	if s.Source() != src {
		t.Fatalf("source became %q", s.Source())
	}
	s.Finish()
	if got := texts(s.Lines()); !reflect.DeepEqual(got, []string{"╭─ code", "│ abc`", "╰─"}) {
		t.Fatalf("lines = %q", got)
	}
}

// TestTailAfterText: a tail frozen right after another block parses as
// the whole text does. goldmark treats a block opened at the start of a
// text, after a blank line or after a block that ended itself as
// following a blank line (a list whose first item splits into a link
// definition and text is then loose), and one opened by the line that
// ended the previous block as not.
func TestTailAfterText(t *testing.T) {
	tests := []struct{ src, cut string }{
		{"- a\n2) [x]: /u\nfoo\n3) b\n", "- a\n2) [x]: /u\n"},
		{"<!--\n\n-->\n- [x]: /u\nfoo\n- b\n", "<!--\n\n-->\n- [x]: /u\n"},
		{"```\nx\n```\n- [x]: /u\nfoo\n- b\n", "```\nx\n```\n- [x]: /u\n"},
	}
	for _, tt := range tests {
		s := stream(tt.cut)
		if s.Frozen() == 0 {
			t.Fatalf("%q: nothing froze", tt.cut)
		}
		s.Append(tt.src[len(tt.cut):])
		s.Finish()
		if want := Render(tt.src, Options{Width: 80}); !sameLines(s.Lines(), want) {
			t.Fatalf("%q\n--- stream\n%s--- one-shot\n%s", tt.src, dump(s.Lines()), dump(want))
		}
	}
}

// TestGuessedLanguageKept: a fence frozen part way keeps the language
// guessed from its first lines (here none: plain text) for the rest,
// instead of guessing again from the lines after the checkpoint.
func TestGuessedLanguageKept(t *testing.T) {
	head := "```\n" + strings.Repeat("just some words\n", guessLines+1)
	rest := "#!/bin/bash\necho \"$HOME\" # a shell guess\n```\n"
	s := stream(head)
	if s.Frozen() < guessLines {
		t.Fatalf("only %d lines froze", s.Frozen())
	}
	s.Append(rest)
	s.Finish()
	if want := Render(head+rest, Options{Width: 80}); !sameLines(s.Lines(), want) {
		t.Fatalf("--- stream\n%s--- one-shot\n%s", dump(s.Lines()), dump(want))
	}
}

// TestLateDefinition: a block frozen with an undefined label is laid out
// again when the label's definition freezes, the stream says which
// lines changed, and after Finish the lines are Render's.
func TestLateDefinition(t *testing.T) {
	opts := Options{Width: 24}
	// "[xyzzy]" wraps the line; the link text "xyzzy" fits it.
	head := "aaaa bbbb cccc [xyzzy] dd\n\nmore text\n\n"
	s := NewStream(opts)
	s.Append(head)
	if s.Frozen() != 4 {
		t.Fatalf("frozen %d lines:\n%s", s.Frozen(), dump(s.Lines()))
	}
	before := len(s.Lines())
	s.Append("[xyzzy]: https://x.example\n\nend\n")
	revs := s.Revisions()
	if len(revs) != 1 || revs[0].At != 0 || revs[0].Old != 4 || revs[0].New != 3 {
		t.Fatalf("revisions %+v\n%s", revs, dump(s.Lines()))
	}
	if s.Frozen() < 3 || len(s.Lines()) != before-1+2 {
		t.Fatalf("frozen %d of %d lines after the revision (had %d)", s.Frozen(), len(s.Lines()), before)
	}
	found := false
	for _, l := range s.Lines()[:revs[0].New] {
		for _, sp := range l.Spans {
			found = found || sp.Link == "https://x.example"
		}
	}
	if !found {
		t.Fatalf("no link after the definition:\n%s", dump(s.Lines()))
	}
	s.Finish()
	if want := Render(s.Source(), opts); !sameLines(s.Lines(), want) {
		t.Fatalf("--- stream\n%s--- one-shot\n%s", dump(s.Lines()), dump(want))
	}
}

// TestLateDefinitionsBudget: definitions that keep arriving for labels
// used all over the text revise at most about the text's size before
// Finish; what is left waits for Finish, which makes the lines exact.
func TestLateDefinitionsBudget(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "para %d uses", i)
		for j := range 40 {
			fmt.Fprintf(&b, " [l%d]", j)
		}
		b.WriteString("\n\n")
	}
	for j := range 40 {
		fmt.Fprintf(&b, "[l%d]: /u%d\n\ntext\n\n", j, j)
	}
	src := b.String()
	opts := Options{Width: 60}
	s := NewStream(opts)
	for p := 0; p < len(src); p += 64 {
		s.Append(src[p:min(p+64, len(src))])
		s.Lines()
	}
	if s.late.reworked > len(src)+reviseBudget {
		t.Fatalf("revisions laid out %d bytes of a %d-byte text", s.late.reworked, len(src))
	}
	if len(s.late.stale) == 0 {
		t.Fatalf("no revision was postponed")
	}
	s.Finish()
	if want := Render(src, opts); !sameLines(s.Lines(), want) {
		t.Fatalf("stream != one-shot after Finish")
	}
}

// TestDefinitionAtEndWithoutNewline: a definition that never freezes (the
// text ends on it) still resolves the frozen blocks at Finish.
func TestDefinitionAtEndWithoutNewline(t *testing.T) {
	src := "see [x]\n\nmore\n\n[x]: https://x.example"
	s := stream("see [x]\n\nmore\n\n")
	if s.Frozen() == 0 {
		t.Fatalf("nothing froze")
	}
	s.Append(src[len(s.Source()):])
	s.Finish()
	if want := Render(src, Options{Width: 80}); !sameLines(s.Lines(), want) {
		t.Fatalf("--- stream\n%s--- one-shot\n%s", dump(s.Lines()), dump(want))
	}
}

// TestEscapesDecodeOnce: an escaped '&' or a reference to '&' shows the
// text after it as text, not as a second reference.
func TestEscapesDecodeOnce(t *testing.T) {
	tests := map[string]string{
		`\&ouml;`:         "&ouml;",
		`&#38;ouml;`:      "&ouml;",
		`&#x26;amp;`:      "&amp;",
		`&amp;ouml;`:      "&ouml;",
		`&ouml; &#246;`:   "ö ö",
		`\\&ouml;`:        `\ö`,
		`&#0; &#1114112;`: "\ufffd \ufffd",
		`&#12345678;`:     "&#12345678;",
		`&nosuch; \*`:     "&nosuch; *",
	}
	for src, want := range tests {
		if got := texts(Render(src, Options{Width: 80})); len(got) != 1 || got[0] != want {
			t.Errorf("%s renders %q, want %q", src, got, want)
		}
	}
}

// TestLinkTargetsUnescaped: a link's target resolves escapes and
// references once, as its text does.
func TestLinkTargetsUnescaped(t *testing.T) {
	tests := map[string]string{
		`[a](http://x.example/a\_b)`:            "http://x.example/a_b",
		`[a](http://x.example/?p=1&amp;q=2)`:    "http://x.example/?p=1&q=2",
		`[a](http://x.example/\&amp;)`:          "http://x.example/&amp;",
		"[a][r]\n\n[r]: http://x.example/r\\_s": "http://x.example/r_s",
	}
	for src, want := range tests {
		var got []string
		for _, l := range Render(src, Options{Width: 80}) {
			for _, sp := range l.Spans {
				if sp.Link != "" {
					got = append(got, sp.Link)
				}
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%q links to %q, want %q", src, got, want)
		}
	}
}

// TestBidiControlsVisible: bidirectional overrides and isolates in model
// text (prose, code, link text) are drawn as visible glyphs, never passed
// to the terminal, where they would reorder what the user reads.
func TestBidiControlsVisible(t *testing.T) {
	controls := []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069}
	for _, c := range controls {
		b := string(c)
		src := "if admin" + b + " {\n\n`x" + b + "y` [l" + b + "](http://a" + b + ".example)\n\n```go\nok := \"" + b + "\"\n```\n"
		lines := Render(src, Options{Width: 80})
		checkSafe(t, lines, 80)
		var all strings.Builder
		for _, l := range lines {
			for _, sp := range l.Spans {
				all.WriteString(sp.Text + sp.Link)
			}
		}
		if strings.ContainsRune(all.String(), c) {
			t.Errorf("%U reaches the output: %q", c, all.String())
		}
		if strings.Count(all.String(), "\ufffd") < 4 {
			t.Errorf("%U is not drawn where it was: %q", c, all.String())
		}
	}
}

// TestInlineBudget: inputs that goldmark's inline parser takes more than
// linear time on are shown as their text once a paragraph (or a line of
// one, or a table row) is over the budget, in one-shot and streamed alike.
func TestInlineBudget(t *testing.T) {
	under := strings.Repeat(strings.Repeat("[a](", maxInlineLine/8)+"\n", 3)
	over := strings.Repeat("[a](", maxInline/4+1)
	longRow := "| a | b |\n|---|---|\n| " + strings.Repeat("*a ", maxInlineLine/3+1) + "| x |\n"
	tests := []struct {
		name, src string
		plain     bool
	}{
		{"under the budget", "**b** " + under, false},
		{"over the budget", "**b** " + over, true},
		{"a long line", "**b** " + strings.Repeat("x", maxInlineLine+1) + "\nmore", true},
		{"a long table row", longRow, true},
		{"many lines", strings.Repeat("**b** line of text\n", maxInline/19+1), true},
	}
	for _, tt := range tests {
		lines := Render(tt.src, Options{Width: 80})
		var text strings.Builder
		for _, l := range lines {
			text.WriteString(l.Text())
		}
		if got := strings.Contains(text.String(), "**b**") || strings.Contains(text.String(), "*a *a"); got != tt.plain {
			t.Errorf("%s: shown as text = %v, want %v", tt.name, got, tt.plain)
		}
		// A paragraph of link openers under the budget costs a parse of
		// its window per chunk (goldmark is superlinear on them): under
		// the race detector the chunks are larger.
		chunk := 97
		if sampling() {
			chunk = 389
		}
		c := newChecker(t, tt.name, Options{Width: 80})
		for p := 0; p < len(tt.src); p += chunk {
			c.append(tt.src[p:min(p+chunk, len(tt.src))], p%(chunk*64) == 0)
		}
		c.finish()
	}
}

// TestTableRowURLChunking: a table row that holds a bare URL is held back
// from its first '|' to its newline however its bytes arrive, so a frame
// never depends on the chunking (it once did: a row whose first cell
// turned into a link stopped being held, but the stream kept showing the
// frame from when it was).
func TestTableRowURLChunking(t *testing.T) {
	src := "| a | b |\n|---|---|\n| https://example.com/path | x |\n| y | www.example.org |\n\nend\n"
	opts := Options{Width: 60}
	for i := 1; i < len(src); i++ {
		for j := i + 1; j <= len(src); j++ {
			s := NewStream(opts)
			s.Append(src[:i])
			s.Lines()
			s.Append(src[i:j])
			if want := Render(ShownPrefix(src[:j]), opts); !sameLines(s.Lines(), want) {
				t.Fatalf("chunks %q + %q:\n--- stream\n%s--- one-shot\n%s", src[:i], src[i:j], dump(s.Lines()), dump(want))
			}
		}
	}
}

// TestOpenBlockDeviations: the two ways doc.go lets an open block's frame
// differ from a one-shot render of the text so far, each lasting only as
// long as it says, and exact frames everywhere else.
func TestOpenBlockDeviations(t *testing.T) {
	opts := Options{Width: 80}
	feed := func(s *Stream, src string) {
		for p := 0; p < len(src); p += 16 {
			s.Append(src[p:min(p+16, len(src))])
			s.Lines()
		}
	}
	t.Run("table widths", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("| k | v |\n|---|---|\n")
		row := func(i int, key string) { fmt.Fprintf(&b, "| %s | v%03d |\n", key, i) }
		for i := range 100 {
			row(i, "k")
		}
		row(100, "a wider key") // widens: laid out again (100 rows, first time)
		for i := 101; i < 150; i++ {
			row(i, "k")
		}
		s := NewStream(opts)
		feed(s, b.String())
		if s.approx {
			t.Fatalf("the table was laid out again when it widened and is approximate")
		}
		row(150, "a wider key still") // widens again before the rows doubled
		feed(s, b.String()[len(s.Source()):])
		if !s.approx {
			t.Fatalf("row 150 widened a column and the table was laid out again at once")
		}
		for i := 151; i < 210; i++ {
			row(i, "k")
		}
		feed(s, b.String()[len(s.Source()):])
		if s.approx {
			t.Fatalf("the table doubled its rows and still shows old widths")
		}
		if want := Render(ShownPrefix(s.Source()), opts); !sameLines(s.Lines(), want) {
			t.Fatalf("after the relayout the frame is not exact")
		}
	})
	t.Run("paragraph opener", func(t *testing.T) {
		src := "start *" + strings.Repeat("word ", 80) + "closed* and more text"
		s := NewStream(opts)
		feed(s, src)
		if !s.approx {
			t.Fatalf("an emphasis closed 400 bytes after it opened shows as in one-shot mid-stream")
		}
		s.Append("\n\nnext\n")
		s.Lines()
		if s.Frozen() == 0 {
			t.Fatalf("the paragraph did not freeze at its blank line")
		}
		if want := Render(ShownPrefix(s.Source()), opts); !sameLines(s.Lines(), want) {
			t.Fatalf("once the paragraph ended its lines are not Render's:\n--- stream\n%s--- one-shot\n%s", dump(s.Lines()), dump(want))
		}
	})
}

// TestInlineBudgetCountsContent: the inline budgets count a paragraph's
// content, not the markers of the quotes and list items around it nor
// its indentation, so a paragraph shows the same (parsed, or as its text)
// in a quote, in a list item and on its own; and a stream that follows a
// long quote's content on its own lays it out as Render does.
func TestInlineBudgetCountsContent(t *testing.T) {
	for _, n := range []int{maxInlineLine - 1, maxInlineLine + 1} {
		// One line of n content bytes, and a paragraph of lines whose
		// content is just under or over maxInline in all.
		line := "**b** " + strings.Repeat("x ", (n-6)/2)
		line += strings.Repeat("y", n-len(line))
		lines := strings.Repeat("**b** more words on a line\n", (maxInline-(maxInlineLine-n))/27)
		for name, text := range map[string]string{"line": line + "\n", "lines": lines} {
			alone := Render(text, Options{Width: 60})
			for container, prefix := range map[string]string{"quote": "> ", "item": "- "} {
				var src strings.Builder
				for l := range strings.Lines(text) {
					src.WriteString(prefix + l)
					if container == "item" {
						prefix = "  "
					}
				}
				got := Render(src.String(), Options{Width: 62})
				if len(got) != len(alone) {
					t.Fatalf("%s of %d in a %s: %d lines, %d on its own", name, n, container, len(got), len(alone))
				}
				for i := range got {
					inner := got[i].Spans
					if len(inner) > 0 {
						inner = inner[1:] // the bar or the marker
					}
					// A quote's text has a style of its own: the texts of
					// the spans tell a parsed line from one shown as text.
					if !slices.Equal(spanTexts(inner), spanTexts(alone[i].Spans)) {
						t.Fatalf("%s of %d in a %s, line %d:\n%s\non its own:\n%s", name, n, container, i, annotate(got[i]), annotate(alone[i]))
					}
				}
			}
		}
	}
	// Streamed, a quote over 8 KiB whose paragraph is parsed shows it as
	// Render does: its frames are exact.
	src := "> " + strings.Repeat("a **b** line\n> ", maxInlineLine/12+8) + "end\n\nafter\n"
	c := newChecker(t, "long quote", Options{Width: 80})
	exact, late := 0, 0
	for p := 0; p < len(src); p += 61 {
		c.append(src[p:min(p+61, len(src))], p%(61*16) == 0)
		if p > maxInlineLine+1024 && p+61 < len(src)-8 {
			late++
			if exactFrame(c.s) {
				exact++
			}
		}
	}
	if exact < late/2 {
		t.Errorf("past 9 KiB, %d of %d frames of the quote were exact", exact, late)
	}
	c.finish()
}

// TestStreamQuoteFreezesAsItStands: a long quote that a blank line ends
// freezes as its inner stream laid it out: the end of the quote is not
// parsed or laid out whole again, and the lines are Render's.
func TestStreamQuoteFreezesAsItStands(t *testing.T) {
	quotes := map[string]string{
		"paragraph": "> " + strings.Repeat("a line of the quote with `code` and **bold**\n> ", 600) + "last line\n",
		"blocks":    strings.Repeat(quoted("> ", "A paragraph with [x] in it.\n\n- an item\n- another\n\n"), 100),
		"plain":     "> " + strings.Repeat("a line of a paragraph over the budget\n> ", maxInline/38+10) + "last\n",
	}
	for name, quote := range quotes {
		c := newChecker(t, name, Options{Width: 70})
		for p := 0; p < len(quote); p += 16 {
			c.append(quote[p:min(p+16, len(quote))], false)
		}
		before := c.s.parsed
		c.append("\n", false)
		if n := c.s.parsed - before; n > 1024 {
			t.Errorf("%s: the blank line that ends a %d-byte quote had %d bytes parsed", name, len(quote), n)
		}
		if c.s.FrozenSource() != len(quote)+1 {
			t.Errorf("%s: %d bytes frozen after the quote's blank line, want %d", name, c.s.FrozenSource(), len(quote)+1)
		}
		c.append("after\n", true)
		c.finish()
	}
}

func spanTexts(spans []render.Span) []string {
	var out []string
	for _, sp := range spans {
		out = append(out, sp.Text)
	}
	return out
}

package markdown

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
)

// A line after a paragraph's first is parsed against it only when it
// could start a block there; goldmark must agree that the others go on
// with the paragraph.
func TestMayInterruptParagraph(t *testing.T) {
	for _, line := range []string{
		"`code` and more", "``x``", "~not a fence", "~~struck~~", "#hashtag", "####### seven",
		"12. not a list here", "2) nor here", "10. nor", "0. nor", "007. nor",
		"`", "``", "```", "~~~", "# heading", "#", "1. one", "01. one", "1", "0", "00", "1) one",
	} {
		doc := Render("para\n"+line+"\n", Options{Width: 80})
		one := Render("para "+line+"\n", Options{Width: 80})
		continues := sameLines(doc, one)
		if !mayInterruptParagraph([]byte(line)) && !continues {
			t.Errorf("%q: said to continue the paragraph, but goldmark starts a block with it", line)
		}
	}
}

// A line whose start textStart decides goes on with the paragraph above
// it, and is a paragraph on its own, whatever follows that start: as the
// first line of a paragraph, after another line, and under a line that
// could be a table's header.
func TestTextStartDecidesLines(t *testing.T) {
	starts := []string{
		"**a", "*a", "***x", "-->", "-a", "--b", "+a", "__init__", "_a", "=a", "==x",
		"#5", "##hash", "#######x", "|a", "||b", ":a", "1.5", "2)x", "12.a", "1a", "   **a", "-\u00a0a",
	}
	suffixes := []string{"", " ", " b", "\t", "**", " -", " |", ":", "-", "|---|", " ---", "\n- item", "\n---", "\n==="}
	p := newParser()
	onePara := func(src string) bool {
		doc, _ := parseDoc(p, []byte(src), nil)
		b := doc.FirstChild()
		return b != nil && b.Kind() == ast.KindParagraph && b.NextSibling() == nil
	}
	for _, st := range starts {
		if !textStart([]byte(st)) {
			t.Errorf("%q: not decided", st)
			continue
		}
		for _, suf := range suffixes {
			line := st + suf
			if i := strings.IndexByte(line, '\n'); i >= 0 {
				line = line[:i] // what follows the line is another line's to decide
			}
			for _, src := range []string{line, "x\n" + line, "a | b\n" + line} {
				if !onePara(src + "\n") {
					t.Errorf("%q decided as text, but %q is not one paragraph", st, src)
				}
			}
		}
	}
	for _, st := range []string{
		"*", "**", "* a", "- a", "-", "---", "- - -", "+ a", "___", "===", "#", "# a", "###### a", "|", "|-", "|:", ":-",
		"-|", "1.", "1. a", "1)", "12", "`", "```", "~~~", "<div>", "> a", "\ta", "    **a", "-\ta", "*\ta",
	} {
		if textStart([]byte(st)) {
			t.Errorf("%q: decided as text, but what follows may make it a block", st)
		}
	}
}

// A line after a paragraph's first whose tag noInterruptingTag decides
// goes on with the paragraph, whatever follows; one it leaves undecided
// may start an HTML block there.
func TestNoInterruptingTag(t *testing.T) {
	p := newParser()
	onePara := func(src string) bool {
		doc, _ := parseDoc(p, []byte(src), nil)
		b := doc.FirstChild()
		return b != nil && b.Kind() == ast.KindParagraph && b.NextSibling() == nil
	}
	suffixes := []string{"", ">", " x", "/>", "<a", " class=\"c\">", "-->", "\t"}
	for _, st := range []string{"<a<a", "<a>", "<span", "<b ", "</em>", "<divx", "<p-1", "<DIVa", "< div", "<<", "<1", "<x-y>", "<em/>", "   <i>"} {
		if !noInterruptingTag([]byte(st)) {
			t.Errorf("%q: not decided", st)
			continue
		}
		for _, suf := range suffixes {
			if src := "x\n" + st + suf + "\n"; !onePara(src) {
				t.Errorf("%q decided as text, but %q is not one paragraph", st, src)
			}
		}
	}
	for _, st := range []string{"<", "<d", "<TA", "<div", "<div>", "<DIV ", "</p>", "<p", "<p/", "<script", "<pre>", "<!--", "<?x", "<!DOCTYPE", "<![CDATA[", "<table\t", "<h1>", "<textarea", "    <x"} {
		if noInterruptingTag([]byte(st)) {
			t.Errorf("%q: decided as text, but what follows may make it an HTML block", st)
		}
	}
	// Every name of an interrupting block, as goldmark sees it.
	for name := range blockTags {
		if name != "source" && onePara("x\n<"+name+">\n") {
			t.Errorf("<%s>: goldmark does not start a block with it, so the list is wrong", name)
		}
	}
}

// Text that arrives after a parsed window and cannot change it is laid
// out without parsing the window again; text that could (an autolink or
// an entity completed across the chunks, a closer, a line break) is
// parsed. Every frame is Render's either way.
func TestStreamInertTail(t *testing.T) {
	for _, c := range []struct {
		chunks []string
		inert  bool // the last chunk is laid out without a parse
	}{
		{[]string{"Press [Enter] to", " go on"}, true},
		{[]string{"by [the spec][s2]", ".\n"}, true},
		{[]string{"Index arr[i", "] and more"}, false},
		{[]string{"a [b] www", ".example.com now"}, false},
		{[]string{"a [b] ww", "w.example.com now"}, false},
		{[]string{"a [b] http:", "//example.com now"}, false},
		{[]string{"a [b] http", "://example.com now"}, false},
		{[]string{"a [b] &amp", "; x"}, false},
		{[]string{"a [b] x@y", ".com"}, false},
		{[]string{"a [b] x__y__", "z"}, false},
		{[]string{"a [b] c  ", "\nd"}, false},
		{[]string{"a [b](c", " d)"}, false},
		{[]string{"a *b [c] d", " e*"}, false},
		{[]string{"a `b [c] d", " e` f"}, false},
		{[]string{"a `b [c] d", " e"}, true},
	} {
		name := strings.Join(c.chunks, "|")
		ch := newChecker(t, name, Options{Width: 30})
		for _, chunk := range c.chunks[:len(c.chunks)-1] {
			ch.append(chunk, true)
		}
		parsed := ch.s.parsed
		ch.append(c.chunks[len(c.chunks)-1], true)
		if got := ch.s.parsed == parsed; got != c.inert {
			t.Errorf("%q: laid out without a parse: %v, want %v", name, got, c.inert)
		}
		ch.append("\n\nnext\n", true)
		ch.finish()
	}
}

package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// inlineTree writes out n's inlines with everything a renderer or the
// cut search reads from them: kinds, text segments and their flags,
// emphasis levels.
func inlineTree(b *strings.Builder, n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		fmt.Fprintf(b, "%s", c.Kind())
		switch c := c.(type) {
		case *ast.Text:
			fmt.Fprintf(b, "[%d:%d raw=%t soft=%t hard=%t]", c.Segment.Start, c.Segment.Stop, c.IsRaw(), c.SoftLineBreak(), c.HardLineBreak())
		case *ast.Emphasis:
			fmt.Fprintf(b, "(%d)", c.Level)
		}
		if c.HasChildren() {
			b.WriteString("{")
			inlineTree(b, c)
			b.WriteString("}")
		}
		b.WriteString(" ")
	}
}

// checkQuick compares quickParagraph's tree of src, made with nodes
// (which may hold an earlier parse's), and the labels it looked up with
// goldmark's, and reports whether quickParagraph took src. The label "x"
// is defined when define is set.
func checkQuick(t testing.TB, nodes *quickNodes, src string, define bool) bool {
	t.Helper()
	var refs []parser.Reference
	if define {
		refs = []parser.Reference{parser.NewReference([]byte("x"), []byte("https://example.com/x"), nil)}
	}
	var quick refContext
	q := nodes.quickParagraph([]byte(src), &quick, refs)
	if q == nil {
		return false
	}
	var full refContext
	doc := full.parse(newInlineParser(), []byte(src), refs)
	var want, got strings.Builder
	if p := doc.FirstChild(); p != nil {
		fmt.Fprintf(&want, "%d paragraphs, lines %v: ", doc.ChildCount(), p.Lines().Sliced(0, p.Lines().Len()))
		inlineTree(&want, p)
	}
	fmt.Fprintf(&got, "1 paragraphs, lines %v: ", q.Lines().Sliced(0, q.Lines().Len()))
	inlineTree(&got, q)
	if got.String() != want.String() {
		t.Errorf("%q:\nquick    %s\ngoldmark %s", src, got.String(), want.String())
	}
	if quick.FirstDelimiter() != nil || quick.LastDelimiter() != nil {
		t.Errorf("%q: the context keeps delimiters", src)
	}
	looked := func(pc *refContext, p ast.Node) string {
		var b strings.Builder
		for _, l := range pc.lookups {
			fmt.Fprintf(&b, "%q@%d(own block %t) ", l.label, l.at, l.block == p)
		}
		return b.String()
	}
	if got, want := looked(&quick, q), looked(&full, doc.FirstChild()); got != want {
		t.Errorf("%q looked up:\nquick    %s\ngoldmark %s", src, got, want)
	}
	return true
}

func TestQuickParagraphMatchesGoldmark(t *testing.T) {
	taken := []string{
		"word",
		"some words `c1` **b** more",
		"eee `c3` **b",
		"eee `c3",
		"``a`` `` b ` ``x",
		"` `  `  a  ` ` b`",
		"*a **b** c* _d_ __e__ f_g_h",
		"***x*** **a *b* c** *a**b",
		"a * b ** c (d) (e",
		"**`x`** *`y`*",
		"caf\u00e9 **na\u00efve** \u201c*q*\u201d",
		"x.y: z; *(a)* **.b.**",
		"trailing space   ",
		"a ** b **c** d**",
		"_a_b_ *a*b* __a__b__",
		"line 1 says `code` and **bold**\nline 2 says `code` and **bold**\nline 3",
		"a **b\nc** d\n   e `f`\n*g*\nh",
		"a `b\nc",
		"x\n  \u00e9 *y*\n`z`",
		"Claim 5 is backed by [5] and by [the spec][s5].",
		"see a[i] and [Enter] or [x], [b][] [c][d] [e] [f][ ] [g][[h]] [[i]",
		"[a [b] c] [d *e] f* [`]`] [g]`h]` *[i*] x]",
		"Note! [a]! `!` [b] c] d [e]\n[f",
		"*a [b* c] [d] *e*",
		"[a]\n(b)",
	}
	var nodes quickNodes
	for _, src := range taken {
		if !checkQuick(t, &nodes, src, false) {
			t.Errorf("%q: quickParagraph did not take it", src)
		}
	}
	left := []string{
		"", "   ", " lead", "a  \nb", "a\n\nb", "a\n \nb", "`a\nb`", "a\r\nb", "a\tb", "a\\*b", "<b>", "~~s~~",
		"![a]", "[a](b)", "a [b\nc]", "[a][b\nc]", "[a][b\\]", "[b\nc]",
		"a@b.c", "see www.x.org", "http://x", "https://x", "ftp://x", "a\x00b", "\xff",
	}
	for _, src := range left {
		if checkQuick(t, &nodes, src, false) {
			t.Errorf("%q: quickParagraph took it", src)
		}
	}
	// A label that is defined makes a link: goldmark's.
	for _, src := range []string{"[x]", "a [b][x] c", "[x][] d", "[X]", "[ x ]"} {
		if checkQuick(t, &nodes, src, true) {
			t.Errorf("%q: quickParagraph took it, with x defined", src)
		}
	}
	if !checkQuick(t, &nodes, "[y] [x", true) {
		t.Errorf("quickParagraph did not take a window whose labels are undefined")
	}
	// Random lines over the characters that matter to it.
	alphabet := []string{"a", "b", " ", " ", "`", "``", "*", "**", "_", "(", ")", ".", "\u00e9", "\u201c", "\u00a1", "\u00a0", "\u2003", "\u2014", "-", "&", "#", ":", "*a*", "`c`", "\n", "\n  ", "[", "]", "[x]", "][", "!", "x"}
	r := rand.New(rand.NewPCG(1, 2))
	n, took := 20000, 0
	for range n {
		var b strings.Builder
		for range 1 + r.IntN(16) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		if checkQuick(t, &nodes, b.String(), r.IntN(2) == 0) {
			took++
		}
	}
	if took < n/2 {
		t.Errorf("quickParagraph took %d of %d random lines, expected most", took, n)
	}
}

func FuzzQuickParagraph(f *testing.F) {
	for _, s := range []string{"a `c` **b** c", "*a **b** c*", "``a` `` b", "x _y_ (z)", "a **b\nc** `d`\n e",
		"by [5] and [the spec][s5].", "[a [x] b] [c][] [d][x]"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	var nodes quickNodes
	f.Fuzz(func(t *testing.T, src string, define bool) { checkQuick(t, &nodes, src, define) })
}

package markdown

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quire-sh/quire/render"
)

func corpus(t testing.TB) map[string]string {
	t.Helper()
	files, err := filepath.Glob("testdata/corpus/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	return out
}

// checker feeds a stream and asserts the invariants after every step:
// Lines() == Render(ShownPrefix(source)), frozen lines never change, and
// after Finish Lines() == Render(source).
type checker struct {
	t      testing.TB
	opts   Options
	s      *Stream
	frozen []render.Line
	name   string
	revs   int // revisions applied to frozen
}

func newChecker(t testing.TB, name string, opts Options) *checker {
	return &checker{t: t, opts: opts, s: NewStream(opts), name: name}
}

func (c *checker) append(chunk string, verify bool) {
	c.t.Helper()
	c.s.Append(chunk)
	c.checkFrozen()
	if verify && exactFrame(c.s) {
		c.compare(Render(ShownPrefix(c.s.Source()), c.opts), "after chunk")
	}
}

func (c *checker) finish() {
	c.t.Helper()
	c.s.Finish()
	c.checkFrozen()
	c.compare(Render(c.s.Source(), c.opts), "after Finish")
}

func (c *checker) checkFrozen() {
	c.t.Helper()
	lines := c.s.Lines()
	// Revised lines (a late link reference definition) replace the ones
	// recorded, from the first of them on; nothing else of the frozen
	// part may change.
	revs := c.s.Revisions()
	for _, r := range revs[c.revs:] {
		if r.At < len(c.frozen) {
			c.frozen = c.frozen[:r.At]
		}
	}
	c.revs = len(revs)
	if c.s.Frozen() < len(c.frozen) || c.s.Frozen() > len(lines) {
		c.t.Fatalf("%s: frozen count went from %d to %d (of %d lines)", c.name, len(c.frozen), c.s.Frozen(), len(lines))
	}
	for i, l := range c.frozen {
		if !sameLine(l, lines[i]) {
			c.t.Fatalf("%s: frozen line %d changed at source %d:\nwas %s\nnow %s", c.name, i, len(c.s.Source()), annotate(l), annotate(lines[i]))
		}
	}
	for _, l := range lines[len(c.frozen):c.s.Frozen()] {
		c.frozen = append(c.frozen, deepCopy(l))
	}
}

func (c *checker) compare(want []render.Line, when string) {
	c.t.Helper()
	got := c.s.Lines()
	if sameLines(got, want) {
		return
	}
	src := c.s.Source()
	c.t.Fatalf("%s: stream != one-shot %s at %d bytes (frozen %d lines, %d bytes)\nsource tail: %q\n--- stream\n%s--- one-shot\n%s",
		c.name, when, len(src), c.s.Frozen(), c.s.FrozenSource(), src[max(0, len(src)-120):], dump(got), dump(want))
}

// exactFrame reports whether doc.go's freezing rule promises that the
// stream's current frame equals Render(ShownPrefix(Source())): none of
// the differences it allows is in effect (a frozen block waiting for a
// definition that is in the text but not frozen yet, a revision
// postponed to Finish, a deferred table re-layout or a paragraph
// window).
func exactFrame(s *Stream) bool {
	s.sync()
	if s.approx || len(s.late.stale) > 0 {
		return false
	}
	if len(s.late.pending) == 0 {
		return true
	}
	doc, _ := parseDoc(newParser(), capNesting([]byte(ShownPrefix(s.Source()))), nil)
	for _, d := range definitions(doc) {
		if _, ok := s.late.pending[refKey(d.Label)]; ok {
			return false
		}
	}
	return true
}

// sameLines reports whether two frames show the same lines: the same
// spans (a line with no spans equals one with an empty slice of them) and
// the same copy behaviour. It is the equivalence tests' comparison, run
// after nearly every chunk, so it avoids reflect (slow under -race).
func sameLines(a, b []render.Line) bool {
	return slices.EqualFunc(a, b, sameLine)
}

func sameLine(a, b render.Line) bool {
	return a.Copy == b.Copy && slices.Equal(a.Spans, b.Spans)
}

func deepCopy(l render.Line) render.Line {
	return render.Line{Spans: append([]render.Span(nil), l.Spans...), Copy: l.Copy}
}

func dump(ls []render.Line) string {
	var b strings.Builder
	for i, l := range ls {
		fmt.Fprintf(&b, "%3d %s\n", i, annotate(l))
	}
	return b.String()
}

// TestStreamEveryByte streams each corpus document one byte at a time,
// which visits every byte boundary, and compares with one-shot renders
// at both golden widths.
func TestStreamEveryByte(t *testing.T) {
	docs := corpus(t)
	for _, d := range StressDocs(6) {
		docs["stress/"+d.Name] = d.Text
	}
	for i, name := range sortedKeys(docs) {
		src := docs[name]
		if len(src) > 2048 {
			continue
		}
		widths := []int{80, 40}
		if sampling() {
			widths = widths[i%2 : i%2+1] // each document at one width
		}
		for _, width := range widths {
			t.Run(fmt.Sprintf("%s/%d", name, width), func(t *testing.T) {
				c := newChecker(t, name, Options{Width: width})
				for i := 0; i < len(src); i++ {
					c.append(src[i:i+1], true)
				}
				c.finish()
			})
		}
	}
}

var long = flag.Bool("long", false, "run the exhaustive equivalence tests (minutes)")

// sampling reports whether the equivalence sweeps run a sample of their
// cases: under the race detector, which slows this package ~7× and finds
// nothing more in them (a Stream is used from one goroutine). `make test`
// runs every test with -race and then the sweeps again whole without it;
// -long (`make test-long`) widens them further.
func sampling() bool { return raceEnabled && !*long }

// TestStreamTwoChunks splits each document once at every byte boundary:
// a stream fed the two parts equals the one-shot render once the second
// part is in (before and after Finish), and its frozen lines never
// changed on the way.
func TestStreamTwoChunks(t *testing.T) {
	opts := Options{Width: 60}
	docs := corpus(t)
	for d, name := range sortedKeys(docs) {
		src := docs[name]
		step := 1
		if sampling() {
			step = 3 // a third of the splits, a different third per document
		}
		t.Run(name, func(t *testing.T) {
			// Every split ends with the same text: one oracle for all.
			shown := Render(ShownPrefix(src), opts)
			whole := Render(src, opts)
			for i := d % step; i <= len(src); i += step {
				c := newChecker(t, name, opts)
				c.append(src[:i], false)
				c.append(src[i:], false)
				if exactFrame(c.s) && !sameLines(c.s.Lines(), shown) {
					c.compare(Render(ShownPrefix(src), opts), fmt.Sprintf("split at %d", i))
				}
				c.s.Finish()
				c.checkFrozen()
				if !sameLines(c.s.Lines(), whole) {
					c.compare(Render(src, opts), fmt.Sprintf("after Finish, split at %d", i))
				}
			}
		})
	}
}

// TestStreamRandomChunksLarge streams big documents in random chunks
// under many seeds, checking at random moments and at the end.
func TestStreamRandomChunksLarge(t *testing.T) {
	answer, fence, checks, seeds := 250, 400, 4, 3
	switch {
	case *long:
		answer, fence, checks, seeds = 1000, 1500, 12, 8
	case testing.Short(), sampling():
		seeds = 1
	}
	docs := map[string]string{
		"answer":     GenerateAnswer(answer, 1),
		"longfence":  longFence(fence),
		"concat":     strings.Join(sortedValues(corpus(t)), "\n\n"),
		"openfence":  "intro\n\n```go\n" + strings.Repeat("x := 1 // line\n\n", 400),
		"reflater":   strings.Repeat("para [k] text\n\n", 50) + "[k]: https://k.example\n\n" + strings.Repeat("more [k]\n\n", 20),
		"nestedlist": strings.Repeat("- item\n  - sub\n\n", 100) + "end\n",
		// Paragraphs long enough that their flows drop the text of
		// lines already emitted (flow.compact): parsed, shown as plain
		// text (over maxInline), and inside a list item.
		"longpara":  longParagraph(maxInline-2048, "") + "\n\nafter\n",
		"longplain": longParagraph(2*maxInline, "") + "\n\nafter\n",
		"longitem":  "- " + longParagraph(maxInline/2, "  ") + "\n- next\n",
		// Long items of more than a paragraph, followed line by line
		// (open_item.go): a list nested in one item, and items holding
		// every kind of block, ended by a new item, a lazy line, a blank
		// line, a tab and the end of the list.
		"nesteditem": "1. intro\n" + strings.Repeat("   - sub *item* `code` [x]\n     more of it\n", fence/4) + "2. next\n" +
			strings.Repeat("   - sub\n", fence/8) + "lazy line\n" + strings.Repeat("   - sub\n", fence/8) + "\n   para\n\nafter\n",
		"itemblocks": strings.Repeat("- start\n"+quoted("  ", strings.ReplaceAll(quoteBlocks, "\n\n", "\n"))+"\t- tab\n", 8) + "\nafter\n",
		// Long quotes, followed line by line (open_quote.go): one long
		// paragraph, and every kind of block inside, nested quotes too.
		"longquote":   quoted("> ", longParagraph(8<<10, "")) + "\nafter\n",
		"quoteblocks": strings.Repeat(quoted("> ", quoteBlocks), 12) + "\nafter\n",
		"nestedquote": quoted("> ", quoted("> ", quoteBlocks)+"\nback out\n") + "\n",
		// Paragraphs whose second lines come without the marker (lazy
		// continuation), in a quote and in a list in a quote.
		// Long paragraphs of lazy lines, some of which look like blocks
		// that cannot interrupt a paragraph.
		"longlazyquote": "> start\n" + strings.Repeat("a lazy *line* with `code`\n2. not a list\n    indented lazy\n===\n", 100) +
			">\n> more\n" + strings.Repeat("lazy again [x]\n", 100) + "- a list ends it\n\n> again\n" + strings.Repeat("lazy\n", 50) + "\nafter\n",
		"lazyquote": strings.Repeat("> a paragraph in a quote\nits lazy line\n>\n> - an item\nits lazy line\n>\n", 60) + "\nafter\n",
		// Long HTML blocks, followed line by line (open_html.go): one that
		// a blank line ends, and a comment that runs across blank lines.
		"longhtml":    "<div>\n" + strings.Repeat("<p>a line of *html* with `ticks`</p>\n", 200) + "</div>\n\nafter\n",
		"longcomment": "<!-- start\n" + strings.Repeat("a commented line\n\n", 150) + "end -->\nafter\n",
		"longpre":     "<pre>\n" + strings.Repeat("preformatted\n\n", 100) + "a closing </STYLE> ends it\nafter, a *paragraph*\n\n" + strings.Repeat("more text\n", 40),
	}
	// Long indented code blocks, frozen line by line (freeze.go): blank
	// lines inside them and at their end, tabs, long lines, and the ways
	// a block ends, and a label defined after the code.
	docs["indentedcode"] = "See [k].\n" + indentedCode(fence/4, "    ", "\nA paragraph after [k].\n\n") +
		indentedCode(fence/4, "\t", "   a less indented line ends it\n") +
		"\n" + indentedCode(fence/4, "  \t", "\n\n- a list item\n\n") + "\n" + indentedCode(fence/4, "    ", "[k]: https://k.example\n\n") +
		indentedCode(fence/4, "    ", "")
	for name, src := range docs {
		for seed := range seeds {
			t.Run(fmt.Sprintf("%s/seed%d", name, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(seed), 7))
				c := newChecker(t, name, Options{Width: 50 + seed*7})
				// About a dozen full comparisons per run: each one is a
				// one-shot render of everything so far.
				every := max(len(src)/32/checks, 1)
				for p := 0; p < len(src); {
					n := min(len(src)-p, 1+rng.IntN(64))
					c.append(src[p:p+n], rng.IntN(every) == 0)
					p += n
				}
				if exactFrame(c.s) {
					c.compare(Render(ShownPrefix(src), c.opts), "before Finish")
				}
				c.finish()
			})
		}
	}
}

// quoteBlocks is content for a quote: a bit of every block.
const quoteBlocks = "A paragraph with `code`, **bold** and a [link](https://e.com).\n" +
	"Its second line.\n\n- item one\n- item two\n  - nested\n\n1. first\n2. second\n\n" +
	"```go\nfunc f() {}\n```\n\n# Heading\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n"

// quoted puts marker before every line of text.
func quoted(marker, text string) string {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l == "" {
			continue
		}
		if l == "\n" {
			b.WriteString(strings.TrimRight(marker, " ") + "\n")
			continue
		}
		b.WriteString(marker + l)
	}
	return b.String()
}

// longParagraph returns one paragraph of about n bytes in short lines of
// words, code spans, emphasis and links, each line after the first
// starting with indent.
func longParagraph(n int, indent string) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteString("\n" + indent)
		}
		fmt.Fprintf(&b, "line %d has `code %d` and **strong** words, a [link](https://example.com/%d) and _more_ text", i, i%7, i)
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}

func sortedValues(m map[string]string) []string {
	keys := sortedKeys(m)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

func longFence(lines int) string {
	var b strings.Builder
	b.WriteString("# Log\n\n```python\n")
	for i := range lines {
		if i%37 == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "value_%d = compute(%d)  # %s\n", i, i, strings.Repeat("x", i%90))
		if i%100 == 0 {
			b.WriteString("s = \"\"\"\nmulti\n\nline\n\"\"\"\n")
		}
	}
	b.WriteString("```\n\nDone.\n")
	return b.String()
}

// indentedCode is an indented code block of about lines lines, each
// indented by indent, then after: Python with blank lines inside (bare,
// and holding spaces or a tab), lines indented further by tabs and
// spaces, CRLF line ends, and lines wider than a screen.
func indentedCode(lines int, indent, after string) string {
	var b strings.Builder
	b.WriteString("\nSome code:\n\n")
	for i := range lines {
		switch i % 23 {
		case 5:
			b.WriteString("\n")
		case 11:
			b.WriteString("      \n\t\n")
		case 17:
			fmt.Fprintf(&b, "%s\tif value_%d:\r\n", indent, i)
		}
		fmt.Fprintf(&b, "%s%svalue_%d = compute(%d)  # %s\n", indent, strings.Repeat("  ", i%3), i, i, strings.Repeat("x", i%90))
		if i%50 == 0 {
			b.WriteString(indent + "s = \"\"\"\n" + indent + "multi\n\n" + indent + "\"\"\"\n")
		}
	}
	b.WriteString("\n  \n" + after)
	return b.String()
}

// markdownish are the pieces TestStreamRandomDocs builds documents from:
// every block opener, inline delimiters, definitions, HTML, URLs and
// wide characters, so that random documents hit the interactions between
// them that a hand-written corpus misses.
var markdownish = []string{"`", "```", "~~~", "\n", "\n\n", " ", "  ", "    ", "- ", "> ", "1. ", "2) ",
	"|", "| a ", "|---|", "---", "===", "*", "**", "_", "[", "]", "(", ")", "<", ">", "!", "\\", "# ",
	"x", "word", "http://a.b/c", "é", "漢字", "\t", "[x]: /u\n", "[x]", "<!--", "-->", "<div>\n",
	"```go\n", "```\n", "    code\n", "- [ ] ", "~~s~~", "www.x.com", "a@b.co",
	"> - ", ">> ", "  - ", "   ", "1.\n", "-\n", "#\n", "Title\n===\n", "para\n", "| b |\n", "\n>",
	"<https://x.y>", "![i](u)", "[l](u)", "[l][x]", "&amp;", "\\`", "``", "~~~~\n", "```py\n",
	"\"\"\"\n", "/*", "*/", "<pre>\n", "</pre>\n"}

// TestStreamRandomDocs streams seeded random documents in random chunks,
// comparing with the one-shot render after every chunk.
func TestStreamRandomDocs(t *testing.T) {
	docs, maxLen := 100, 600
	switch {
	case *long:
		docs, maxLen = 800, 1500
	case testing.Short(), sampling():
		docs = 30
	}
	rng := rand.New(rand.NewPCG(42, 1))
	for d := range docs {
		var b []byte
		n := rng.IntN(maxLen)
		for len(b) < n {
			b = append(b, markdownish[rng.IntN(len(markdownish))]...)
		}
		src := string(b)
		c := newChecker(t, fmt.Sprintf("doc %d %q", d, src), Options{Width: 15 + rng.IntN(70)})
		for p := 0; p < len(src); {
			step := min(len(src)-p, 1+rng.IntN(12))
			c.append(src[p:p+step], true)
			p += step
		}
		c.finish()
	}
}

// TestStreamStressCorpus streams the stress corpus (StressDocs, small)
// in random chunks at two widths, checking every frame the freezing rule
// promises exact and the lines after Finish.
func TestStreamStressCorpus(t *testing.T) {
	size, seeds := 60, 3
	switch {
	case *long:
		size, seeds = 300, 8
	case sampling():
		seeds = 1
	}
	for _, d := range StressDocs(size) {
		for seed := range seeds {
			for _, width := range []int{80, 34} {
				t.Run(fmt.Sprintf("%s/%d/%d", d.Name, seed, width), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(seed), 11))
					c := newChecker(t, d.Name, Options{Width: width})
					for p := 0; p < len(d.Text); {
						n := min(len(d.Text)-p, 1+rng.IntN(40))
						c.append(d.Text[p:p+n], rng.IntN(4) == 0)
						p += n
					}
					c.finish()
				})
			}
		}
	}
}

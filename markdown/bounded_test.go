package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestStreamParsesInProportion: streamed in 16-byte chunks with a frame
// after each, no document of the stress corpus makes the stream hand
// goldmark more than parseBound times its length: re-parsing a window or
// a tail that does not shrink would grow with the square of the text.
func TestStreamParsesInProportion(t *testing.T) {
	const parseBound = 4
	size := 2000
	if sampling() {
		size = 600
	}
	for _, d := range StressDocs(size) {
		t.Run(d.Name, func(t *testing.T) {
			s := NewStream(Options{Width: 80})
			for p := 0; p < len(d.Text); p += 16 {
				s.Append(d.Text[p:min(p+16, len(d.Text))])
				_ = s.Lines()
			}
			s.Finish()
			_ = s.Lines()
			ratio := float64(s.parsed) / float64(len(d.Text))
			t.Logf("%s: parsed %.2f× its %d bytes", d.Name, ratio, len(d.Text))
			if ratio > parseBound {
				t.Errorf("%s: the stream parsed %d bytes of a %d-byte text (%.1f×, bound %d×)", d.Name, s.parsed, len(d.Text), ratio, parseBound)
			}
		})
	}
}

// TestStreamPlainLongWordExact: a paragraph over the inline budget is
// shown as its text, so a word in it longer than a line is laid out as
// Render lays it out while it streams, and the paragraph freezes as it
// stands when it ends (no frame differs, no layout of it again).
func TestStreamPlainLongWordExact(t *testing.T) {
	src := "text " + strings.Repeat("*", 3*maxInlineLine) + " more words\n\nAfter.\n"
	c := newChecker(t, "plain-long-word", Options{Width: 40})
	for p := 0; p < len(src); p += 16 {
		c.append(src[p:min(p+16, len(src))], false)
		if p > maxInlineLine+64 && c.s.approx {
			t.Fatalf("at %d bytes the frame is approximate: a plain paragraph's long word should lay out exactly", p)
		}
	}
	c.finish()
}

// TestStreamPlainParagraphExact: a paragraph over the inline budget (a
// line over maxInlineLine, or a paragraph over maxInline) is followed a
// chunk at a time (open_plain.go), taking in only each chunk's text; its
// frames are Render(ShownPrefix()) exactly, whatever the chunks split:
// characters of several bytes, wide and combining ones, tabs, CRLF line
// ends, blanks around line breaks, control characters, invalid bytes and
// words wider than a line.
func TestStreamPlainParagraphExact(t *testing.T) {
	const mixed = "wide 漢字テキスト and 😀 emoji, e\u0301 combining,\ttab  two spaces " +
		"ctrl \x1b[31m and \x7f, bad \xff\xfe bytes, a-very-long-word-" + "wider-than-any-line-at-all-in-this-test-xxxxxxxxxxxxxxxxxx" +
		" end \r\n   \tnext line after CRLF and indent  \n\tthen a tab-led line 終わり\n"
	over := map[string]string{
		"line":      strings.Repeat("word ", maxInlineLine/5+1),
		"paragraph": strings.Repeat("a short line of words\n", maxInline/22+1),
	}
	for name, head := range over {
		for seed := range 3 {
			for _, width := range []int{80, 23} {
				t.Run(fmt.Sprintf("%s/%d/%d", name, seed, width), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(seed), 5))
					c := newChecker(t, name, Options{Width: width})
					c.append(head, true)
					tail := strings.Repeat(mixed, 4) + "\nAfter.\n"
					for p := 0; p < len(tail); {
						n := min(len(tail)-p, 1+rng.IntN(9))
						c.append(tail[p:p+n], true)
						if c.s.approx {
							t.Fatalf("at %d bytes the frame is approximate: a plain paragraph lays out exactly", len(c.s.Source()))
						}
						p += n
					}
					c.finish()
				})
			}
		}
	}
}

// itemNearBudget is the start of a list item whose one paragraph holds
// content bytes of content (as the inline budgets count them: each line
// after the item's indentation, line break included) in short lines,
// each indented by the item's two columns, so that its source is a
// quarter longer than its content, and then an unfinished line of last bytes of
// words, indented the same.
func itemNearBudget(content, last int) (head, line string) {
	var b strings.Builder
	const unit = "a `b` c\n" // shows as text past the budget
	b.WriteString("- " + unit)
	for n := len(unit); n+len(unit) <= content; n += len(unit) {
		b.WriteString("  " + unit)
	}
	b.WriteString("  ")
	return b.String(), strings.Repeat("word ", last/5)
}

// itemContent is the content bytes of itemNearBudget's head.
func itemContent(head string) int {
	return len(head) - 2*strings.Count(head, "\n  ") - len("- ")
}

// TestStreamItemBudgetContentBytes: the last line of a list item's
// paragraph is followed without parsing the item again (open_list.go)
// up to the inline budget as Render measures it, in content bytes, not
// only until its source (with the item's indentation) reaches the
// budget: a line that grows an item whose source is over the budget but
// whose content is not is parsed in proportion to the line.
func TestStreamItemBudgetContentBytes(t *testing.T) {
	head, line := itemNearBudget(maxInline-2048, 1024)
	if len(head) <= maxInline {
		t.Fatalf("the source should be over the budget: %d bytes", len(head))
	}
	c := newChecker(t, "item-near-budget", Options{Width: 60})
	c.append(head+"x", true)
	before := c.s.parsed
	for p := 0; p < len(line); p += 16 {
		c.append(line[p:min(p+16, len(line))], p%512 == 0)
	}
	if n := c.s.parsed - before; n > 4*len(line) {
		t.Errorf("growing the item's last line by %d bytes parsed %d bytes", len(line), n)
	}
	c.append("\n- next\n\nafter\n", true)
	c.finish()
}

// words is n bytes of short words, not ending in a blank.
func words(n int) string {
	return strings.Repeat("word ", n/5) + "wordx"[:n%5]
}

// TestStreamItemCrossesBudget: a list item's paragraph that grows past
// the inline budget on its last line (in all, or in that line, or with
// the line break that ends it) shows as Render shows it at every byte
// around the point where it goes over.
func TestStreamItemCrossesBudget(t *testing.T) {
	head, _ := itemNearBudget(maxInline-512, 0)
	size := maxInline - itemContent(head) // content bytes left within the budget
	cases := map[string]struct {
		head, line string
		over       int // where in line the paragraph goes over
	}{
		"size":       {head, words(size+64) + "\n", size + 1},
		"line break": {head, words(size) + "\n- next\n", size},
		"line":       {"- a `b` c\n  a `b` c\n  ", words(maxInlineLine+64) + "\n", maxInlineLine},
		"line ends":  {"- a `b` c\n  a `b` c\n  ", words(maxInlineLine-1) + "\n", maxInlineLine - 1},
		"first line": {"- `a` ", words(maxInlineLine+64) + "\n", maxInlineLine - 4},
	}
	for name, tc := range cases {
		// Chunks of one to three bytes around the crossing, one of them
		// ending where the paragraph goes over.
		for step := 1; step <= 3; step++ {
			t.Run(fmt.Sprintf("%s/%d", name, step), func(t *testing.T) {
				c := newChecker(t, name, Options{Width: 60})
				c.append(tc.head, true)
				from, to := tc.over+1-20*step, tc.over+1+20*step
				for p := 0; p < len(tc.line); {
					n := 16
					near := p >= from && p < to
					if near {
						n = step
					} else if p < from {
						n = min(n, from-p)
					}
					n = min(n, len(tc.line)-p)
					c.append(tc.line[p:p+n], near)
					p += n
				}
				c.append("- last\n", true)
				c.finish()
			})
		}
	}
}

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

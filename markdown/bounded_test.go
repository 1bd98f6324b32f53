package markdown

import (
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

package markdown

import "testing"

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

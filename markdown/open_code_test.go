package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestStreamIndentedCodeExact streams long indented code blocks, whose
// lines freeze one by one once the language is guessed (freeze.go) and
// are then laid out without parsing where the line allows it
// (continueCode): every frame equals Render(ShownPrefix()), frozen lines
// never change, and after Finish the stream equals Render, whatever the
// chunks split, for every indentation (spaces, tabs, both), blank lines
// inside the block (bare, or holding spaces or a tab) and at its end,
// CRLF line ends, white space goldmark does not count as blank, lines
// wider than the screen, and every way the block ends.
func TestStreamIndentedCodeExact(t *testing.T) {
	ends := map[string]string{
		"eof":       "",
		"less":      "   less indented ends it\n",
		"paragraph": "\n  \nA paragraph after it.\n",
		"list":      "\n\n- an item\n",
		"heading":   "# a heading ends it\n",
		"fence":     "```\nfenced\n```\n",
		"blanks":    "\n\n\t\n",
	}
	indents := []string{"    ", "\t", "  \t", "   \t", " \t", "     "}
	for i, end := range sortedKeys(ends) {
		if sampling() && i%3 != 0 {
			continue
		}
		indent := indents[i%len(indents)]
		var b strings.Builder
		b.WriteString("Code:\n\n")
		for j := range 45 {
			switch j % 9 {
			case 2:
				b.WriteString("\n")
			case 4:
				b.WriteString(indent + "  \n" + indent + "\t\n  \n")
			case 6:
				fmt.Fprintf(&b, "%s\fform feed %d\r\n%s\u00a0no-break\n", indent, j, indent)
			case 7:
				fmt.Fprintf(&b, "%s\t# %s\n", indent, strings.Repeat("wide ", 20))
			}
			fmt.Fprintf(&b, "%sdef f_%d(x):  return x * %d  # 漢字 `t` [k]\n", indent, j, j)
		}
		b.WriteString(ends[end])
		src := b.String()
		t.Run(fmt.Sprintf("%s/%q", end, indent), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 16))
			c := newChecker(t, end, Options{Width: 40})
			for p := 0; p < len(src); {
				n := min(len(src)-p, 1+rng.IntN(24))
				c.append(src[p:p+n], true)
				p += n
			}
			if c.s.Frozen() < 40 {
				t.Errorf("only %d lines frozen before Finish: the block's lines should freeze as they come", c.s.Frozen())
			}
			c.finish()
		})
	}
}

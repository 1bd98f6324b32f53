package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// StressDoc is a named document from the stress corpus.
type StressDoc struct {
	Name string
	Text string
}

// StressDocs returns answers built around what once made a Stream cost
// more than linear time: text that kept the frozen point from moving (a
// table directly under a line of text, unresolved brackets such as a[i],
// [Enter], [x] and links with a space in their URL), blocks that stay
// open while they grow (a long table, a long list, a long list nested in one item, a long
// paragraph,
// emphasis that never closes, a long run of '*', a long HTML block, long
// quotes, one with lazy continuation lines, a long indented code block), paragraphs of one construct repeated (link, image, label and
// autolink openers that never close, links and emphasis with no space
// between them, a list of code spans), plus reference links whose
// definitions come last. n sets the size: rows, items or paragraphs per
// document (2,000 gives the sizes the benchmarks use; a few dozen make
// documents small enough to stream byte by byte in tests).
func StressDocs(n int) []StressDoc {
	n = max(n, 1)
	rng := rand.New(rand.NewPCG(uint64(n), 0x51f15e))
	var docs []StressDoc
	add := func(name string, build func(b *strings.Builder)) {
		var b strings.Builder
		build(&b)
		docs = append(docs, StressDoc{name, b.String()})
	}
	paras := func(b *strings.Builder, k int) {
		for i := range k {
			fmt.Fprintf(b, "Paragraph %d says %s.\n\n", i, stressWords(rng, 4+rng.IntN(6)))
		}
	}
	add("table-under-text", func(b *strings.Builder) {
		b.WriteString("Here are the results:\n| a | b |\n|---|---|\n| 1 | 2 |\n\n")
		paras(b, n)
	})
	add("brackets", func(b *strings.Builder) {
		forms := []string{
			"Index `arr` as arr[i] and then arr[j+1], %s.",
			"Press [Enter] to continue, or [Esc] to %s.",
			"- [x] done: %s",
			"See [the docs](https://example.com/a b) about %s.",
			"The matrix m[0][1] holds %s, and [y] is unresolved.",
		}
		for i := range n {
			fmt.Fprintf(b, forms[i%len(forms)]+"\n\n", stressWords(rng, 3+rng.IntN(5)))
		}
	})
	add("table-rows", func(b *strings.Builder) {
		b.WriteString("| name | kind | cost | notes |\n|------|:----:|-----:|-------|\n")
		for i := range n {
			fmt.Fprintf(b, "| row%d | %s | %d | %s |\n", i, stressWords(rng, 1), i*37%1000, stressWords(rng, 2+rng.IntN(4)))
		}
		b.WriteString("\nAfter the table.\n")
	})
	add("list-items", func(b *strings.Builder) {
		for i := range n {
			fmt.Fprintf(b, "%d. item %s with `code` and **bold**\n", i+1, stressWords(rng, 2+rng.IntN(5)))
		}
		b.WriteString("\nAfter the list.\n")
	})
	add("nested-list", func(b *strings.Builder) {
		// A list of n items nested in one top-level item.
		b.WriteString("- The steps:\n")
		for i := range n {
			fmt.Fprintf(b, "  - step %d: %s with `code` and **bold**\n", i, stressWords(rng, 2+rng.IntN(4)))
		}
		b.WriteString("- Done.\n\nAfter the list.\n")
	})
	add("paragraph-line", func(b *strings.Builder) {
		// One paragraph on one line, 50 bytes per unit: 100 KB at 2,000.
		for i := range n {
			fmt.Fprintf(b, "%s `c%d` **b** ", stressWords(rng, 5), i%10)
		}
		b.WriteString("\n\nAfter the paragraph.\n")
	})
	add("paragraph-lines", func(b *strings.Builder) {
		// One paragraph of short lines with links, code and emphasis.
		for i := range n {
			fmt.Fprintf(b, "%s [link %d](https://example.com/%d) and _%s_\n", stressWords(rng, 3), i, i, stressWords(rng, 1))
		}
		b.WriteString("\nAfter the paragraph.\n")
	})
	add("emphasis-unclosed", func(b *strings.Builder) {
		b.WriteString("**Note: ")
		for range n {
			fmt.Fprintf(b, "%s ", stressWords(rng, 5))
		}
		b.WriteString("\n\n")
		paras(b, n/10)
	})
	add("star-run", func(b *strings.Builder) {
		b.WriteString(strings.Repeat("*", 25*n))
		b.WriteString("\n\ntext ")
		b.WriteString(strings.Repeat("*", 25*n))
		b.WriteString("\n\nAfter the stars.\n")
	})
	// Paragraphs of about 12 KB at 2,000 made of one construct repeated,
	// in lines of about 80 bytes (under the inline budget): openers that
	// never close, on which goldmark takes more than linear time, and
	// closed constructs with no plain word between them.
	units := func(name, unit string, count int) {
		add(name, func(b *strings.Builder) {
			per := max(1, 78/len(unit))
			for i := range count {
				b.WriteString(unit)
				if (i+1)%per == 0 || i+1 == count {
					b.WriteString("\n")
				}
			}
			b.WriteString("\nAfter the paragraph.\n")
		})
	}
	units("link-openers", "[a](", 3*n/2)
	units("image-openers", "![a](", 6*n/5)
	units("label-openers", "[a][", 3*n/2)
	units("autolink-openers", "<a", 3*n)
	units("links-unspaced", "[a](b)", n)
	units("emphasis-unspaced", "**a**", 6*n/5)
	units("code-list", "`name`, ", 3*n/4)
	add("late-references", func(b *strings.Builder) {
		for i := range n {
			fmt.Fprintf(b, "Claim %d is backed by [%d] and by [the spec][s%d].\n\n", i, i%20, i%7)
		}
		for i := range 20 {
			fmt.Fprintf(b, "[%d]: https://example.com/ref/%d\n", i, i)
		}
		for i := range 7 {
			fmt.Fprintf(b, "[s%d]: https://example.com/spec/%d \"Spec %d\"\n", i, i, i)
		}
	})
	add("quote-lines", func(b *strings.Builder) {
		// One quoted paragraph of n lines, a marker on each.
		for i := range n {
			fmt.Fprintf(b, "> line %d says %s with `code` and **bold**\n", i, stressWords(rng, 3))
		}
		b.WriteString("\nAfter the quote.\n")
	})
	add("html-lines", func(b *strings.Builder) {
		// One HTML block of n lines.
		b.WriteString("<div class=\"answer\">\n")
		for i := range n {
			fmt.Fprintf(b, "<p>line %d says %s</p>\n", i, stressWords(rng, 4))
		}
		b.WriteString("</div>\n\nAfter the block.\n")
	})
	add("quote-blocks", func(b *strings.Builder) {
		// A quote of paragraphs and lists, n/2 of each.
		for i := range n / 2 {
			fmt.Fprintf(b, "> Paragraph %d says %s.\n>\n> - item %s\n> - item [%d]\n>\n", i, stressWords(rng, 5), stressWords(rng, 2), i%9)
		}
		b.WriteString("\nAfter the quote.\n")
	})
	add("quote-lazy", func(b *strings.Builder) {
		// A quote of paragraphs of ten lines whose first line alone
		// carries the marker (lazy continuation lines).
		for i := range n {
			switch {
			case i == 0:
				fmt.Fprintf(b, "> Paragraph %d says %s.\n", i, stressWords(rng, 4))
			case i%10 == 0:
				fmt.Fprintf(b, ">\n> Paragraph %d says %s.\n", i, stressWords(rng, 4))
			default:
				fmt.Fprintf(b, "line %d says %s with `code` and **bold**\n", i, stressWords(rng, 3))
			}
		}
		b.WriteString("\nAfter the quote.\n")
	})
	add("indented-code", func(b *strings.Builder) {
		// One indented code block of n lines (no fence), with blank lines
		// inside it and lines indented by a tab.
		b.WriteString("The code:\n\n")
		for i := range n {
			switch {
			case i%40 == 39:
				b.WriteString("\n")
			case i%7 == 3:
				fmt.Fprintf(b, "\t\tv%d := items[%d] // %s\n", i, i, stressWords(rng, 2))
			default:
				fmt.Fprintf(b, "    if v%d > %d { return %q }\n", i, i*3, stressWords(rng, 2))
			}
		}
		b.WriteString("\nAfter the code.\n")
	})
	return docs
}

// GenerateStressAnswer is GenerateAnswer's counterpart for the stress
// corpus: an answer of about the given number of lines that mixes
// ordinary prose, code and lists with everything StressDocs isolates
// (tables under a line of text, bracketed code, unresolved labels, long
// tables and lists, long paragraphs, unclosed emphasis, references
// defined at the end), so that its cost shows how streaming grows with
// the answer's length.
func GenerateStressAnswer(lines int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var b strings.Builder
	count := 0
	line := func(format string, a ...any) {
		fmt.Fprintf(&b, format+"\n", a...)
		count++
	}
	for section := 1; count < lines; section++ {
		line("## Step %d", section)
		line("")
		switch rng.IntN(7) {
		case 0:
			line("Here is what %s returns:", stressWords(rng, 2))
			line("| key | value | note |")
			line("|-----|------:|------|")
			for i := range 5 + rng.IntN(40) {
				line("| k%d | %d | %s |", i, rng.IntN(10000), stressWords(rng, 1+rng.IntN(5)))
			}
		case 1:
			for range 2 + rng.IntN(4) {
				line("Loop over arr[i] until arr[i+1] > %s, then press [Enter]; see [the guide](https://example.com/a b).", stressWords(rng, 2))
			}
		case 2:
			for i := range 5 + rng.IntN(60) {
				line("%d. %s `%s()` [%d]", i+1, stressWords(rng, 3+rng.IntN(6)), stressWords(rng, 1), i%9)
			}
		case 3:
			line("**Important: %s", stressWords(rng, 10))
			for range 2 + rng.IntN(8) {
				line("%s *%s* `x[%d]`", stressWords(rng, 8), stressWords(rng, 1), rng.IntN(9))
			}
		case 4:
			line("```go")
			for i := range 5 + rng.IntN(20) {
				line("\tv%d := items[%d] // %s", i, i, stressWords(rng, 2))
			}
			line("```")
		case 5:
			var p strings.Builder
			for range 20 + rng.IntN(100) {
				fmt.Fprintf(&p, "%s ", stressWords(rng, 6))
			}
			line("%s", p.String())
		case 6:
			for range 3 + rng.IntN(10) {
				line("- [ ] %s [x] %s", stressWords(rng, 3), stressWords(rng, 2))
			}
		}
		line("")
	}
	for i := range 9 {
		line("[%d]: https://example.com/notes/%d", i, i)
	}
	return b.String()
}

var stressVocabulary = strings.Fields(`the stream renders lines while text arrives and every
	chunk costs little work because answers grow long index value buffer session request
	handler context deadline result table column row item parser window token`)

func stressWords(rng *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = stressVocabulary[rng.IntN(len(stressVocabulary))]
	}
	return strings.Join(w, " ")
}

package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// GenerateAnswer returns a deterministic, realistic assistant answer of
// about the given number of lines: headings, prose, nested lists, task
// lists, code blocks in several languages, tables and quotes. Benchmarks
// and tests share it so that they measure the same kind of text.
func GenerateAnswer(lines int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	words := strings.Fields(`the renderer streams markdown into styled lines while the model
		answers and every chunk must cost little work because answers grow long and the terminal
		redraws often so we freeze finished blocks keep the tail small and never change a line
		that already went to scrollback configuration parser buffer window cursor session token
		request handler context deadline`)
	sentence := func() string {
		n := 6 + rng.IntN(14)
		w := make([]string, n)
		for i := range w {
			w[i] = words[rng.IntN(len(words))]
		}
		switch rng.IntN(6) {
		case 0:
			w[rng.IntN(n)] = "`" + words[rng.IntN(len(words))] + "()`"
		case 1:
			w[rng.IntN(n)] = "**" + words[rng.IntN(len(words))] + "**"
		case 2:
			w[rng.IntN(n)] = "[" + words[rng.IntN(len(words))] + "](https://example.com/" + words[rng.IntN(len(words))] + ")"
		}
		s := strings.Join(w, " ")
		return strings.ToUpper(s[:1]) + s[1:] + "."
	}
	var b strings.Builder
	count := 0
	line := func(format string, a ...any) {
		fmt.Fprintf(&b, format+"\n", a...)
		count++
	}
	section := 0
	for count < lines {
		section++
		line("## Part %d: %s", section, words[rng.IntN(len(words))])
		line("")
		for range 1 + rng.IntN(3) {
			for range 2 + rng.IntN(4) {
				line("%s", sentence())
			}
			line("")
		}
		switch rng.IntN(5) {
		case 0, 1:
			lang := []string{"go", "python", "rust", "sh", ""}[rng.IntN(5)]
			line("```%s", lang)
			for i := range 8 + rng.IntN(30) {
				switch lang {
				case "go":
					line("\tresult%d := process(ctx, \"%s\", %d) // %s", i, words[rng.IntN(len(words))], i, words[rng.IntN(len(words))])
				case "python":
					line("    value_%d = handle(%q, %d)  # %s", i, words[rng.IntN(len(words))], i, words[rng.IntN(len(words))])
				case "rust":
					line("    let v%d = compute(&ctx, %d)?; // %s", i, i, words[rng.IntN(len(words))])
				default:
					line("quire run --step %d --name %s | tee out-%d.log", i, words[rng.IntN(len(words))], i)
				}
			}
			line("```")
			line("")
		case 2:
			for i := range 3 + rng.IntN(5) {
				line("%d. %s", i+1, sentence())
				if rng.IntN(3) == 0 {
					line("   - %s", sentence())
					line("   - [x] %s", words[rng.IntN(len(words))])
				}
			}
			line("")
		case 3:
			line("| name | kind | cost | notes |")
			line("|------|:----:|-----:|-------|")
			for i := range 3 + rng.IntN(8) {
				line("| %s | %s | %d | %s |", words[rng.IntN(len(words))], words[rng.IntN(len(words))], i*17%100, sentence())
			}
			line("")
		case 4:
			line("> %s", sentence())
			line("> %s", sentence())
			line("")
			for range 2 + rng.IntN(4) {
				line("- %s", sentence())
			}
			line("")
		}
	}
	return b.String()
}

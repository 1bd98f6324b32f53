package renderbench

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quire-sh/quire/render"
)

// The content here imitates a coding agent's transcript: prose with bold
// and inline code, highlighted code blocks, tool calls, file lists with
// links. It is generated from a fixed seed, so every run and every
// implementation sees the same frames.

// theme holds the styles a transcript is drawn with: a realistic mix of
// default, 16-colour, 256-colour and 24-bit colours and attributes.
var theme = struct {
	header, headerDim, footer, status, spinner, prose, bold, code, dim,
	keyword, ident, str, number, comment, user, tool, link, added, removed render.Style
}{
	header:    render.Style{Fg: render.RGB(0xe6, 0xe6, 0xe6), Bg: render.RGB(0x2b, 0x30, 0x3b), Attrs: render.Bold},
	headerDim: render.Style{Fg: render.RGB(0x9a, 0xa0, 0xa6), Bg: render.RGB(0x2b, 0x30, 0x3b)},
	footer:    render.Style{Fg: render.Indexed(250), Bg: render.Indexed(236)},
	status:    render.Style{Fg: render.ANSI(8)},
	spinner:   render.Style{Fg: render.ANSI(5), Attrs: render.Bold},
	prose:     render.Style{},
	bold:      render.Style{Attrs: render.Bold},
	code:      render.Style{Fg: render.RGB(0xe0, 0x6c, 0x75), Bg: render.RGB(0x28, 0x2c, 0x34)},
	dim:       render.Style{Attrs: render.Dim},
	keyword:   render.Style{Fg: render.RGB(0xc6, 0x78, 0xdd), Bg: render.RGB(0x28, 0x2c, 0x34)},
	ident:     render.Style{Fg: render.RGB(0xab, 0xb2, 0xbf), Bg: render.RGB(0x28, 0x2c, 0x34)},
	str:       render.Style{Fg: render.RGB(0x98, 0xc3, 0x79), Bg: render.RGB(0x28, 0x2c, 0x34)},
	number:    render.Style{Fg: render.RGB(0xd1, 0x9a, 0x66), Bg: render.RGB(0x28, 0x2c, 0x34)},
	comment:   render.Style{Fg: render.Indexed(244), Bg: render.RGB(0x28, 0x2c, 0x34), Attrs: render.Italic},
	user:      render.Style{Fg: render.ANSI(6), Attrs: render.Bold},
	tool:      render.Style{Fg: render.ANSI(3)},
	link:      render.Style{Fg: render.ANSI(4), Attrs: render.Underline},
	added:     render.Style{Fg: render.ANSI(2)},
	removed:   render.Style{Fg: render.ANSI(1)},
}

var words = strings.Fields(`the renderer diff buffer frame cell row column width cursor
scroll region history terminal output byte write flush style colour link
parser token stream block layout cache prefix sum height search filter
session engine event store tool sandbox shell patch file path line test
benchmark error context cancel retry model prompt answer reasoning summary
a an of to in for with on by from that this is are was be it as at or not
we you they can will should must may each every only also then when if
function method value pointer slice map channel goroutine interface type`)

var cjkWords = []string{
	"渲染器", "终端", "缓冲区", "光标", "滚动", "历史记录", "输出", "字节", "宽字符", "测试",
	"日本語", "文字列", "画面", "描画", "差分", "한국어", "터미널", "출력", "が", "の",
	"在", "了", "和", "是", "，", "。", "「引用」", "（注）",
}

// emoji are clusters every width method agrees are two columns wide:
// presentation-default pictographs, skin tones, ZWJ sequences and flags.
var emoji = []string{
	"😀", "🚀", "🔥", "✅", "🎉", "👍🏽", "👩‍💻", "🧑‍🔬", "🇯🇵", "🇫🇷", "❤️", "🐛", "📦", "🦀", "🐹",
}

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// token is one unit of streamed text. A token with Break ends the
// paragraph: the line is finished and a blank line follows.
type token struct {
	render.Span
	Break bool
}

// proseTokens returns paragraphs of English-like prose as tokens of one
// word and its trailing space, with some bold words and inline code.
func proseTokens(rng *rand.Rand, paragraphs int) []token {
	var toks []token
	for range paragraphs {
		n := 20 + rng.IntN(60)
		for i := range n {
			w := words[rng.IntN(len(words))]
			st := theme.prose
			switch r := rng.IntN(20); {
			case r == 0:
				st = theme.bold
			case r == 1:
				w = "`" + w + "()`"
				st = theme.code
			}
			sep := " "
			if i == n-1 {
				sep = ""
				w += "."
			}
			toks = append(toks, token{Span: render.Span{Text: w + sep, Style: st}})
		}
		toks = append(toks, token{Break: true})
	}
	return toks
}

// wideTokens returns paragraphs dense in CJK and emoji: tokens of one to
// four wide clusters, with an ASCII word now and then.
func wideTokens(rng *rand.Rand, paragraphs int) []token {
	var toks []token
	for range paragraphs {
		n := 20 + rng.IntN(60)
		for range n {
			var text string
			st := theme.prose
			switch r := rng.IntN(10); {
			case r < 6:
				text = cjkWords[rng.IntN(len(cjkWords))]
			case r < 9:
				text = emoji[rng.IntN(len(emoji))]
				st = theme.bold
			default:
				text = words[rng.IntN(len(words))] + " "
			}
			toks = append(toks, token{Span: render.Span{Text: text, Style: st}})
		}
		toks = append(toks, token{Break: true})
	}
	return toks
}

// wrapTokens lays tokens out greedily at width: a token that does not fit
// starts a new line (leading spaces dropped), and a token wider than a
// whole line is cut. It returns the lines as spans.
func wrapTokens(toks []token, width int) [][]render.Span {
	var lines [][]render.Span
	var cur []render.Span
	curW := 0
	for _, t := range toks {
		if t.Break {
			lines = append(lines, cur, nil)
			cur, curW = nil, 0
			continue
		}
		cur, curW, lines = appendToken(cur, curW, lines, t.Span, width)
	}
	if len(cur) > 0 {
		lines = append(lines, cur)
	}
	return lines
}

// appendToken adds one token to the current line, starting a new line
// when it does not fit.
func appendToken(cur []render.Span, curW int, lines [][]render.Span, sp render.Span, width int) ([]render.Span, int, [][]render.Span) {
	visible := strings.TrimRight(sp.Text, " ")
	if curW > 0 && curW+render.StringWidth(visible) > width {
		lines = append(lines, cur)
		cur, curW = nil, 0
		sp.Text = strings.TrimLeft(sp.Text, " ")
	}
	cur = append(cur, sp)
	curW += render.StringWidth(sp.Text)
	return cur, curW, lines
}

// codeLines returns a highlighted code block's lines.
func codeLines(rng *rand.Rand, n int) [][]render.Span {
	idents := []string{"buf", "frame", "row", "cell", "width", "err", "out", "n", "diff", "cursor"}
	kws := []string{"if", "for", "return", "func", "var", "switch", "case", "defer"}
	lines := make([][]render.Span, 0, n)
	for range n {
		indent := strings.Repeat("    ", rng.IntN(3))
		var l []render.Span
		l = append(l, render.Span{Text: "  " + indent, Style: theme.ident})
		switch rng.IntN(4) {
		case 0:
			l = append(l,
				render.Span{Text: kws[rng.IntN(len(kws))] + " ", Style: theme.keyword},
				render.Span{Text: idents[rng.IntN(len(idents))] + " := ", Style: theme.ident},
				render.Span{Text: fmt.Sprint(rng.IntN(4096)), Style: theme.number})
		case 1:
			l = append(l,
				render.Span{Text: idents[rng.IntN(len(idents))] + ".Write(", Style: theme.ident},
				render.Span{Text: fmt.Sprintf("%q", words[rng.IntN(len(words))]), Style: theme.str},
				render.Span{Text: ")", Style: theme.ident})
		case 2:
			l = append(l, render.Span{Text: "// " + words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))] + " keeps the invariant", Style: theme.comment})
		default:
			l = append(l,
				render.Span{Text: "return ", Style: theme.keyword},
				render.Span{Text: idents[rng.IntN(len(idents))] + ", nil", Style: theme.ident})
		}
		lines = append(lines, l)
	}
	return lines
}

// fileLinkLine is one row of a file list: a status letter, a path linked
// with OSC 8, a line number linked to the line, and a diff stat.
func fileLinkLine(rng *rand.Rand, i int) []render.Span {
	dirs := []string{"render", "markdown", "scrollback", "engine", "tools", "sandbox", "app", "term", "store", "bench"}
	files := []string{"diff.go", "buffer.go", "encode.go", "layout.go", "stream.go", "policy.go", "loop.go", "view.go"}
	path := fmt.Sprintf("%s/%s/%s", dirs[rng.IntN(len(dirs))], words[rng.IntN(len(words))], files[rng.IntN(len(files))])
	line := 1 + rng.IntN(900)
	url := "file:///home/dev/quire/" + path
	status, st := "M", theme.tool
	switch rng.IntN(4) {
	case 0:
		status, st = "A", theme.added
	case 1:
		status, st = "D", theme.removed
	}
	return []render.Span{
		{Text: fmt.Sprintf("%4d ", i), Style: theme.dim},
		{Text: status + "  ", Style: st},
		{Text: path, Style: theme.link, Link: url},
		{Text: ":", Style: theme.dim},
		{Text: fmt.Sprint(line), Style: theme.link, Link: fmt.Sprintf("%s#L%d", url, line)},
		{Text: fmt.Sprintf("  +%d", rng.IntN(200)), Style: theme.added},
		{Text: fmt.Sprintf(" -%d", rng.IntN(80)), Style: theme.removed},
	}
}

// transcriptLines returns at least n lines of a transcript at width: user
// prompts, wrapped prose, code blocks, tool calls and links.
func transcriptLines(rng *rand.Rand, width, n int, wide bool) [][]render.Span {
	var lines [][]render.Span
	for len(lines) < n {
		switch rng.IntN(5) {
		case 0:
			lines = append(lines, []render.Span{{Text: "› ", Style: theme.user}, {Text: "please " + words[rng.IntN(len(words))] + " the " + words[rng.IntN(len(words))], Style: theme.bold}}, nil)
		case 1:
			lines = append(lines, codeLines(rng, 3+rng.IntN(12))...)
			lines = append(lines, nil)
		case 2:
			lines = append(lines, []render.Span{{Text: "● ", Style: theme.tool}, {Text: "read ", Style: theme.tool}, {Text: "render/diff.go", Style: theme.link, Link: "file:///home/dev/quire/render/diff.go"}, {Text: " (120 lines)", Style: theme.dim}})
		default:
			toks := proseTokens(rng, 1)
			if wide {
				toks = wideTokens(rng, 1)
			}
			lines = append(lines, wrapTokens(toks, width)...)
		}
	}
	return lines
}

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

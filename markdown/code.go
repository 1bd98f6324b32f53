package markdown

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/rivo/uniseg"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"

	"github.com/quire-sh/quire/render"
)

const (
	// guessLines is how many lines decide a guessed language; past it the
	// guess can no longer change as the block grows.
	guessLines = 30
	tabWidth   = 4
)

// codeOut is a rendered code block with, for each content line, the
// index of its first output line (so a stream can freeze a prefix).
type codeOut struct {
	lines     []render.Line
	bodyStart []int
	lexer     string
	// resumable is set when the lines were lexed line by line, so that a
	// stream may freeze part of the block and continue from snap.
	resumable bool
	snap      *lexState // lexer state after line snapAfter, if requested
}

// codeLines returns a code block's content lines without newlines.
func codeLines(n ast.Node, src []byte) []string {
	ls := n.Lines()
	out := make([]string, ls.Len())
	for i := range out {
		seg := ls.At(i)
		out[i] = strings.TrimRight(string(seg.Value(src)), "\r\n")
	}
	return out
}

func (r *renderer) fenced(n *ast.FencedCodeBlock, width int, cont *fenceState, snapAfter int) codeOut {
	lang := string(n.Language(r.src))
	lines := codeLines(n, r.src)
	if r.dropLastLine && len(lines) > 0 {
		lines = lines[:len(lines)-1]
	}
	fence := fenceOf(r.src, n)
	if strings.EqualFold(lang, "mermaid") {
		// A diagram is drawn once its block is whole; until then it is
		// code, never frozen line by line, since it will be redrawn.
		if r.settled(n) && !r.dropLastLine {
			if out, ok := r.diagram(lines, fence, width); ok {
				return out
			}
		}
		out := r.code(lines, lang, fence, r.settled(n), width, cont, snapAfter)
		out.resumable = false
		return out
	}
	return r.code(lines, lang, fence, r.settled(n), width, cont, snapAfter)
}

// indented renders an indented code block. cont, when set, continues
// one whose first lines a stream froze: the block was parsed behind
// indentedLead, whose content line is left out.
func (r *renderer) indented(n *ast.CodeBlock, width int, cont *fenceState, snapAfter int) codeOut {
	lines := codeLines(n, r.src)
	if cont != nil && len(lines) > 0 {
		lines = lines[1:]
	}
	settled := r.settled(n)
	if r.dropLastLine && len(lines) > 0 {
		// The held-back last line goes, and with it the blank lines
		// before it, which the block holds only if code follows them:
		// what stays is the block as the text without that line has it,
		// where those blank lines follow it (it is settled).
		lines = lines[:len(lines)-1]
		settled = false
		for len(lines) > 0 && util.IsBlank([]byte(lines[len(lines)-1])) {
			lines, settled = lines[:len(lines)-1], true
		}
	}
	return r.code(lines, "", "```", settled, width, cont, snapAfter)
}

// diagram draws a mermaid block inside a code frame, or reports false
// when it is not a diagram drawMermaid can draw whole in width columns.
// Drawing is guarded: a bug in it must cost the diagram, not the answer.
func (r *renderer) diagram(lines []string, fence string, width int) (out codeOut, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = codeOut{}, false
		}
	}()
	src := strings.Join(lines, "\n")
	rows, ok := drawMermaid(src, width-2)
	if !ok {
		return codeOut{}, false
	}
	bar := render.Span{Text: "│ ", Style: r.theme.CodeFrame}
	// A copy gives the diagram's source, not its drawing.
	out = codeOut{lexer: "mermaid"}
	out.lines = append(out.lines, r.codeHeader("mermaid", fence+"mermaid\n"+src))
	for _, row := range rows {
		out.lines = append(out.lines, render.Line{
			Spans: []render.Span{bar, {Text: row, Style: r.theme.CodeText}},
			Copy:  render.Copy{Join: render.JoinNone, Skip: width},
		})
	}
	out.lines = append(out.lines, r.codeFooter(fence))
	return out, true
}

// codeHeader is a code frame's first line, naming label; a copy gives
// lead in its place (the opening fence).
func (r *renderer) codeHeader(label, lead string) render.Line {
	frame := r.theme.CodeFrame
	return render.Line{
		Spans: []render.Span{
			{Text: "╭─ ", Style: frame},
			{Text: label, Style: mergeStyle(frame, render.Style{Attrs: render.Bold})},
		},
		Copy: render.Copy{Skip: 3 + render.StringWidth(label), Lead: lead},
	}
}

// codeFooter is a code frame's last line; a copy gives the closing fence.
func (r *renderer) codeFooter(fence string) render.Line {
	return render.Line{
		Spans: []render.Span{{Text: "╰─", Style: r.theme.CodeFrame}},
		Copy:  render.Copy{Skip: 2, Lead: fence},
	}
}

// fenceOf returns the run of backticks or tildes that opens n in src,
// for a copy of the block to open and close with the fence it came in.
// goldmark puts a block's position at its first character, after any
// container prefix: here, the fence.
func fenceOf(src []byte, n ast.Node) string {
	i := n.Pos()
	if i < 0 || i >= len(src) || src[i] != '`' && src[i] != '~' {
		return "```"
	}
	j := i
	for j < len(src) && src[j] == src[i] {
		j++
	}
	if j-i < 3 {
		return "```"
	}
	return string(src[i:j])
}

// settled reports whether anything follows a code block's content (a
// closing fence, the end of its container, more text): its lines are
// then all there.
func (r *renderer) settled(n ast.Node) bool {
	end := n.Pos()
	if ls := n.Lines(); ls.Len() > 0 {
		end = ls.At(ls.Len()-1).Stop - 1
	}
	return lineEndAfter(r.src, max(end, 0)) < len(r.src)
}

// pickLexer chooses the highlighter: the info string's language, else a
// guess from the first guessLines lines, else plain text. A block still
// growing at the end of the text with fewer lines than that is not
// guessed yet: the guess would change with every line.
func (r *renderer) pickLexer(lang string, lines []string, settled bool) chroma.Lexer {
	if lang != "" {
		if l := r.lexers.byName(lang); l != nil {
			return l
		}
	}
	if !settled && len(lines) < guessLines {
		return lexers.Fallback
	}
	sample := strings.Join(lines[:min(len(lines), guessLines)], "\n")
	if strings.TrimSpace(sample) != "" {
		if l := lexers.Analyse(sample); l != nil {
			return l
		}
	}
	return lexers.Fallback
}

// langDecided reports whether more lines could still change pickLexer
// for a block that is still open.
func (r *renderer) langDecided(lang string, complete int) bool {
	return (lang != "" && r.lexers.byName(lang) != nil) || complete >= guessLines
}

// code renders a code block: a header naming the language, the lines
// behind a frame bar, long lines wrapped with a continuation mark, and a
// footer. cont, when set, continues a block whose first lines a stream
// froze: no header, and the lexer resumes from the frozen state. When
// snapAfter >= 0 the lexer state after that line is kept in the result.
func (r *renderer) code(lines []string, lang, fence string, settled bool, width int, cont *fenceState, snapAfter int) codeOut {
	var lexer chroma.Lexer
	switch {
	case len(lines) == 0:
		// Nothing to highlight (often an opening line still arriving, its
		// language half typed): skip the lookup.
		lexer = lexers.Fallback
	case cont != nil:
		// The frozen part chose; the rest of the block must not guess
		// again from its own lines.
		lexer = lexers.Fallback
		if cont.lexer != lexer.Config().Name {
			if l := r.lexers.byName(cont.lexer); l != nil {
				lexer = l
			}
		}
	}
	if lexer == nil {
		lexer = r.pickLexer(lang, lines, settled)
	}
	out := codeOut{lexer: lexer.Config().Name, bodyStart: make([]int, len(lines))}
	if cont == nil {
		label := lang
		if label == "" {
			label = "code"
		}
		// A copy shows the fence the block came in.
		out.lines = append(out.lines, r.codeHeader(cleanText(label), fence+cleanText(lang)))
	}
	for i := range lines {
		lines[i] = render.ExpandTabs(lines[i], tabWidth)
	}
	var hl [][]render.Span
	switch ll := r.lexers.get(lexer); {
	case out.lexer == lexers.Fallback.Config().Name:
		out.resumable = true
		hl = r.plain(lines)
	case ll != nil:
		out.resumable = true
		st := ll.start()
		if cont != nil && cont.state != nil {
			st = cont.state.clone()
		}
		hl = make([][]render.Span, len(lines))
		for i, l := range lines {
			toks, ok := st.line(l + "\n")
			if ok {
				hl[i] = r.spans(toks, l)
			} else {
				hl[i] = r.plain(lines[i : i+1])[0]
				st = ll.start()
			}
			if i == snapAfter {
				c := st.clone()
				out.snap = &c
			}
		}
	default:
		hl = r.highlightWhole(lexer, lines)
	}
	inner := max(width-2, 1)
	for i, spans := range hl {
		out.bodyStart[i] = len(out.lines)
		out.lines = append(out.lines, r.codeLine(spans, inner)...)
	}
	out.lines = append(out.lines, r.codeFooter(fence))
	return out
}

func (r *renderer) plain(lines []string) [][]render.Span {
	out := make([][]render.Span, len(lines))
	for i, l := range lines {
		if l != "" {
			out[i] = []render.Span{{Text: render.Sanitize(l), Style: r.theme.CodeText}}
		}
	}
	return out
}

// spans turns one line's tokens into styled spans. If the tokens do not
// spell the line (a lexer that lost text), the line is shown plain:
// highlighting must never make code vanish.
func (r *renderer) spans(toks []chroma.Token, line string) []render.Span {
	var out []render.Span
	var b strings.Builder
	for _, t := range toks {
		v := strings.TrimSuffix(t.Value, "\n")
		b.WriteString(t.Value)
		if v == "" {
			continue
		}
		st := r.theme.tokenStyle(t.Type)
		v = render.Sanitize(v)
		if n := len(out); n > 0 && out[n-1].Style == st {
			out[n-1].Text += v
		} else {
			out = append(out, render.Span{Text: v, Style: st})
		}
	}
	if b.String() != line+"\n" {
		return r.plain([]string{line})[0]
	}
	return out
}

// highlightWhole tokenises a block in one go, for lexers that cannot
// lex by lines.
func (r *renderer) highlightWhole(lexer chroma.Lexer, lines []string) [][]render.Span {
	out := make([][]render.Span, len(lines))
	it, err := chroma.Coalesce(lexer).Tokenise(nil, strings.Join(lines, "\n")+"\n")
	if err != nil {
		return r.plain(lines)
	}
	line := 0
	for tok := it(); tok != chroma.EOF; tok = it() {
		v := tok.Value
		st := r.theme.tokenStyle(tok.Type)
		for v != "" && line < len(lines) {
			part := v
			nl := strings.IndexByte(v, '\n')
			if nl >= 0 {
				part, v = v[:nl], v[nl+1:]
			} else {
				v = ""
			}
			if part != "" {
				part = render.Sanitize(part)
				if n := len(out[line]); n > 0 && out[line][n-1].Style == st {
					out[line][n-1].Text += part
				} else {
					out[line] = append(out[line], render.Span{Text: part, Style: st})
				}
			}
			if nl >= 0 {
				line++
			}
		}
	}
	for i, l := range lines {
		if spanText(out[i]) != render.Sanitize(l) {
			out[i] = r.plain(lines[i : i+1])[0]
		}
	}
	return out
}

func spanText(ss []render.Span) string {
	if len(ss) == 1 {
		return ss[0].Text
	}
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s.Text)
	}
	return b.String()
}

// codeLine cuts one highlighted line into rows of width columns; every
// row after the first starts with a visible continuation mark, so a
// wrapped line is never mistaken for two lines and nothing is cut off.
func (r *renderer) codeLine(spans []render.Span, width int) []render.Line {
	bar := render.Span{Text: "│ ", Style: r.theme.CodeFrame}
	cont := render.Span{Text: "│↪", Style: r.theme.CodeMark}
	row := []render.Span{bar}
	var out []render.Line
	// A copy leaves the bar and the continuation mark out and joins the
	// rows of one line back together.
	copyForm := render.Copy{Skip: 2}
	col := 0
	for _, sp := range spans {
		if col+textWidth(sp.Text) <= width {
			row = append(row, sp)
			col += textWidth(sp.Text)
			continue
		}
		rest := sp.Text
		start := 0
		pos := 0
		state := -1
		for len(rest) > 0 {
			var c string
			var cw int
			c, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
			if col > 0 && col+cw > width {
				if pos > start {
					row = append(row, render.Span{Text: sp.Text[start:pos], Style: sp.Style})
				}
				out = append(out, render.Line{Spans: row, Copy: copyForm})
				row = []render.Span{cont}
				copyForm = render.Copy{Join: render.JoinNone, Skip: 2}
				col = 0
				start = pos
			}
			col += cw
			pos += len(c)
		}
		if pos > start {
			row = append(row, render.Span{Text: sp.Text[start:pos], Style: sp.Style})
		}
	}
	return append(out, render.Line{Spans: row, Copy: copyForm})
}

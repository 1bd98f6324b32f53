package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/quire-sh/quire/render"
)

// Inline parsing is where goldmark can take more than linear time: a
// paragraph of "[a](" repeated, or of delimiter runs that never match,
// costs time quadratic in its length (80 KB of "[a](" takes seconds). So a
// paragraph longer than maxInline, or with a line longer than
// maxInlineLine (which also bounds a table's row, hence its cells), is
// not parsed for inlines: it is shown as the text it is, markup and all,
// in a plainBlock. Lengths count the paragraph's content bytes: each
// line from where its content starts in the blocks it is in (after the
// markers of quotes and list items, and the indentation those take) to
// its end, line break included. So a paragraph measures the same in a
// quote or list item as in its content alone, which a stream follows in
// a Stream of its own (open_quote.go, open_item.go), and a top-level
// paragraph's content is its lines.
const (
	maxInline     = 16 << 10
	maxInlineLine = 8 << 10
)

var kindPlain = ast.NewNodeKind("Plain")

// plainBlock is a paragraph over the inline budget: its lines are raw.
type plainBlock struct{ ast.BaseBlock }

func (n *plainBlock) Kind() ast.NodeKind { return kindPlain }

func (n *plainBlock) IsRaw() bool { return true }

func (n *plainBlock) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// budget replaces a paragraph over the inline budget by a plainBlock.
// With lines set it checks the line budget, and runs before goldmark
// makes tables of paragraphs; otherwise the size budget, after.
type budget struct{ lines bool }

func (b budget) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	if node.Parent() == nil {
		return
	}
	if !overBudget(src, node.Lines(), b.lines) {
		if c, ok := pc.(*refContext); ok && !b.lines {
			c.para = measurePara(src, node.Lines())
		}
		return
	}
	pb := &plainBlock{}
	pb.SetLines(node.Lines())
	pb.SetBlankPreviousLines(node.HasBlankPreviousLines())
	pb.SetPos(node.Pos())
	node.Parent().ReplaceChild(node.Parent(), node, pb)
}

func overBudget(src []byte, lines *text.Segments, perLine bool) bool {
	total := 0
	for i := range lines.Len() {
		// Before Close trims them (this runs before), goldmark's
		// paragraph segments are its content lines as described above.
		seg := lines.At(i)
		n := seg.Stop - seg.Start
		if perLine && n > maxInlineLine {
			return true
		}
		total += n
	}
	return !perLine && total > maxInline
}

// paraMeasure is a paragraph within the inline budgets as budget
// measured it, before goldmark trimmed its lines: a stream that goes on
// with its last line (open_list.go) keeps measuring it the same way.
type paraMeasure struct {
	line      int // where its first line starts
	lines     int // how many lines it has
	before    int // content bytes of the lines before its last
	lastStart int // where its last line's content starts
}

func measurePara(src []byte, lines *text.Segments) paraMeasure {
	n := lines.Len()
	if n == 0 {
		return paraMeasure{}
	}
	m := paraMeasure{line: lineStart(src, lines.At(0).Start), lines: n, lastStart: lines.At(n - 1).Start}
	for i := range n - 1 {
		seg := lines.At(i)
		m.before += seg.Stop - seg.Start
	}
	return m
}

// plainText is how a plainBlock's source shows: its lines without their
// leading and trailing blanks, joined by a space, as goldmark joins a
// paragraph's. cut is where the last word after a blank starts (text
// offset in the result, source offset in b), or zero.
func plainText(b []byte) (out []byte, cut windowCut) {
	return appendPlainText(make([]byte, 0, len(b)), b)
}

// appendPlainText is plainText writing into the storage of out, which
// must be empty.
func appendPlainText(out, b []byte) ([]byte, windowCut) {
	out, cut, _ := joinLines(out, b, false)
	return out, cut
}

// joinLines is plainText writing into the storage of out, which must be
// empty. With hardBreaks set it stops, reporting false, at a line that
// ends in two blanks (a hard line break in a paragraph).
func joinLines(out, b []byte, hardBreaks bool) ([]byte, windowCut, bool) {
	var cut windowCut
	for p := 0; p < len(b); {
		e := len(b)
		nl := bytes.IndexByte(b[p:], '\n')
		if nl >= 0 {
			e = p + nl
		}
		for p < e && (b[p] == ' ' || b[p] == '\t') {
			p++
		}
		end := e
		for end > p && (b[end-1] == ' ' || b[end-1] == '\t' || b[end-1] == '\r') {
			end--
		}
		if hardBreaks && nl >= 0 && e-end > 1 {
			return out, cut, false
		}
		if p < end {
			// The line's text goes in whole, tabs as spaces, after a
			// space when text came before it; it starts and ends with a
			// character that is not a blank.
			if len(out) > 0 {
				out = append(out, ' ')
			}
			at := len(out)
			out = append(out, b[p:end]...)
			line := out[at:]
			if bytes.IndexByte(line, '\t') >= 0 {
				for k, c := range line {
					if c == '\t' {
						line[k] = ' '
					}
				}
			}
			// The last word start: after a space in the line, else the
			// line's first character, after the space that joined it.
			k := len(line) - 1
			for k > 0 && (line[k] == ' ' || line[k-1] != ' ') {
				k--
			}
			if k > 0 || at > 0 {
				cut = windowCut{at + k, p + k}
			}
		}
		if nl < 0 {
			break
		}
		p = e + 1
	}
	return out, cut, true
}

// plainLines lays a plainBlock out.
func (r *renderer) plainLines(n *plainBlock, width int) []render.Line {
	text := r.plainSource(n)
	out, _ := plainText(text)
	if len(out) == 0 {
		return nil
	}
	return wrapLines([]piece{{text: cleanText(string(out)), style: r.theme.Text}}, width)
}

// plainSource is the source of a plainBlock's lines, newlines included.
func (r *renderer) plainSource(n ast.Node) []byte {
	lines := n.Lines()
	var b []byte
	for i := range lines.Len() {
		seg := lines.At(i)
		b = append(b, r.src[seg.Start:seg.Stop]...)
		if len(b) > 0 && b[len(b)-1] != '\n' && i+1 < lines.Len() {
			b = append(b, '\n')
		}
	}
	return b
}

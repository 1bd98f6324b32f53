package scrollback

import (
	"strings"
	"unicode"

	"github.com/quire-sh/quire/render"
)

// CopyBlock is the text to put on the clipboard for a block: its source
// as it arrived (the markdown of an answer, the words of a prompt, a
// tool's output or the diff of an edit).
func (t *Transcript) CopyBlock(id ID) (string, bool) {
	b := t.Block(id)
	if b == nil {
		return "", false
	}
	return b.Source(), true
}

// Point is a cell of the transcript at the current width: a transcript
// line (0-based, counting from the top of the transcript) and a column.
type Point struct{ Line, Col int }

// PointAt converts a screen cell of the last frame to a transcript point.
// Rows under the pinned prompt map to the prompt's own lines.
func (t *Transcript) PointAt(row, col int) Point {
	top := t.top()
	if rows, clip := t.stickyAt(top); row < rows {
		k := t.blocks[min(t.lay.Find(top), len(t.blocks)-1)].turn
		p := t.index[t.turns[k].prompt]
		return Point{Line: t.lay.Top(p) + blockMargin + clip + row, Col: col}
	}
	return Point{Line: top + row, Col: col}
}

// SelectionText is the text of the selection from a up to b (b's column
// excluded; order does not matter). Gutters and markers the transcript
// draws are left out; prose that was wrapped to fit the screen is joined
// back into one line, while code and tool output keep their lines and
// indentation.
func (t *Transcript) SelectionText(a, b Point) string {
	if b.Line < a.Line || b.Line == a.Line && b.Col < a.Col {
		a, b = b, a
	}
	var out []byte
	var line render.Line
	prevWidth, prevKind := -1, lineDecor
	first := true
	for y := max(a.Line, 0); y <= b.Line; y++ {
		i := t.lay.Find(y)
		if i >= len(t.blocks) {
			break
		}
		v := t.peek(i)
		ly := y - t.lay.Top(i)
		if ly >= v.height() {
			continue
		}
		v.line(ly, &line)
		text := line.Text()
		kind, join := v.kindOf(ly)
		startCol := v.gutterWidth(ly)
		if y == a.Line {
			startCol = max(startCol, a.Col)
		}
		endByte := len(text)
		if y == b.Line {
			endByte = columnToByte(text, b.Col)
		}
		startByte := min(columnToByte(text, startCol), endByte)
		piece := text[startByte:endByte]

		if kind == lineProse && v.joiner == nil && join == JoinNewline && prevKind == lineProse && ly > len(v.head) {
			join = guessJoin(prevWidth, strings.TrimRightFunc(piece, unicode.IsSpace), v.width-v.gutterWidth(ly))
		}
		// Trailing blanks go only where a line really ends: a line
		// broken inside code keeps the space it broke at.
		if !first {
			switch join {
			case JoinSpace:
				out = append(trimEnd(out), ' ')
			case JoinNone:
			default:
				out = append(trimEnd(out), '\n')
			}
		}
		first = false
		out = append(out, piece...)
		prevWidth, prevKind = render.StringWidth(text[min(columnToByte(text, v.gutterWidth(ly)), len(text)):]), kind
	}
	return string(trimEnd(out))
}

// trimEnd drops the blanks at the end of the last line.
func trimEnd(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// guessJoin decides, for renderers that do not report their wraps,
// whether a prose line continues the previous one: it does when its first
// word would not have fitted at the end of the previous line, which is
// exactly when a greedy wrap would have moved it down. Indented lines
// and list items start lines of their own.
func guessJoin(prevWidth int, line string, width int) Join {
	if prevWidth <= 0 || line == "" || line[0] == ' ' || line[0] == '\t' {
		return JoinNewline
	}
	word := line
	if i := strings.IndexByte(line, ' '); i >= 0 {
		word = line[:i]
	}
	switch word {
	case "-", "*", "+", "•", "◦", "▪", ">", "│":
		return JoinNewline
	}
	if prevWidth+1+render.StringWidth(word) > width {
		return JoinSpace
	}
	return JoinNewline
}

package scrollback

import "github.com/quire-sh/quire/render"

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
// draws are left out, and so is the decoration the body renderer
// reports (render.Copy): a code frame copies as its fences, a quote's bar
// as "> ", and lines wrapped to fit the screen are joined back into the
// line they were cut from, while code and tool output keep their lines
// and indentation. A line the selection starts inside copies from the
// selected column as drawn.
func (t *Transcript) SelectionText(a, b Point) string {
	if b.Line < a.Line || b.Line == a.Line && b.Col < a.Col {
		a, b = b, a
	}
	var out []byte
	var line render.Line
	first := true
	// A block off screen is laid out afresh by each peek; lay it out once
	// for all its lines.
	var v *blockView
	vi := -1
	for y := max(a.Line, 0); y <= b.Line; y++ {
		i := t.lay.Find(y)
		if i >= len(t.blocks) {
			break
		}
		if i != vi {
			v, vi = t.peek(i), i
		}
		ly := y - t.lay.Top(i)
		if ly >= v.height() {
			continue
		}
		v.line(ly, &line)
		text := line.Text()
		cp := v.copyOf(ly)
		gutter, width := v.gutterWidth(ly), render.StringWidth(text)
		content := gutter + cp.Skip // where the line's text begins
		lead := cp.Lead
		startCol := content
		if y == a.Line && a.Col > content {
			startCol, lead = a.Col, ""
		}
		endCol := width
		if y == b.Line {
			endCol = min(endCol, b.Col)
		}
		piece := lead
		switch {
		case endCol > startCol:
			piece += text[columnToByte(text, startCol):columnToByte(text, endCol)]
		case content >= width && endCol > gutter:
			// A line of decoration only (a fence) counts as soon as any
			// of it is selected.
		default:
			piece = ""
		}
		// Trailing blanks go only where a line really ends: a line
		// broken inside code keeps the space it broke at.
		if !first {
			switch cp.Join {
			case render.JoinSpace:
				out = append(trimEnd(out), ' ')
			case render.JoinNone:
			default:
				out = append(trimEnd(out), '\n')
			}
		}
		first = false
		out = append(out, piece...)
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

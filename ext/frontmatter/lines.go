package frontmatter

import "strings"

// fileLines maps the decoder's lines of the frontmatter to the file's.
// The decoder is given the opening fence's line as a blank one, so its
// line 1 is the file's line 1; but it also ends a line at a "\r" alone
// and at U+0085, U+2028 and U+2029, where the file's lines, as an editor
// numbers them, end only at "\n".
type fileLines struct {
	front []byte
	// starts holds the byte of front where each of the decoder's lines
	// from its line 2 starts, and file that line's number in the file.
	starts, file []int
}

func newFileLines(front []byte) *fileLines {
	m := &fileLines{front: front, starts: []int{0}, file: []int{2}}
	line := 2
	for i := 0; i < len(front); {
		n := lineBreak(front[i:])
		if n == 0 {
			i++
			continue
		}
		if front[i+n-1] == '\n' {
			line++
		}
		i += n
		m.starts = append(m.starts, i)
		m.file = append(m.file, line)
	}
	return m
}

// lineBreak is the length of the line break b starts with, or 0.
func lineBreak(b []byte) int {
	switch {
	case len(b) >= 2 && b[0] == '\r' && b[1] == '\n':
		return 2
	case b[0] == '\r' || b[0] == '\n':
		return 1
	case len(b) >= 2 && b[0] == 0xC2 && b[1] == 0x85:
		return 2
	case len(b) >= 3 && b[0] == 0xE2 && b[1] == 0x80 && (b[2] == 0xA8 || b[2] == 0xA9):
		return 3
	}
	return 0
}

// line is the file's line of the decoder's line n.
func (m *fileLines) line(n int) int {
	switch i := n - 2; {
	case i < 0:
		return 1
	case i >= len(m.starts):
		return m.file[len(m.file)-1] + i - (len(m.starts) - 1)
	default:
		return m.file[i]
	}
}

// offset is the byte of the frontmatter the decoder's line n starts at,
// or -1 when that is not one of its lines.
func (m *fileLines) offset(n int) int {
	if i := n - 2; i >= 0 && i < len(m.starts) {
		return m.starts[i]
	}
	return -1
}

// text is the decoder's line n, trimmed.
func (m *fileLines) text(n int) string {
	off := m.offset(n)
	if off < 0 {
		return ""
	}
	rest := m.front[off:]
	end := 0
	for end < len(rest) && lineBreak(rest[end:]) == 0 {
		end++
	}
	return strings.TrimSpace(string(rest[:end]))
}

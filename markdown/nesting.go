package markdown

// maxMarkers is how many container markers (quote '>' or list markers)
// one line may open before the rest of the line is cut off as text.
// goldmark re-examines the rest of the line at each level, so a line of
// thousands of markers would cost time quadratic in its length; the
// layout flattens anything past maxDepth anyway.
const maxMarkers = 64

// maxIndent is the column from which a list marker or quote marker no
// longer opens a container: nesting that deep can only come from lines
// indented ever further, and goldmark walks every open container's
// indentation on every line, so lists indented a thousand levels deep
// would cost time cubic in their depth.
const maxIndent = 128

// capNesting returns buf with the marker that would open the
// (maxMarkers+1)-th container on a line, or a marker at column maxIndent
// or beyond, replaced by a NUL byte, which shows as a visible ␀ where the
// nesting was cut and makes the rest of the line plain text. It is a per-line rewrite that keeps every byte offset,
// so a stream (which parses line-aligned tails) and a one-shot render see
// the same text. buf is returned as is when no line needs it.
func capNesting(buf []byte) []byte {
	out := buf
	for start := 0; start < len(buf); {
		end := start
		for end < len(buf) && buf[end] != '\n' {
			end++
		}
		if at := overNested(buf[start:end]); at >= 0 {
			if &out[0] == &buf[0] {
				out = append([]byte(nil), buf...)
			}
			out[start+at] = 0
		}
		start = end + 1
	}
	return out
}

// overNested returns the offset of the marker opening container
// maxMarkers+1 on line, or of a marker at column maxIndent or beyond, or
// -1.
func overNested(line []byte) int {
	col, i := 0, 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') && col < maxIndent {
		if line[i] == '\t' {
			col += 4 - col%4
		} else {
			col++
		}
		i++
	}
	if col >= maxIndent {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i < len(line) && opensContainer(line[i:]) {
			return i
		}
		return -1
	}
	if len(line) < 2*maxMarkers {
		return -1
	}
	i, n := 0, 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) {
			return -1
		}
		m := i
		switch c := line[i]; {
		case c == '>':
			i++
		case c == '-' || c == '+' || c == '*':
			i++
			if i < len(line) && line[i] != ' ' && line[i] != '\t' {
				return -1
			}
		case c >= '0' && c <= '9':
			for i < len(line) && i-m < 9 && line[i] >= '0' && line[i] <= '9' {
				i++
			}
			if i >= len(line) || (line[i] != '.' && line[i] != ')') {
				return -1
			}
			i++
			if i < len(line) && line[i] != ' ' && line[i] != '\t' {
				return -1
			}
		default:
			return -1
		}
		n++
		if n > maxMarkers {
			return m
		}
	}
	return -1
}

// opensContainer reports whether s starts with a quote marker or a list
// item marker.
func opensContainer(s []byte) bool {
	spaceOrEnd := func(j int) bool { return j >= len(s) || s[j] == ' ' || s[j] == '\t' }
	switch c := s[0]; {
	case c == '>':
		return true
	case c == '-' || c == '+' || c == '*':
		return spaceOrEnd(1)
	case c >= '0' && c <= '9':
		j := 0
		for j < len(s) && j < 10 && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j <= 9 && j < len(s) && (s[j] == '.' || s[j] == ')') && spaceOrEnd(j+1)
	}
	return false
}

package patch

import "strings"

// Seek finds pattern as consecutive lines of lines at or after start and
// returns the index of its first line, or -1; an empty pattern is found at
// start. It tries five levels of leniency in order: exact, ignoring
// trailing whitespace, ignoring surrounding whitespace, additionally
// mapping typographic look-alikes (dashes, curly quotes, special spaces)
// to ASCII, and additionally treating any run of whitespace inside a line
// as one space (alignment that drifted). Each level scans the whole range
// before the next is tried, so a lenient match can never win over a
// stricter one. With eof, the match must end at the last line, or be
// followed only by blank lines.
func Seek(lines, pattern []string, start int, eof bool) int {
	return newMatcher(lines).seek(pattern, start, eof)
}

// levels are the normalisations Seek compares lines under, strictest
// first.
var levels = []func(string) string{
	func(s string) string { return s },
	func(s string) string { return strings.TrimRight(s, " \t\r\f\v") },
	strings.TrimSpace,
	func(s string) string { return Normalize(strings.TrimSpace(s)) },
	func(s string) string { return strings.Join(strings.Fields(Normalize(s)), " ") },
}

// matcher searches one file's lines, normalising them once per level
// however many chunks are looked for.
type matcher struct {
	lines []string
	norm  [][]string // per level, filled when first needed
}

func newMatcher(lines []string) *matcher {
	return &matcher{lines: lines, norm: make([][]string, len(levels))}
}

func (m *matcher) level(l int) []string {
	if l == 0 {
		return m.lines
	}
	if m.norm[l] == nil {
		n := make([]string, len(m.lines))
		for i, s := range m.lines {
			n[i] = levels[l](s)
		}
		m.norm[l] = n
	}
	return m.norm[l]
}

func (m *matcher) seek(pattern []string, start int, eof bool) int {
	if len(pattern) == 0 {
		return start
	}
	if len(pattern) > len(m.lines) || start < 0 {
		return -1
	}
	if !eof {
		return m.seekIn(pattern, start, len(m.lines))
	}
	for end := len(m.lines); end-len(pattern) >= start; end-- {
		if i := m.seekIn(pattern, end-len(pattern), end); i >= 0 {
			return i
		}
		if !blank(m.lines[end-1]) {
			break
		}
	}
	return -1
}

// seekIn finds pattern starting at or after start and ending at or before
// end, trying each level over the whole range before the next.
func (m *matcher) seekIn(pattern []string, start, end int) int {
	want := make([]string, len(pattern))
	for l, norm := range levels {
		for i, p := range pattern {
			want[i] = norm(p)
		}
		lines := m.level(l)[:end]
	scan:
		for i := start; i+len(want) <= len(lines); i++ {
			for j, w := range want {
				if lines[i+j] != w {
					continue scan
				}
			}
			return i
		}
	}
	return -1
}

// Normalize maps typographic look-alikes to ASCII: U+2010–2015 and U+2212
// to a hyphen-minus, U+2018–201B to an apostrophe, U+201C–201F to a double
// quote, and U+00A0, U+2002–200A, U+202F, U+205F and U+3000 to a space.
func Normalize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 0x2010 && r <= 0x2015, r == 0x2212:
			return '-'
		case r >= 0x2018 && r <= 0x201B:
			return '\''
		case r >= 0x201C && r <= 0x201F:
			return '"'
		case r == 0x00A0, r >= 0x2002 && r <= 0x200A, r == 0x202F, r == 0x205F, r == 0x3000:
			return ' '
		}
		return r
	}, s)
}

package patch

import "strings"

// Seek finds pattern as consecutive lines of lines at or after start and
// returns the index of its first line, or -1. It tries four levels of
// leniency in order: exact, ignoring trailing whitespace, ignoring
// surrounding whitespace, and additionally mapping typographic look-alikes
// (dashes, curly quotes, special spaces) to ASCII. Each level scans the
// whole range before the next is tried, so a lenient match can never win
// over an exact one. With eof, a match ending at the last line is tried
// first.
func Seek(lines, pattern []string, start int, eof bool) int {
	if len(pattern) == 0 {
		return start
	}
	if len(pattern) > len(lines) || start < 0 {
		return -1
	}
	if eof {
		if end := len(lines) - len(pattern); end >= start {
			if i := seekFrom(lines, pattern, end); i >= 0 {
				return i
			}
		}
	}
	return seekFrom(lines, pattern, start)
}

var levels = []func(string) string{
	func(s string) string { return s },
	func(s string) string { return strings.TrimRight(s, " \t\r\f\v") },
	strings.TrimSpace,
	func(s string) string { return Normalize(strings.TrimSpace(s)) },
}

func seekFrom(lines, pattern []string, start int) int {
	for _, norm := range levels {
		want := make([]string, len(pattern))
		for i, p := range pattern {
			want[i] = norm(p)
		}
	scan:
		for i := start; i+len(pattern) <= len(lines); i++ {
			for j, w := range want {
				if norm(lines[i+j]) != w {
					continue scan
				}
			}
			return i
		}
	}
	return -1
}

// Normalize maps typographic look-alikes to ASCII: U+2010–2015 and U+2212
// to '-', U+2018–201B to '\”, U+201C–201F to '"', and U+00A0,
// U+2002–200A, U+202F, U+205F and U+3000 to ' '.
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

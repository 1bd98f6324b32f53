package markdown

import "github.com/rivo/uniseg"

// nextLineSegment returns the length of the first line segment of b
// (UAX #14) and the segmenter's state after it, as
// uniseg.FirstLineSegment does. Prose is mostly words of ASCII letters
// and digits, perhaps closed by punctuation, then spaces, then another
// such word: for that shape the break is after the spaces whatever came
// before (LB18; LB14–LB17 need an opening bracket, a quote or a
// nonstarter around the spaces, which the shape excludes), and the
// segmenter's state after it depends only on the class of the next
// word's first character (a letter or one of the symbols Unicode counts
// with letters, or a digit). That case is answered without the general state machine,
// which costs most of a streamed paragraph's layout.
func nextLineSegment(b []byte, state int) (n, newState int) {
	if n, next := plainWordSegment(b); n > 0 {
		switch {
		case n == len(b):
			return n, atEnd
		case isDigit(next):
			return n, afterSpaceDigit
		}
		return n, afterSpaceLetter
	}
	seg, _, _, newState := uniseg.FirstLineSegment(b, state)
	return len(seg), newState
}

// afterSpaceLetter and afterSpaceDigit are the segmenter's states after
// a break before a letter or a digit that follows a space (the shape
// plainWordSegment matches), and atEnd after the end of the text, asked
// of uniseg itself.
var afterSpaceLetter, afterSpaceDigit, atEnd = stateAfter("a a"), stateAfter("a 1"), stateAfter("a")

func stateAfter(s string) int {
	_, _, _, st := uniseg.FirstLineSegment([]byte(s), -1)
	return st
}

// plainWordSegment matches b against word, closing punctuation, spaces,
// then the first character of another word: it returns the length up to
// that character and the character, or 0 when b has another shape. A
// word, its punctuation and spaces that end b are all of b (n == len(b)):
// the text's end is a break.
func plainWordSegment(b []byte) (n int, next byte) {
	i := 0
	for i < len(b) && isWordChar(b[i]) {
		i++
	}
	if i == 0 {
		return 0, 0
	}
	for i < len(b) && isClosingPunct(b[i]) {
		i++
	}
	sp := i
	for i < len(b) && b[i] == ' ' {
		i++
	}
	if i == len(b) {
		return i, 0
	}
	if i == sp || !isWordChar(b[i]) {
		return 0, 0
	}
	return i, b[i]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isWordChar reports whether c is an ASCII character of line-breaking
// class AL (letters, and the symbols # & * < = > @ ^ _ ` ~) or NU
// (digits): no break falls between two of them.
func isWordChar(c byte) bool {
	switch {
	case isDigit(c), c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		return true
	}
	switch c {
	case '#', '&', '*', '<', '=', '>', '@', '^', '_', '`', '~':
		return true
	}
	return false
}

// isClosingPunct reports whether c is ASCII punctuation that never has a
// break before it (LB13: closing brackets, '!', '?', infix separators
// and '/'), so a word it follows stays one segment up to the spaces.
func isClosingPunct(c byte) bool {
	switch c {
	case ')', ']', '}', '!', '?', ',', '.', ':', ';', '/':
		return true
	}
	return false
}

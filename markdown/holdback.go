package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// ShownPrefix returns the part of a growing document that a Stream
// renders before Finish: src without an ambiguous suffix that the next
// chunk may change the meaning of. What is held back:
//
//   - a trailing run of backticks, tildes or backslashes (an inline code
//     span or a fence of still unknown length; an escape or a math
//     delimiter whose second character has not arrived);
//   - an unfinished last line made of one of '-', '=', '*' and '_' only
//     (after at most three spaces, with spaces or tabs between): a rule or
//     a heading underline in the making, or the marker of a list item or
//     emphasis whose next character decides what it is; likewise one that
//     is an ordered list marker so far ("12", "12.", "12. ");
//   - an unfinished last word (up to maxHeldWord bytes after the last
//     space) that starts with a markup character (one of ` * _ ~ [ ( < !
//     & \): it is shown once a space or line break ends it, so that a
//     link, code span or emphasis appears whole instead of flickering
//     through its partial forms;
//   - a half-received table header: a line starting with '|' that opens a
//     paragraph (it follows a blank line or starts the text), while the
//     line after it has not arrived or is an unfinished delimiter row;
//   - then, if what remains ends inside an open top-level code fence, the
//     unfinished last line of code: code appears a line at a time, so a
//     half-typed token is never highlighted as something it is not yet
//     (and a stream never re-tokenises a line before it is complete);
//     likewise the unfinished last line of a top-level indented code
//     block, when it is not blank and not the block's first line;
//   - likewise the unfinished last row of a top-level table (a line
//     starting with '|' after the delimiter row), so columns are not
//     re-measured while a row is half there.
//
// Before Finish, Stream.Lines() == Render(ShownPrefix(text so far)),
// except as doc.go's freezing rule allows.
func ShownPrefix(src string) string {
	b := []byte(src)
	var ll lastLines
	ll.feed(b)
	n := shownLen(b, &ll)
	buf := capNesting(b[:n:n])
	doc, _ := parseDoc(newParser(), buf, nil)
	switch last := doc.LastChild().(type) {
	case *ast.FencedCodeBlock:
		t := tailRender{buf: buf}
		if t.partialCodeLine(last) {
			n = lineStart(b, n)
		}
	case *ast.CodeBlock:
		if p := heldCodeLine(buf, last); p >= 0 {
			n = p
		}
	case *east.Table:
		if p := partialRow(buf, last); p >= 0 {
			n = p
		}
	}
	return src[:n]
}

// lastLines follows a growing text's last lines: where the last three
// start, and whether the last one is a marker run so far (see
// ShownPrefix), so that hold-back looks at a bounded part of the text
// however long its lines are.
type lastLines struct {
	n      int    // bytes fed
	starts [3]int // start of the last line, of the one before, and before that (-1: none)
	spaces int    // leading spaces of the last line
	marker byte   // the marker character it repeats, 0 before one, 1 when it is no marker run
	// ordinal follows whether the last line is an ordered list marker
	// in the making ("12", "12.", "12. "): 0 before its digits, 1 in
	// them, 2 after its delimiter, 3 when it is no such thing; digits
	// counts them.
	ordinal, digits int
	init            bool
}

// feed takes in the bytes of src after those fed before.
func (l *lastLines) feed(src []byte) {
	if !l.init {
		l.starts = [3]int{0, -1, -1}
		l.init = true
	}
	for i := l.n; i < len(src); i++ {
		l.ordinalFeed(src[i])
		switch c := src[i]; {
		case c == '\n':
			l.starts = [3]int{i + 1, l.starts[0], l.starts[1]}
			l.spaces, l.marker = 0, 0
			l.ordinal, l.digits = 0, 0
		case l.marker == 1:
		case c == ' ' && l.marker == 0 && l.spaces < 4:
			l.spaces++
		case c == ' ' || c == '\t':
			if l.marker == 0 {
				l.marker = 1 // indented, or a tab before any marker
			}
		case (c == '-' || c == '=' || c == '*' || c == '_') && l.spaces < 4 && (l.marker == 0 || l.marker == c):
			l.marker = c
		default:
			l.marker = 1
		}
	}
	l.n = len(src)
}

// ordinalFeed advances the ordinal state by one byte of the last line.
func (l *lastLines) ordinalFeed(c byte) {
	switch {
	case c == '\n' || l.ordinal == 3:
	case c >= '0' && c <= '9' && l.ordinal <= 1 && l.digits < 9:
		l.ordinal, l.digits = 1, l.digits+1
	case c == ' ' && (l.ordinal == 0 && l.spaces < 3 || l.ordinal == 2):
	case (c == '.' || c == ')') && l.ordinal == 1:
		l.ordinal = 2
	default:
		l.ordinal = 3
	}
}

// shownLen is len(ShownPrefix(src)) before the fence and table-row
// checks; it looks only at the last lines. ll has been fed src.
func shownLen(src []byte, ll *lastLines) int {
	cur := ll.starts[0] // start of the last line
	if cur < len(src) && (ll.marker > 1 || ll.ordinal == 1 || ll.ordinal == 2) {
		return cur // a marker run, or an ordered list marker, in the making
	}
	n := len(src)
	for n > cur && (src[n-1] == '`' || src[n-1] == '~' || src[n-1] == '\\') {
		n--
	}
	n = heldWord(src, cur, n)
	if cur < n {
		if headerCandidate(src, cur, ll.starts[1]) {
			return cur
		}
		if prev := ll.starts[1]; prev >= 0 && headerCandidate(src, prev, ll.starts[2]) && delimiterCandidate(src[cur:n]) {
			return prev
		}
		return n
	}
	// The text ends with a newline: a header with no delimiter row yet.
	if prev := ll.starts[1]; prev >= 0 && headerCandidate(src, prev, ll.starts[2]) {
		return prev
	}
	return n
}

// maxHeldWord bounds the unfinished word hold-back holds back: a longer
// "word" (a URL, a run of symbols) shows as it grows.
const maxHeldWord = 64

// heldWord returns where the unfinished last word of src[:n] starts when
// it starts with a markup character (see ShownPrefix), else n; cur is
// where the last line starts. Only the first character counts, so that
// a word, once shown, never goes back into hiding as it grows.
func heldWord(src []byte, cur, n int) int {
	w := n
	for w > cur && n-w <= maxHeldWord && src[w-1] != ' ' && src[w-1] != '\t' {
		w--
	}
	if w == n || n-w > maxHeldWord {
		return n
	}
	switch src[w] {
	case '`', '*', '_', '~', '[', '(', '<', '!', '&', '\\':
		return w
	}
	return n
}

// headerCandidate reports whether the line at p starts with '|' (after at
// most three spaces) and opens a paragraph: it starts the text or the
// line before it, starting at prev, is blank.
func headerCandidate(src []byte, p, prev int) bool {
	t := bytes.TrimLeft(src[p:], " ")
	if len(src)-p-len(t) > 3 || len(t) == 0 || t[0] != '|' {
		return false
	}
	if p == 0 {
		return true
	}
	return prev >= 0 && len(bytes.TrimSpace(src[prev:p])) == 0
}

// delimiterCandidate reports whether an unfinished line could still grow
// into a table delimiter row.
func delimiterCandidate(s []byte) bool {
	if len(bytes.TrimSpace(s)) == 0 {
		return false
	}
	return len(bytes.Trim(s, "|-: \t")) == 0
}

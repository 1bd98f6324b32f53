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
//   - a half-received table header: a line starting with '|' that opens a
//     paragraph (it follows a blank line or starts the text), while the
//     line after it has not arrived or is an unfinished delimiter row;
//   - then, if what remains ends inside an open top-level code fence, the
//     unfinished last line of code: code appears a line at a time, so a
//     half-typed token is never highlighted as something it is not yet
//     (and a stream never re-tokenises a line before it is complete);
//   - likewise the unfinished last row of a top-level table (a line
//     starting with '|' that already holds cell text), so columns are not
//     re-measured while a row is half there.
//
// Before Finish, Stream.Lines() == Render(ShownPrefix(text so far)).
func ShownPrefix(src string) string {
	b := []byte(src)
	n := shownLen(b)
	buf := capNesting(b[:n:n])
	doc, _ := parseDoc(newParser(), buf, nil)
	switch last := doc.LastChild().(type) {
	case *ast.FencedCodeBlock:
		t := tailRender{buf: buf}
		if t.partialCodeLine(last) {
			n = lineStart(b, n)
		}
	case *east.Table:
		if p := partialRow(buf, last); p >= 0 {
			n = p
		}
	}
	return src[:n]
}

// shownLen is len(ShownPrefix(src)); it looks only at the last lines.
func shownLen(src []byte) int {
	n := len(src)
	for n > 0 && (src[n-1] == '`' || src[n-1] == '~' || src[n-1] == '\\') {
		n--
	}
	cur := bytes.LastIndexByte(src[:n], '\n') + 1 // start of the last line
	if cur < n {
		if headerCandidate(src, cur) {
			return cur
		}
		if prev, ok := prevLine(src, cur); ok && delimiterCandidate(src[cur:n]) && headerCandidate(src, prev) {
			return prev
		}
		return n
	}
	// The text ends with a newline: a header with no delimiter row yet.
	if prev, ok := prevLine(src, cur); ok && headerCandidate(src, prev) {
		return prev
	}
	return n
}

// prevLine returns the start of the line before the one starting at p.
func prevLine(src []byte, p int) (int, bool) {
	if p == 0 {
		return 0, false
	}
	return bytes.LastIndexByte(src[:p-1], '\n') + 1, true
}

// headerCandidate reports whether the line at p starts with '|' (after at
// most three spaces) and opens a paragraph.
func headerCandidate(src []byte, p int) bool {
	line := src[p:]
	if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	t := bytes.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) == 0 || t[0] != '|' {
		return false
	}
	if p == 0 {
		return true
	}
	q, _ := prevLine(src, p)
	return len(bytes.TrimSpace(src[q:p])) == 0
}

// delimiterCandidate reports whether an unfinished line could still grow
// into a table delimiter row.
func delimiterCandidate(s []byte) bool {
	if len(bytes.TrimSpace(s)) == 0 {
		return false
	}
	return len(bytes.Trim(s, "|-: \t")) == 0
}

package app

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Editor is the prompt's text and cursor: a multi-line buffer edited with
// readline keys. It is pure state (no terminal), so every key binding is a
// unit-testable method. The cursor is a byte offset into text that always
// sits on a grapheme-cluster boundary.
type Editor struct {
	text   string
	cursor int
	// killed is the readline kill ring of depth one (Ctrl+K/U/W, Alt+D),
	// yanked back by Ctrl+Y.
	killed string
}

// Text returns the buffer.
func (e *Editor) Text() string { return e.text }

// Cursor returns the cursor's byte offset.
func (e *Editor) Cursor() int { return e.cursor }

// Empty reports whether the buffer holds nothing.
func (e *Editor) Empty() bool { return e.text == "" }

// SetText replaces the buffer and puts the cursor at its end.
func (e *Editor) SetText(s string) {
	e.text = s
	e.cursor = len(s)
}

// Clear empties the buffer.
func (e *Editor) Clear() { e.SetText("") }

// Insert puts s at the cursor.
func (e *Editor) Insert(s string) {
	e.text = e.text[:e.cursor] + s + e.text[e.cursor:]
	e.cursor += len(s)
}

// Backspace deletes the grapheme before the cursor.
func (e *Editor) Backspace() {
	p := prevBoundary(e.text, e.cursor)
	e.text = e.text[:p] + e.text[e.cursor:]
	e.cursor = p
}

// Delete deletes the grapheme under the cursor (Ctrl+D on a non-empty line).
func (e *Editor) Delete() {
	n := nextBoundary(e.text, e.cursor)
	e.text = e.text[:e.cursor] + e.text[n:]
}

// Left moves one grapheme back.
func (e *Editor) Left() { e.cursor = prevBoundary(e.text, e.cursor) }

// Right moves one grapheme forward.
func (e *Editor) Right() { e.cursor = nextBoundary(e.text, e.cursor) }

// Home moves to the start of the current line (Ctrl+A).
func (e *Editor) Home() { e.cursor = lineStart(e.text, e.cursor) }

// End moves to the end of the current line (Ctrl+E).
func (e *Editor) End() { e.cursor = lineEnd(e.text, e.cursor) }

// WordLeft moves to the start of the previous word (Alt+B).
func (e *Editor) WordLeft() { e.cursor = wordStartBefore(e.text, e.cursor) }

// WordRight moves past the end of the next word (Alt+F).
func (e *Editor) WordRight() { e.cursor = wordEndAfter(e.text, e.cursor) }

// KillToEnd cuts from the cursor to the end of the line (Ctrl+K); at the end
// of a line it joins the next line, as readline does.
func (e *Editor) KillToEnd() {
	end := lineEnd(e.text, e.cursor)
	if end == e.cursor && end < len(e.text) {
		end++ // the newline itself
	}
	e.kill(e.cursor, end)
}

// KillToStart cuts from the start of the line to the cursor (Ctrl+U).
func (e *Editor) KillToStart() { e.kill(lineStart(e.text, e.cursor), e.cursor) }

// KillWordBack cuts the word before the cursor (Ctrl+W).
func (e *Editor) KillWordBack() { e.kill(wordStartBefore(e.text, e.cursor), e.cursor) }

// KillWordForward cuts the word after the cursor (Alt+D).
func (e *Editor) KillWordForward() { e.kill(e.cursor, wordEndAfter(e.text, e.cursor)) }

// Yank inserts the last killed text (Ctrl+Y).
func (e *Editor) Yank() { e.Insert(e.killed) }

func (e *Editor) kill(from, to int) {
	if from >= to {
		return
	}
	e.killed = e.text[from:to]
	e.text = e.text[:from] + e.text[to:]
	e.cursor = from
}

// Up moves the cursor to the previous line at the same column (in
// graphemes) and reports false when it is already on the first line, so the
// caller can fall through to history.
func (e *Editor) Up() bool {
	start := lineStart(e.text, e.cursor)
	if start == 0 {
		return false
	}
	col := uniseg.GraphemeClusterCount(e.text[start:e.cursor])
	prevStart := lineStart(e.text, start-1)
	e.cursor = advanceGraphemes(e.text, prevStart, start-1, col)
	return true
}

// Down is Up's mirror: false when on the last line.
func (e *Editor) Down() bool {
	end := lineEnd(e.text, e.cursor)
	if end == len(e.text) {
		return false
	}
	col := uniseg.GraphemeClusterCount(e.text[lineStart(e.text, e.cursor):e.cursor])
	nextStart := end + 1
	e.cursor = advanceGraphemes(e.text, nextStart, lineEnd(e.text, nextStart), col)
	return true
}

// Lines returns the buffer split into lines and the cursor's line and byte
// offset within it.
func (e *Editor) Lines() (lines []string, row, col int) {
	lines = strings.Split(e.text, "\n")
	row = strings.Count(e.text[:e.cursor], "\n")
	col = e.cursor - lineStart(e.text, e.cursor)
	return lines, row, col
}

func lineStart(s string, i int) int {
	return strings.LastIndexByte(s[:i], '\n') + 1
}

func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

func nextBoundary(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	c, _, _, _ := uniseg.FirstGraphemeClusterInString(s[i:], -1)
	return i + len(c)
}

func prevBoundary(s string, i int) int {
	if i <= 0 {
		return 0
	}
	// Walk clusters from the line start: lines are short, and grapheme
	// segmentation cannot run backwards.
	p := lineStart(s, i)
	if p == i { // just after a newline
		return i - 1
	}
	last := p
	for p < i {
		last = p
		p = nextBoundary(s, p)
	}
	return last
}

func advanceGraphemes(s string, from, limit, n int) int {
	for ; n > 0 && from < limit; n-- {
		from = nextBoundary(s, from)
	}
	if from > limit {
		return limit
	}
	return from
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
}

func wordStartBefore(s string, i int) int {
	for i > 0 { // skip separators
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if isWordRune(r) {
			break
		}
		i -= n
	}
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if !isWordRune(r) {
			break
		}
		i -= n
	}
	return i
}

func wordEndAfter(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isWordRune(r) {
			break
		}
		i += n
	}
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			break
		}
		i += n
	}
	return i
}

package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/util"
)

// continueCode takes the common case inside an open top-level indented
// code block whose first lines are frozen (s.state.fence is indented)
// without parsing: when the text since the frozen lines is only complete
// lines indented for code that hold more than white space, and perhaps an
// unfinished last line indented for code, each complete one is a content
// line of the block, its content the line after its indentation (see
// codeIndent). They freeze at once, highlighted from the frozen lexer
// state, and the unfinished one is held back, as the tail render would
// do it (see heldCodeLine), or, blank so far, shows nothing as in
// Render. It reports false for anything else (a blank line, less
// indentation, the end of the text), which the tail render decides.
func (s *Stream) continueCode(shown int) bool {
	f := s.state.fence
	if f == nil || !f.indented || s.finished {
		return false
	}
	tail := s.src[s.base:shown]
	var lines []string
	held, done := -1, 0
	for p := 0; p < len(tail); {
		line := tail[p:]
		nl := bytes.IndexByte(line, '\n')
		if nl >= 0 {
			line = line[:nl+1]
		}
		in := codeIndent(line)
		if in < 0 || nl >= 0 && util.IsBlank(line) {
			return false
		}
		if nl < 0 {
			// Indented for code, the unfinished line is held back
			// whatever comes before its newline: blank so far, it shows
			// nothing either (a blank last line is not the block's).
			held = s.base + p
			break
		}
		lines = append(lines, string(bytes.TrimRight(line[in:], "\r\n")))
		p += len(line)
		done = p
	}
	theme := s.opts.Theme
	r := &renderer{theme: &theme, cwd: s.opts.Cwd, links: s.opts.fileLinks, lexers: s.lexers, depth: s.opts.depth}
	out := r.code(lines, "", "```", true, s.opts.Width, f, len(lines)-1)
	if !out.resumable {
		return false
	}
	s.lines = append(s.lines[:s.frozen], out.lines...)
	if len(lines) > 0 {
		s.frozen = len(s.lines) - 1 // all but the footer
		s.base += done
		s.state.fence = &fenceState{opening: f.opening, lexer: out.lexer, state: out.snap, indented: true}
	}
	s.held = held
	s.open = nil
	s.approx = false
	return true
}

// codeIndent returns where the content of a top-level line of indented
// code starts: after the spaces and tabs that reach column 4 (a tab
// advances to the next multiple of 4, so from the line start it never
// passes column 4 but lands on it, and goldmark leaves no padding), or
// -1 when the line is indented less.
func codeIndent(line []byte) int {
	col := 0
	for i, c := range line {
		if col >= 4 {
			return i
		}
		switch c {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return -1
		}
	}
	if col >= 4 {
		return len(line)
	}
	return -1
}

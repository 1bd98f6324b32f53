package markdown

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/quire-sh/quire/render"
)

// openHTML continues a top-level HTML block line by line. Its lines show
// as the text they are, each on its own (Render draws them so), so a
// complete line is laid out once, for good, and only the unfinished last
// one again on each chunk. A line that may end the block (a blank line
// for the kinds of block that end there, a line holding the closing
// marker for the others) makes the stream lay the tail out whole, which
// then freezes the block as Render draws it; a blank line that ends a
// block of the kinds that end there freezes it as it stands.
type openHTML struct {
	top   int    // index in s.lines of the block's first line
	fixed int    // s.lines[:fixed] stay: the block's complete lines
	next  int    // source offset of the first line not laid out for good
	close string // the marker that ends the block ("": a blank line does)
	fold  bool   // a script, pre, style or textarea block: any of their closing tags ends it, in any case
	width int
	style render.Style
}

func newOpenHTML(s *Stream, t *tailRender, h *ast.HTMLBlock, top int) openBlock {
	if h.HasClosure() || h.Lines().Len() == 0 {
		return nil
	}
	o := &openHTML{top: top, fixed: top, width: s.opts.Width, style: s.opts.Theme.HTML,
		next: absStart(t, lineStart(t.buf, h.Lines().At(0).Start))}
	switch h.HTMLBlockType {
	case ast.HTMLBlockType1:
		// Any of the four closing tags ends it, whichever tag opened it.
		o.close, o.fold = "</script>", true
	case ast.HTMLBlockType2:
		o.close = "-->"
	case ast.HTMLBlockType3:
		o.close = "?>"
	case ast.HTMLBlockType4:
		o.close = ">"
	case ast.HTMLBlockType5:
		o.close = "]]>"
	}
	s.lines = s.lines[:top]
	if !o.extend(s, s.shown) {
		return nil
	}
	return o
}

func (o *openHTML) extend(s *Stream, shown int) bool {
	s.lines = s.lines[:o.fixed]
	for {
		nl := bytes.IndexByte(s.src[o.next:shown], '\n')
		if nl < 0 {
			break
		}
		line := s.src[o.next : o.next+nl]
		if o.ends(line, true) {
			if o.close == "" {
				// A blank line ends the block, and its lines are already
				// Render's: freeze them with it rather than have the
				// stream lay the whole block out again to find that out.
				s.freezeOpen(o.next+nl+1, false, nil, nil)
			}
			return false
		}
		s.lines = o.appendLine(s.lines, line)
		o.fixed = len(s.lines)
		o.next += nl + 1
	}
	if rest := s.src[o.next:shown]; len(rest) > 0 {
		if o.ends(rest, false) {
			return false
		}
		// An unfinished line of blanks shows nothing yet: Render ends the
		// block before a last line that is blank.
		if o.close != "" || !isBlank(rest) {
			s.lines = o.appendLine(s.lines, rest)
		}
	}
	s.held = -1
	return true
}

// ends reports whether line (complete, or the unfinished last one) may
// end the block.
func (o *openHTML) ends(line []byte, complete bool) bool {
	switch {
	case o.close == "":
		return complete && isBlank(line)
	case o.fold:
		l := strings.ToLower(string(line))
		for _, tag := range []string{"</script>", "</pre>", "</style>", "</textarea>"} {
			if strings.Contains(l, tag) {
				return true
			}
		}
		return false
	}
	return bytes.Contains(line, []byte(o.close))
}

// appendLine appends the block's source line as Render draws it.
func (o *openHTML) appendLine(out []render.Line, line []byte) []render.Line {
	s := strings.TrimRight(string(line), "\r\n")
	ls := wrapLines([]piece{{text: cleanText(s), style: o.style}}, o.width)
	if len(ls) == 0 {
		ls = []render.Line{{}}
	}
	return append(out, ls...)
}

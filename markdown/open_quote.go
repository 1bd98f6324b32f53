package markdown

import (
	"bytes"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/quire-sh/quire/render"
)

// openQuote continues a top-level blockquote line by line. The quote's
// content, its lines without their '>' markers, streams into a Stream of
// its own (laid out at the quote's inner width, one container deeper,
// with the quote's text style), and its lines are drawn behind the
// quote's bar: a chunk costs what it costs that inner stream, not a
// layout of the whole quote. Lines the inner stream froze, or that its
// open block keeps for good, are drawn once.
//
// Lines that carry their marker are followed, and so are lazy
// continuation lines (a line without the marker that cannot start a
// block, after a paragraph the quote leaves open), which reach the inner
// stream as they are. Any other line (a blank line, which ends the
// quote, a line that may start a block, a tab where it may decide the
// line's blocks) makes the stream lay the tail out whole, as it does for
// any block it cannot follow; the quote then freezes as Render draws it,
// or is followed anew.
// The inner stream holds back an unfinished line by the rules of a
// document's last line (see ShownPrefix), which the quote's own last line
// escapes behind its marker: while it does, the frame may show less of
// that line than Render would (doc.go).
type openQuote struct {
	inner   *Stream
	top     int         // index in s.lines of the quote's first line
	start   int         // source offset of the quote's first line
	line    int         // source offset of the line being fed
	fed     int         // source offset up to which that line went to inner
	marked  bool        // the marker of the line at line was stripped
	content int         // where that line's content starts (-1: a lazy line, fed as it is)
	bar     render.Span // drawn before every line
	widths  prefixWidths
	innerLines
	refs int // definitions the inner stream started with
}

// steadyBlock is an open block that knows how many leading lines of the
// stream's lines it will not change again while it stays open.
type steadyBlock interface {
	steadyLines() int
}

func (o *openPara) steadyLines() int { return o.fixed }
func (o *openList) steadyLines() int { return o.fixed }

// steadyLines is the quote's lines before its inner stream's frozen ones
// end, unless a revision ever redrew those.
func (o *openQuote) steadyLines() int {
	if o.revs > 0 {
		return o.top
	}
	return o.top + o.lastFrozen
}

func newOpenQuote(s *Stream, t *tailRender, q *ast.Blockquote, top int) openBlock {
	if s.opts.depth+1 >= maxDepth {
		return nil
	}
	p := startPos(q)
	if p < 0 {
		return nil
	}
	width := s.opts.Width
	bar := render.Span{Text: "│ ", Style: s.opts.Theme.QuoteBar}
	inner := width - 2
	if inner < minContent {
		inner, bar.Text = width, "│"
	}
	opts := s.opts
	opts.Width = inner
	opts.depth++
	opts.tight = false // a quote's blocks are apart
	opts.Theme.Text = mergeStyle(opts.Theme.Text, opts.Theme.Quote)
	in := s.innerStream(opts, nil)
	start := absStart(t, lineStart(t.buf, p))
	o := &openQuote{inner: in, top: top, start: start, line: start, fed: start, bar: bar, widths: newPrefixWidths(), refs: len(in.state.refs)}
	if !o.extend(s, s.shown) {
		return nil
	}
	return o
}

func (o *openQuote) extend(s *Stream, shown int) bool {
	ok, end := o.feed(s, shown)
	if !ok {
		if end >= 0 {
			o.freeze(s, end)
		}
		return false
	}
	in := o.inner
	lines := in.Lines()
	current, stay := o.advance(in)
	o.draw(s, lines, current, stay)
	// The inline budgets count content bytes (see maxInline), the same
	// in the quote's content alone: the inner stream's blocks are
	// Render's.
	s.approx = in.approx || in.shown < len(in.src) || in.held >= 0
	s.held = -1
	return true
}

// draw puts the inner stream's lines behind the bar in s.lines (see
// innerLines.drawInner); an empty quote shows its bar.
func (o *openQuote) draw(s *Stream, lines []render.Line, current, stay int) {
	o.drawInner(s, o.inner, o.top, lines, current, stay, o.prefix)
}

// freeze ends the quote, which the complete blank line at end closed:
// its inner stream is finished, and the quote freezes as that stream
// lays its content out, which is Render's (the budgets count the same
// bytes there), instead of being laid out whole again. A paragraph the
// inner stream follows is ended by a blank line first, so that it too
// freezes as it stands; any other open block there is laid out whole
// once, as the end of a document is.
func (o *openQuote) freeze(s *Stream, end int) {
	in := o.inner
	in.sync()
	current := o.lastFrozen
	if p, ok := in.open.(*openPara); ok {
		if in.open == o.lastOpen && !p.pf.approx {
			current = max(current, o.lastSteady)
		}
		// The content ends with a complete line, and a blank line after a
		// paragraph that ends a document changes nothing in it.
		in.Append("\n")
		in.sync()
	}
	in.Finish()
	lines := in.Lines()
	o.draw(s, lines, current, len(lines)) // all of them stay: they freeze
	defs := append(slices.Clip(in.state.refs[o.refs:]), in.tailDefs...)
	own := map[string]bool{}
	for _, d := range defs {
		own[refKey(d.Label())] = true
	}
	pending := map[string]bool{}
	for k, waiting := range in.late.pending {
		if len(waiting) > 0 && !own[k] {
			pending[k] = true
		}
	}
	for _, k := range in.tailLabels {
		if !own[k] {
			pending[k] = true
		}
	}
	s.freezeOpen(end+bytes.IndexByte(s.src[end:], '\n')+1, false, pending, defs)
}

// prefix appends ls to out behind the quote's bar, leaving ls as it was
// (every line has the same bar, whichever inner line it is).
func (o *openQuote) prefix(out, ls []render.Line, _ int, spare *[]render.Span) []render.Line {
	n := len(out)
	out = append(out, ls...)
	prefixedWidths(out[n:], o.bar, o.bar, "> ", "> ", &o.widths, spare)
	return out
}

// feed gives the inner stream the content of the quote's lines up to
// shown. It reports false at a line that does not carry the quote's
// marker; end is then where that line starts when it is a complete blank
// line, which ends the quote, else -1.
func (o *openQuote) feed(s *Stream, shown int) (ok bool, end int) {
	src := s.src
	for o.line < shown {
		if !o.marked {
			i := o.line
			for i < shown && i-o.line < 3 && src[i] == ' ' {
				i++
			}
			if i == shown {
				return true, -1 // the line's first characters are still to come
			}
			if src[i] != '>' {
				// A line without the marker stays in the quote only as a
				// lazy continuation of a paragraph the quote leaves open,
				// and reaches the inner stream as it is.
				if !o.lazy(src[o.line:shown]) {
					line := src[o.line:shown]
					if nl := bytes.IndexByte(line, '\n'); nl >= 0 && isBlank(line[:nl]) {
						return false, o.line
					}
					return false, -1
				}
				o.marked, o.fed, o.content = true, o.line, -1
				continue
			}
			i++
			if i == shown {
				return true, -1 // whether a space follows the marker is not known yet
			}
			switch src[i] {
			case '\t':
				return false, -1 // a tab after the marker counts in columns
			case ' ':
				i++
			}
			o.marked, o.fed, o.content = true, i, i
		}
		if o.content >= 0 && structuralTab(src[o.content:shown]) {
			return false, -1 // a tab's width depends on the column, which the inner stream does not see
		}
		nl := bytes.IndexByte(src[o.fed:shown], '\n')
		if nl < 0 {
			appendChunk(o.inner, src[o.fed:shown])
			o.fed = shown
			return true, -1
		}
		next := o.fed + nl + 1
		appendChunk(o.inner, src[o.fed:next])
		o.line, o.fed, o.marked = next, next, false
	}
	return true, -1
}

// lazy reports whether line, which has no quote marker, continues the
// quote as paragraph continuation text: it cannot start a block, and the
// innermost block the quote leaves open is a paragraph.
func (o *openQuote) lazy(line []byte) bool {
	if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	if isBlank(line) || mayInterrupt(line) {
		return false // a blank line ends the quote; the others may start a block
	}
	return openParagraph(o.inner)
}

// openParagraph reports whether the innermost block s leaves open is a
// paragraph, as far as its open block knows.
func openParagraph(s *Stream) bool {
	s.sync()
	switch b := s.open.(type) {
	case *openPara:
		return true
	case *openList:
		return b.item != nil
	case *openQuote:
		return openParagraph(b.inner)
	case nil:
		return tailEndsInParagraph(s)
	}
	return false
}

// tailEndsInParagraph reports, for a stream that follows no open block
// (its tail is short, or not one it continues), whether the innermost
// last block of its tail is a paragraph that no blank line has closed:
// it parses the tail.
func tailEndsInParagraph(s *Stream) bool {
	tail := s.src[s.base:]
	if s.state.fence != nil || s.state.afterText || len(tail) == 0 || tail[len(tail)-1] != '\n' {
		return false
	}
	if isBlank(tail[lineStart(tail, len(tail)-1):]) {
		return false // a blank line closed it
	}
	doc := s.scratch().parse(s.parser, capNesting(clone(tail)), s.state.refs)
	for n := doc.LastChild(); n != nil; n = n.LastChild() {
		switch n.Kind() {
		case ast.KindParagraph, ast.KindTextBlock: // a tight list item's paragraph is a text block
			return true
		case ast.KindBlockquote, ast.KindList, ast.KindListItem:
			continue
		}
		return false
	}
	return false
}

// structuralTab reports whether a tab comes in the leading run of a
// line's content that may decide its blocks (indentation, list and quote
// markers, heading marks): a tab counts to the next multiple of four
// columns from the start of the document's line, so it may count
// differently in the quote's content alone.
func structuralTab(content []byte) bool {
	for _, c := range content {
		switch {
		case c == '\t':
			return true
		case c == '\n', strings.IndexByte(" -*+.)>#0123456789", c) < 0:
			return false
		}
	}
	return false
}

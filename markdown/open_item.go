package markdown

import (
	"bytes"

	"github.com/quire-sh/quire/render"
)

// itemStream continues the open last item of a tight top-level list
// that holds more than a paragraph (a list nested in it, say) line by
// line, as openQuote continues a quote: the item's content, its lines
// without the indentation up to the item's content column, streams into
// a Stream of its own (laid out at the item's inner width, one container
// deeper, its blocks joined without blank lines as a tight item's are),
// and its lines are drawn behind the item's marker and indent. A chunk
// costs what it costs that inner stream, not a layout of the whole item.
//
// Only lines that indentation alone decides are followed: each must
// start with the content column's spaces and must not be blank (a blank
// line between the item's blocks would make the whole list loose). Any
// other line (a new item, a lazy continuation line, the list's end, a
// tab in the indentation or where it may decide the content's blocks)
// hands the list back to openList's full layout of its open item.
type itemStream struct {
	inner  *Stream
	top    int  // index in s.lines of the item's first line
	col    int  // the content column
	line   int  // source offset of the line being fed
	fed    int  // source offset up to which that line went to inner
	marked bool // the indentation of the line at line was stripped
	start  int  // where that line's content starts
	marker render.Span
	indent render.Span
	lead   string // the marker as a copy shows it
	widths [2]prefixWidths
	innerLines
}

// itemContentCol returns the content column of the list item whose
// marker line is line, when the line says it for good: up to three
// spaces, the marker, one to four spaces and a character that is not
// white space or '[' (a task box, or a link reference definition). It
// returns -1 otherwise.
func itemContentCol(line []byte, ordered bool) int {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if ordered {
		d := i
		for i < len(line) && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		if i == d || i-d > 9 || i >= len(line) || line[i] != '.' && line[i] != ')' {
			return -1
		}
	} else if i >= len(line) || line[i] != '-' && line[i] != '+' && line[i] != '*' {
		return -1
	}
	i++
	sp := i
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if i-sp < 1 || i-sp > 4 || i >= len(line) || line[i] == '[' || line[i] == '\t' || line[i] == '\n' || line[i] == '\r' {
		return -1
	}
	return i
}

// newItemStream starts following the item whose marker line starts at
// source offset at, drawn from s.lines[top] on with marker before its
// first line, through shown. It returns nil, having changed nothing but
// s.lines past top, when the item's lines so far cannot be followed.
func newItemStream(s *Stream, o *openList, at, top, shown int, marker string, lay listLayout) *itemStream {
	if s.opts.depth+1 >= maxDepth {
		return nil
	}
	col := itemContentCol(s.src[at:shown], o.ordered)
	if col < 0 {
		return nil
	}
	opts := s.opts
	opts.Width = lay.inner
	opts.depth++
	opts.tight = true
	in := s.innerStream(opts, o.refs)
	f := &itemStream{inner: in, top: top, col: col, line: at, fed: at + col, marked: true, start: at + col,
		marker: render.Span{Text: marker, Style: s.opts.Theme.ListMarker}, indent: render.Span{Text: lay.indent},
		lead: marker, widths: [2]prefixWidths{newPrefixWidths(), newPrefixWidths()}}
	if !f.extend(s, shown) {
		s.lines = s.lines[:top]
		return nil
	}
	return f
}

func (f *itemStream) extend(s *Stream, shown int) bool {
	if !f.feed(s, shown) {
		return false
	}
	in := f.inner
	lines := in.Lines()
	current, stay := f.advance(in)
	f.drawInner(s, in, f.top, lines, current, stay, f.prefix)
	s.approx = in.approx || in.shown < len(in.src) || in.held >= 0
	s.held = -1
	return true
}

// prefix appends ls, the inner lines from index from on, to out behind
// the item's marker (on inner line 0) or indent, leaving ls as it was.
func (f *itemStream) prefix(out, ls []render.Line, from int, spare *[]render.Span) []render.Line {
	n := len(out)
	out = append(out, ls...)
	if from == 0 && len(ls) > 0 {
		prefixedWidths(out[n:n+1], f.marker, f.indent, f.lead, f.indent.Text, &f.widths[0], spare)
		n++
	}
	prefixedWidths(out[n:], f.indent, f.indent, f.indent.Text, f.indent.Text, &f.widths[1], spare)
	return out
}

// feed gives the inner stream the content of the item's lines up to
// shown. It reports false at a line it cannot follow (see itemStream).
func (f *itemStream) feed(s *Stream, shown int) bool {
	src := s.src
	for f.line < shown {
		if !f.marked {
			i := f.line
			for i < shown && i-f.line < f.col && src[i] == ' ' {
				i++
			}
			if i == shown {
				return true // the line's indentation is still to come
			}
			if i-f.line < f.col {
				return false // indented less, a tab, or a blank line
			}
			f.marked, f.fed, f.start = true, i, i
		}
		if structuralTab(src[f.start:shown]) {
			return false // a tab's width depends on the column, which the inner stream does not see
		}
		nl := bytes.IndexByte(src[f.fed:shown], '\n')
		if nl < 0 {
			if !isBlank(src[f.start:shown]) {
				appendChunk(f.inner, src[f.fed:shown])
				f.fed = shown
			}
			return true
		}
		next := f.fed + nl + 1
		if isBlank(src[f.start : next-1]) {
			return false // a blank line may make the list loose
		}
		appendChunk(f.inner, src[f.fed:next])
		f.line, f.fed, f.marked = next, next, false
	}
	return true
}

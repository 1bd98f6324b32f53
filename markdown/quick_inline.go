package markdown

import (
	"bytes"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// A window of a paragraph is parsed on most chunks that bring markup, and
// most of what such a parse costs is goldmark's setup (a reader, a block
// pass, a document) and its linkify parser, which is tried at every
// space, not the few dozen bytes of text. quickParagraph builds the tree
// the stream's inline parser (newInlineParser) builds for the commonest
// windows: lines of text, code spans, emphasis and brackets that make no
// link ("a[i]", "[Enter]", a reference whose definition has not come).
// It walks each line as goldmark's inline loop does, with the same
// trigger characters, so that the text nodes split where goldmark's do;
// it looks labels up as goldmark's link parser would, so that the stream
// learns the same pending labels; and it leaves the pairing of emphasis
// delimiters to goldmark's own ProcessDelimiters. Any other window (a
// hard line break, a blank line, a code span or link label across lines,
// a link or image, a defined label, raw HTML, an escape, strikethrough, a
// tab or control character, anything linkify could match) is left to
// goldmark. TestQuickParagraphMatchesGoldmark and FuzzQuickParagraph hold
// the two trees, and the labels looked up, equal.

// quickParagraph returns the paragraph goldmark's inline parser makes of
// src, with pc reset to refs and holding what that parse leaves in it, or
// nil when src is not a window it handles. The tree's nodes are q's, and
// q's next parse reuses them.
func (q *quickNodes) quickParagraph(src []byte, pc *refContext, refs []parser.Reference) ast.Node {
	// The paragraph parser drops the text's trailing blanks and line
	// breaks; leading ones are left to goldmark.
	n := len(src)
	for n > 0 && (src[n-1] == ' ' || src[n-1] == '\n') {
		n--
	}
	if n == 0 || src[0] == ' ' || !quickText(src[:n]) {
		return nil
	}
	pc.reset(refs)
	para := q.reset()
	for ls := 0; ls < n; {
		le := n
		if nl := bytes.IndexByte(src[ls:n], '\n'); nl >= 0 {
			le = ls + nl
		}
		next := le + 1 // where the next line starts
		if le == n {
			next = n
		}
		// A line after the first starts after its blanks; a blank line
		// ends the paragraph, and blanks before a line break may make a
		// hard one: both are left to goldmark.
		for ls < le && src[ls] == ' ' {
			ls++
		}
		if ls == le || le < n && src[le-1] == ' ' {
			return nil
		}
		q.lines.Append(text.NewSegment(ls, next))
		if !q.line(src[:n], ls, le, next, para, pc) {
			return nil
		}
		ls = next
	}
	para.SetLines(&q.lines)
	parser.ProcessDelimiters(nil, pc)
	// The link parser's CloseBlock: a '[' nothing closed is text.
	for _, o := range q.open {
		o.Parent().ReplaceChild(o.Parent(), o, q.text(o.seg))
	}
	return para
}

// line adds the inlines of the line src[ls:le] of the paragraph's text,
// src, to para as goldmark's inline loop does; the next line starts at
// next. It reports false for a line it does not handle.
func (q *quickNodes) line(src []byte, ls, le, next int, para ast.Node, pc *refContext) bool {
	n := len(src)
	soft := le < n
	last := -1 // where the line's last text starts, if text ends it
	for pos := ls; pos < le; {
		start := pos
		i := pos
	scan:
		for ; i < le; i++ {
			c := src[i]
			if !quickOutside(c) {
				return false
			}
			// The characters an inline parser of newInlineParser's
			// starts at, among those quickOutside lets through: white
			// space and '(' (linkify), '`', '*', '_', '[', ']' and '!',
			// and the first character of a line or after a node, which
			// goldmark reads as a space.
			if !quickTrigger(c) && (i != pos || util.IsPunct(c)) {
				continue
			}
			if i != pos {
				q.mergeText(para, start, i)
				start = i
			}
			switch c {
			case '`':
				node, end, ok := q.codeSpan(src, i, le, n)
				if !ok {
					return false
				}
				para.AppendChild(para, node)
				pos = end
				break scan
			case '*', '_':
				d := q.delimiter(src[:next], i)
				pc.PushDelimiter(d)
				para.AppendChild(para, d)
				pos = i + d.OriginalLength
				break scan
			case '[':
				o := grab(&q.opens)
				o.seg = text.NewSegment(i, i+1)
				para.AppendChild(para, o)
				q.open = append(q.open, o)
				pos = i + 1
				break scan
			case ']':
				if !q.closeLabel(src, i, le, para, pc) {
					return false
				}
			case '!':
				if i+1 < le && src[i+1] == '[' {
					return false // an image
				}
			}
			// Otherwise no parser took the character, which stays text:
			// linkify, at a space, a '(' or a line's first character,
			// finds nothing (quickText ruled out what it looks for); a
			// ']' closed no link.
		}
		if i == le {
			last, pos = start, le
		}
	}
	if len(q.open) > 0 && soft {
		return false // a link's text or label may go on to the next line
	}
	// goldmark ends a line with a text that carries its line break, an
	// empty one when a node ended the line (the paragraph's last line
	// has no break, and then no such text).
	if last < 0 {
		if !soft {
			return true
		}
		last = le
	}
	seg := text.NewSegment(last, le)
	t := q.text(seg.TrimRightSpace(src))
	t.SetSoftLineBreak(soft)
	para.AppendChild(para, t)
	return true
}

// quickTrigger reports whether an inline parser of newInlineParser's
// starts at c wherever it stands, among the characters quickOutside
// lets through.
func quickTrigger(c byte) bool {
	switch c {
	case ' ', '(', '`', '*', '_', '[', ']', '!':
		return true
	}
	return false
}

// closeLabel does at the ']' at src[at] what goldmark's link parser
// does when no link comes of it: the '[' it closes, the last one still
// open, becomes text, after the labels a link would need were looked up
// (and noted in pc, as refObserver notes them) and found undefined. It
// reports false when a link may come of it after all: a label is
// defined, a '(' follows (an inline link), or the label of a full
// reference may close on a later line.
func (q *quickNodes) closeLabel(src []byte, at, le int, para ast.Node, pc *refContext) bool {
	pc.current, pc.at = para, at
	if len(q.open) == 0 {
		return true
	}
	// goldmark has labels of about a thousand bytes and more turn to text
	// without a lookup: left to it.
	if at-q.open[0].seg.Start > maxQuickLabel {
		return false
	}
	last := q.open[len(q.open)-1]
	q.open = q.open[:len(q.open)-1]
	if at+1 < le && src[at+1] == '(' {
		return false
	}
	// "[text][label]" looks up label, "[text][]" text; goldmark's
	// FindClosure reads up to the first '[' or ']' (escapes aside).
	looked := false
	if at+1 < le && src[at+1] == '[' {
		j := at + 2
		for j < le && src[j] != '[' && src[j] != ']' {
			if src[j] == '\\' {
				return false
			}
			j++
		}
		if j == le && le < len(src) || j-at > maxQuickLabel {
			return false
		}
		if j < le && src[j] == ']' {
			label := src[at+2 : j]
			if util.IsBlank(label) {
				label = src[last.seg.Stop:at]
			}
			if _, ok := pc.Reference(util.ToLinkReference(label)); ok {
				return false
			}
			looked = true
		}
	}
	// Otherwise the text between the brackets is looked up as a shortcut
	// reference.
	if !looked {
		if _, ok := pc.Reference(util.ToLinkReference(src[last.seg.Stop:at])); ok {
			return false
		}
	}
	// ast.MergeOrReplaceTextSegment, with q's nodes.
	if t, ok := last.PreviousSibling().(*ast.Text); ok && t.Segment.Stop == last.seg.Start && !t.SoftLineBreak() {
		t.Segment = t.Segment.WithStop(last.seg.Stop)
		para.RemoveChild(para, last)
	} else {
		para.ReplaceChild(para, last, q.text(last.seg))
	}
	return true
}

// maxQuickLabel bounds the text between brackets quickParagraph looks up.
const maxQuickLabel = 900

// labelOpen stands where goldmark's link parser leaves its state for a
// '[' until a ']' closes it: a node that is not text, so that text after
// it does not merge into it.
type labelOpen struct {
	ast.BaseInline
	seg text.Segment
}

// kindLabelOpen is labelOpen's node kind, registered once.
var kindLabelOpen = ast.NewNodeKind("QuickLabelOpen")

func (n *labelOpen) Kind() ast.NodeKind { return kindLabelOpen }

func (n *labelOpen) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// quickNodes holds the nodes of a stream's quick parses, reused from
// window to window: nothing keeps a window's tree past the next parse
// (parseWindow). Allocated afresh, a window's dozen nodes were two in five of
// the stream's allocations on a long paragraph.
type quickNodes struct {
	para   ast.Paragraph
	lines  text.Segments
	texts  []ast.Text
	spans  []ast.CodeSpan
	ems    []ast.Emphasis
	delims []parser.Delimiter
	opens  []labelOpen
	open   []*labelOpen // the '[' not closed yet, in order
}

// reset drops the last parse's nodes and returns the paragraph for the
// next.
func (q *quickNodes) reset() *ast.Paragraph {
	q.texts, q.spans, q.ems, q.delims = q.texts[:0], q.spans[:0], q.ems[:0], q.delims[:0]
	q.opens, q.open = q.opens[:0], q.open[:0]
	q.para = ast.Paragraph{}
	if q.lines.Len() > 0 {
		q.lines.SetSliced(0, 0)
	}
	return &q.para
}

// grab returns a zero node from pool; a full pool goes on in new storage,
// so that the nodes handed out stay where they are.
func grab[T any](pool *[]T) *T {
	if len(*pool) == cap(*pool) {
		*pool = make([]T, 0, max(2*cap(*pool), 8))
	}
	var zero T
	*pool = append(*pool, zero)
	return &(*pool)[len(*pool)-1]
}

func (q *quickNodes) text(seg text.Segment) *ast.Text {
	t := grab(&q.texts)
	t.Segment = seg
	return t
}

// mergeText adds the text at line[start:end] to para as goldmark's
// ast.MergeOrAppendTextSegment does: to the text before it when that
// ends where it starts, on the same line.
func (q *quickNodes) mergeText(para ast.Node, start, end int) {
	if t, ok := para.LastChild().(*ast.Text); ok && t.Segment.Stop == start && !t.SoftLineBreak() {
		t.Segment = t.Segment.WithStop(end)
		return
	}
	para.AppendChild(para, q.text(text.NewSegment(start, end)))
}

// codeSpan reads the backtick run at src[at] as goldmark's code span
// parser does: a code span up to the next run of as many backticks on the
// line (which ends at le), or, when there is none in the paragraph's text
// (which ends at n), the run as text. It returns the node and where the
// line goes on, or false for a code span that runs onto another line.
func (q *quickNodes) codeSpan(src []byte, at, le, n int) (ast.Node, int, bool) {
	k := at
	for k < le && src[k] == '`' {
		k++
	}
	run := k - at
	i, j := nextRun(src, k, le, run)
	if i < 0 {
		if i, _ := nextRun(src, le, n, run); i >= 0 {
			return nil, 0, false
		}
		return q.text(text.NewSegment(at, k)), k, true
	}
	node := grab(&q.spans)
	if i > k {
		content := q.text(text.NewSegment(k, i))
		content.SetRaw(true)
		node.AppendChild(node, content)
		// One space is taken off each end of content that starts and
		// ends with one and is not all blank.
		if src[k] == ' ' && src[i-1] == ' ' && !util.IsBlank(src[k:i]) {
			content.Segment = text.NewSegment(k+1, i-1)
		}
	}
	return node, j, true
}

// nextRun finds the first run of exactly run backticks in src[from:to]
// and returns where it starts and ends, or -1.
func nextRun(src []byte, from, to, run int) (int, int) {
	for i := from; i < to; {
		if src[i] != '`' {
			i++
			continue
		}
		j := i
		for j < to && src[j] == '`' {
			j++
		}
		if j-i == run {
			return i, j
		}
		i = j
	}
	return -1, -1
}

// delimiter reads the run of '*' or '_' at line[at] as goldmark's
// emphasis parser does (parser.ScanDelimiter, whose flanking rules
// flanks applies).
func (q *quickNodes) delimiter(line []byte, at int) *parser.Delimiter {
	c := line[at]
	e := at
	for e < len(line) && line[e] == c {
		e++
	}
	d := grab(&q.delims)
	d.CanOpen, d.CanClose = flanks(line, at, e)
	d.Length, d.OriginalLength, d.Char = e-at, e-at, c
	d.Processor = q
	d.Segment = text.NewSegment(at, e)
	return d
}

// IsDelimiter, CanOpenCloser and OnMatch pair '*' and '_' runs into
// emphasis as goldmark's own emphasis delimiter processor does (which it
// does not export).
func (q *quickNodes) IsDelimiter(b byte) bool { return b == '*' || b == '_' }

func (q *quickNodes) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (q *quickNodes) OnMatch(consumes int) ast.Node {
	e := grab(&q.ems)
	e.Level = consumes
	return e
}

// quickText reports whether text may be one quickParagraph handles, as
// far as the text as a whole decides: printable lines of valid UTF-8,
// with nothing that linkify could make a link of (an '@', "www.", a
// protocol), wherever it is.
func quickText(text []byte) bool {
	tick := false // a code span may have started
	for _, c := range text {
		if c < ' ' && c != '\n' || c == 0x7f || c == '@' || !tick && !quickOutside(c) {
			// A character quickOutside refuses before any backtick is
			// outside code spans: the window is goldmark's, found
			// without walking it (one with an escape or raw HTML, say).
			return false
		}
		tick = tick || c == '`'
	}
	return utf8.Valid(text) && !bytes.Contains(text, []byte("www.")) &&
		!bytes.Contains(text, []byte("http:")) && !bytes.Contains(text, []byte("https:")) &&
		!bytes.Contains(text, []byte("ftp:"))
}

// quickOutside reports whether c may stand outside code spans in a
// window quickParagraph handles: not a character that starts raw HTML,
// an autolink, strikethrough or an escape.
func quickOutside(c byte) bool {
	switch c {
	case '\\', '<', '~':
		return false
	}
	return true
}

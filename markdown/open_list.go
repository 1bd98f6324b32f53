package markdown

import (
	"bytes"
	"strconv"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"

	"github.com/quire-sh/quire/render"
)

// openList continues a top-level list item by item. The open (last)
// item is parsed from its marker line on, alone: goldmark decides what
// belongs to an item, and when the next item starts, from that item's
// own lines (its offset, whether it is empty), never from the items
// before it. What items share is the layout: the list's tightness and
// the ordered markers' width. When either changes, the whole list is
// laid out again (a list only turns loose once, and its markers widen at
// 10, 100, 1,000 items).
type openList struct {
	ordered bool
	start   int
	delim   byte
	items   int // complete items laid out for good
	resume  int // source offset of the first item still open (its marker line)
	// loose holds when the complete items, or the gap before the
	// resume item, make the list loose.
	loose   bool
	tight   bool // tightness the lines are drawn with
	markerW int  // marker width the lines are drawn with
	top     int  // index in s.lines of the list's first line
	fixed   int  // s.lines[:fixed] stay: up to the last complete item
	refs    []parser.Reference
	defined map[string]bool // labels the complete items define
	waits   map[string]bool // labels the list looked up and found nowhere
	// item, when set, is the open item as a single paragraph that new
	// text on its last line extends without parsing the item again.
	item *itemPara
	// sub, when set, follows the open item that holds more than a
	// paragraph line by line (open_item.go).
	sub   *itemStream
	shown int // the text the lines show
}

// itemPara is an open list item that holds one paragraph, continued
// like a top-level paragraph (paraFlow) and drawn behind the item's
// marker.
type itemPara struct {
	pf     paraFlow
	marker string
	style  render.Style // the marker's
	indent string
	first  int // source offset of the paragraph's first line
	fixed  int // s.lines[:fixed] stay: up to the paragraph's emitted lines
	out    int // of those lines, how many the flow had emitted
	index  int // the item's index in the list
	lines  int // the paragraph's source lines when the flow started
	// before counts the content bytes of the paragraph's lines before
	// its last, and lastStart is where its last line's content starts,
	// as the inline budgets measure them (see maxInline).
	before, lastStart int
	// measured is set when those are the paragraph's as the text goes
	// on: no line break followed lastStart when the item was laid out
	// (a frame that ended in a blank line in the making).
	measured bool
	// contentCol is the column its content starts at: a line indented
	// less that starts an item starts the next item of the list.
	contentCol int
	// widths are the marker's and indent's, measured once; shown holds
	// the spans of the lines a frame shows after the fixed ones, which
	// the next frame replaces.
	widths prefixWidths
	shown  []render.Span
}

func newOpenList(s *Stream, t *tailRender, l *ast.List, top int) openBlock {
	o := &openList{ordered: l.IsOrdered(), start: l.Start, delim: l.Marker, top: top,
		defined: map[string]bool{}, waits: map[string]bool{}}
	var items []ast.Node
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		items = append(items, it)
	}
	// The open items: from the last one whose marker line decides it is
	// an item.
	k := len(items) - 1
	for k >= 0 && !itemDecided(t.buf, items[k]) {
		k--
	}
	if k < 0 {
		return nil
	}
	o.resume = absStart(t, lineStart(t.buf, items[k].Pos()))
	o.items = k
	o.tight = l.IsTight
	o.loose = k > 0 && items[k].HasBlankPreviousLines()
	for _, it := range items[:k] {
		o.loose = o.loose || itemLoose(it, it == items[0])
		o.addDefinitions(it)
	}
	o.noteLookups(s, t.pc.labels(l))
	r := t.r
	r.depth++
	lay := r.listLayout(o.ordered, o.start, o.delim, len(items), s.opts.Width)
	r.depth--
	o.markerW = lay.markerW
	// The full render laid the complete items out already.
	o.fixed = top
	if k > 0 {
		if len(r.itemEnds) != len(items) {
			return nil
		}
		o.fixed += r.itemEnds[k-1]
	}
	s.lines = s.lines[:o.fixed]
	if !o.extend(s, s.shown) {
		return nil
	}
	return o
}

// itemDecided reports whether item's marker line says for good that it
// starts an item: it is complete, or has content after the marker that
// no more text on the line can turn into a rule. An unfinished "12" or
// "- -" may still turn out to be text or a rule.
func itemDecided(buf []byte, item ast.Node) bool {
	if item.Pos() < 0 {
		return false
	}
	ls := lineStart(buf, item.Pos())
	if lineComplete(buf, ls) {
		return true
	}
	line := bytes.TrimLeft(buf[ls:], " ")
	i := 0
	switch {
	case len(line) > 0 && (line[0] == '-' || line[0] == '+' || line[0] == '*'):
		i = 1
	default:
		for i < len(line) && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(line) || line[i] != '.' && line[i] != ')' {
			return false
		}
		i++
	}
	rest := bytes.TrimLeft(line[i:], " \t")
	if len(rest) == len(line[i:]) || len(rest) == 0 {
		return false // no space after the marker, or nothing after it yet
	}
	return len(bytes.Trim(line, " \t-*_")) > 0 // not a rule in the making
}

// itemLoose reports whether item shows goldmark's evidence of a loose
// list: a blank line before it (unless it is the first item) or between
// two of its blocks.
func itemLoose(item ast.Node, first bool) bool {
	if !first && item.HasBlankPreviousLines() {
		return true
	}
	if c := item.FirstChild(); c != nil && c != item.LastChild() {
		for c = c.NextSibling(); c != nil; c = c.NextSibling() {
			if c.HasBlankPreviousLines() {
				return true
			}
		}
	}
	return false
}

func (o *openList) addDefinitions(item ast.Node) {
	for _, d := range definitions(item) {
		if k := refKey(d.Label); !o.defined[k] {
			o.defined[k] = true
			o.refs = append(o.refs, keepRef(d))
		}
	}
}

func (o *openList) noteLookups(s *Stream, keys []string) {
	for _, k := range keys {
		if !s.state.refKeys[k] && !o.defined[k] {
			o.waits[k] = true
		}
	}
}

func (o *openList) extend(s *Stream, shown int) bool {
	if f := o.sub; f != nil {
		o.sub = nil
		if shown > o.shown && f.extend(s, shown) {
			o.sub, o.shown = f, shown
			return true
		}
	}
	// More of the item's last line (not the start of a new one) only
	// lengthens its paragraph.
	// A line that just ended, with nothing after it yet, shows as it did
	// unfinished: the item takes the line in, and the next frame decides
	// what the line after it is.
	end := shown
	if end-2 >= o.shown && s.src[end-1] == '\n' && s.src[end-2] != '\r' {
		end--
	}
	if it := o.item; it != nil && shown > o.shown && s.src[o.shown-1] != '\n' && bytes.IndexByte(s.src[o.shown:end], '\n') < 0 &&
		it.withinBudget(end, end < shown) {
		o.extendItem(s, end)
		return true
	}
	prev := o.item
	o.item = nil
	// The item the flow followed ends where the next line starts an item
	// of the same list: the flow finishes it, and the parse below starts
	// at the new item instead of at the finished one.
	if prev != nil && prev.index == o.items && !prev.pf.approx && shown > o.shown && s.src[o.shown-1] != '\n' {
		if nl := bytes.IndexByte(s.src[o.shown:shown], '\n'); nl >= 0 {
			next := o.shown + nl + 1
			if o.sibling(s.src[next:shown], prev.contentCol) {
				prev.finishAt(s, next)
				for k := range prev.pf.pending {
					if !s.state.refKeys[k] {
						o.waits[k] = true
					}
				}
				o.items++
				o.fixed = len(s.lines)
				o.resume = next
				s.dropFlow(prev.pf.f) // laid out for good
				prev = nil
				if o.startItem(s, next, shown) {
					return true
				}
			}
		}
	}
	o.shown = shown
	s.approx = false // the slow path lays every item out as Render does
	width := s.opts.Width
	from := o.resume // where buf starts
	buf := capNesting(clone(s.src[o.resume:shown]))
	refs := s.state.refs
	if len(o.refs) > 0 {
		refs = append(refs[:len(refs):len(refs)], o.refs...)
	}
	pc := &s.ctx.open
	doc := pc.parse(s.parser, buf, refs)
	l, ok := doc.FirstChild().(*ast.List)
	if !ok || l.IsOrdered() != o.ordered || l.Marker != o.delim || l.FirstChild() == nil {
		return false
	}
	r := docRenderer(buf, &s.opts, &s.opts.Theme, s.lexers)
	// over: the line after the list is there in full and starts a block
	// of its own, so the list is over; it freezes once laid out.
	after, ok := trailing(r, doc, l, width)
	over := !ok
	var items []ast.Node
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		items = append(items, it)
	}
	// A definition of a label complete items looked up for changes them.
	for _, d := range definitions(l) {
		if o.waits[refKey(d.Label)] {
			return false
		}
	}
	tight := !o.loose && l.IsTight
	r.depth = s.opts.depth + 1
	lay := r.listLayout(o.ordered, o.start, o.delim, o.items+len(items), width)
	if tight != o.tight || lay.markerW != o.markerW {
		return false // every item is laid out anew
	}
	// Items followed by an item whose marker line decides it are done.
	k := len(items) - 1
	for k > 0 && !itemDecided(buf, items[k]) {
		k--
	}
	done := 0 // items[:done] are laid out
	if k > 0 && prev.finish(s, items[0], o.items, from, buf) {
		done = 1 // the item the flow followed, finished by it
	} else {
		s.lines = s.lines[:o.fixed]
	}
	for i, it := range items[:k] {
		if i >= done {
			s.lines = r.listItem(s.lines, it, o.items+i, tight, lay)
		}
		// The parse starts at items[0]: its own gap is in o.loose already.
		o.loose = o.loose || itemLoose(it, i == 0) || items[i+1].HasBlankPreviousLines()
		o.addDefinitions(it)
	}
	if k > 0 {
		o.items += k
		o.resume += lineStart(buf, items[k].Pos())
		o.noteLookups(s, pc.labels(l))
	}
	o.fixed = len(s.lines)
	open := items[k:]
	last := len(open) - 1
	for i, it := range open[:last] {
		s.lines = r.listItem(s.lines, it, o.items+i, tight, lay)
	}
	if over || after != nil || !o.itemParagraph(s, r, pc, refs, from, open[last], o.items+last, tight, lay) &&
		!o.itemStream(s, buf, from, open[last], o.items+last, last, tight, lay) {
		s.lines = r.listItem(s.lines, open[last], o.items+last, tight, lay)
	}
	if over {
		next := l.NextSibling()
		o.noteLookups(s, pc.labels(l))
		o.addDefinitions(l)
		s.freezeOpen(from+lineStart(buf, startPos(next)), !next.HasBlankPreviousLines(), o.waits, o.refs)
		return false // the rest is laid out anew
	}
	s.lines = append(s.lines, after...)
	s.held = -1
	return true
}

// withinBudget reports whether the paragraph, its last line running to
// source offset end (and a newline after it when complete), is within
// the inline budgets as Render measures them: past them Render shows it
// as text, which the slow path lays out.
func (it *itemPara) withinBudget(end int, complete bool) bool {
	if !it.measured {
		return false
	}
	n := end - it.lastStart
	if complete {
		n++
	}
	return n <= maxInlineLine && it.before+n <= maxInline
}

// extendItem lays out the open item's paragraph through shown, where
// more of its last line arrived.
func (o *openList) extendItem(s *Stream, shown int) {
	it := o.item
	o.shown = shown
	it.pf.advance(s, shown, s.opts.Theme.Text)
	s.approx = it.pf.approx
	if f := it.pf.f; it.out < len(f.out) {
		s.lines = it.prefix(f.appendLines(s.lines[:it.fixed], it.out, len(f.out)), it.fixed, it.out)
		it.fixed, it.out = len(s.lines), len(f.out)
	}
	n := len(s.lines[:it.fixed])
	s.lines = it.prefixFrame(it.pf.display(s.lines[:it.fixed]), n, it.out)
	s.held = -1
}

// startItem follows, without parsing it, the item whose marker line
// starts at source offset at, right after the item the flow finished:
// when the list is tight and the line so far, all of it before shown, is
// the list's marker, one to four spaces and text that only a paragraph
// starts with (what sibling checked, and no block marker, '[' or tab
// after the marker). The item is then one paragraph, continued like the
// one before it; startItem lays it out and reports true. It reports
// false, having done nothing, for any other line.
func (o *openList) startItem(s *Stream, at, shown int) bool {
	line := s.src[at:shown]
	if !o.tight || o.loose || bytes.IndexByte(line, '\n') >= 0 || len(line) > maxInlineLine {
		return false
	}
	t := bytes.TrimLeft(line, " ")
	i := 1 // the bullet, or the ordered marker's delimiter
	if o.ordered {
		i = bytes.IndexByte(t, o.delim) + 1
	}
	sp := i
	for sp < len(t) && t[sp] == ' ' {
		sp++
	}
	if i <= 0 || sp-i < 1 || sp-i > 4 || sp == len(t) || t[sp] == '[' || mayInterrupt(t[sp:]) {
		return false
	}
	r := &renderer{theme: &s.opts.Theme, depth: s.opts.depth + 1}
	lay := r.listLayout(o.ordered, o.start, o.delim, o.items+1, s.opts.Width)
	if lay.markerW != o.markerW {
		return false // the markers widen: every item is laid out anew
	}
	marker := lay.bullet
	if lay.ordered {
		m := strconv.Itoa(lay.start+o.items) + string(lay.delim)
		marker = blanks(lay.markerW-1-len(m)) + m + " "
	}
	refs := s.state.refs
	if len(o.refs) > 0 {
		refs = append(refs[:len(refs):len(refs)], o.refs...)
	}
	q := at + len(line) - len(t) + sp // where the item's text starts
	it := &itemPara{widths: newPrefixWidths(), marker: marker, style: s.opts.Theme.ListMarker, indent: lay.indent,
		first: at, index: o.items, lines: 1, contentCol: q - at, fixed: len(s.lines), lastStart: q, measured: true}
	it.pf = paraFlow{f: s.newFlow(lay.inner), q: q, refs: refs}
	o.item = it
	o.extendItem(s, shown)
	return true
}

// itemParagraph lays out item i, the last, when it is one paragraph that
// new text on the same line can only lengthen (its line has content that
// no block starts with), and keeps its flow in o.item; it reports false,
// having done nothing, for any other item.
func (o *openList) itemParagraph(s *Stream, r *renderer, pc *refContext, refs []parser.Reference, from int, item ast.Node, i int, tight bool, lay listLayout) bool {
	p := item.FirstChild()
	if p == nil || p != item.LastChild() || p.Kind() != ast.KindParagraph && p.Kind() != ast.KindTextBlock || p.Lines().Len() == 0 {
		return false
	}
	if first := p.Lines().At(0); mayDefine(r.src[first.Start:first.Stop]) {
		return false // it may turn out to start with link reference definitions
	}
	// The last line's content must not be able to turn into a block.
	last := p.Lines().At(p.Lines().Len() - 1)
	if line := bytes.TrimLeft(r.src[last.Start:last.Stop], " \t"); len(line) == 0 || mayInterrupt(line) {
		return false
	}
	pm := pc.para
	if pm.lines != p.Lines().Len() || pm.line != lineStart(r.src, p.Lines().At(0).Start) {
		return false // not measured: the last paragraph parsed is another
	}
	marker := lay.bullet
	if lay.ordered {
		m := strconv.Itoa(lay.start+i) + string(lay.delim)
		marker = blanks(lay.markerW-1-len(m)) + m + " "
	}
	lines, st := r.openParagraph(p, lay.inner)
	if _, box := p.FirstChild().(*east.TaskCheckBox); box && st.kept == 0 {
		// Windows are parsed as paragraphs of their own, where "[x] " is
		// no task's box: the flow must have taken the box in.
		return false
	}
	if i > 0 && !tight {
		s.lines = append(s.lines, render.Line{})
	}
	it := &itemPara{widths: newPrefixWidths(), marker: marker, style: r.theme.ListMarker, indent: lay.indent,
		first: from + lineStart(r.src, p.Lines().At(0).Start), index: i, lines: p.Lines().Len(),
		contentCol: p.Lines().At(0).Start - lineStart(r.src, p.Lines().At(0).Start),
		before:     pm.before, lastStart: from + pm.lastStart}
	it.measured = bytes.IndexByte(s.src[it.lastStart:o.shown], '\n') < 0
	it.pf.refs = refs
	it.pf.start(s, pc, topLevel(p), st, from+st.cut)
	it.out = len(it.pf.f.out)
	top := len(s.lines)
	s.lines = it.prefix(append(s.lines, lines...), top, 0)
	it.fixed = top + it.out
	o.item = it
	s.held = -1
	return true
}

// itemStream follows item i, the last and the only open one, with an
// itemStream (open_item.go) when the list is tight, nothing waits for a
// definition the item might hold, and the item's marker line is complete
// and decides its content column; it reports false, having done nothing,
// otherwise.
func (o *openList) itemStream(s *Stream, buf []byte, from int, item ast.Node, i, last int, tight bool, lay listLayout) bool {
	if !tight || last != 0 || len(o.waits) > 0 || !itemDecided(buf, item) {
		return false
	}
	ls := lineStart(buf, item.Pos())
	if !lineComplete(buf, ls) {
		return false // a paragraph on one line is itemParagraph's
	}
	marker := lay.bullet
	if lay.ordered {
		m := strconv.Itoa(lay.start+i) + string(lay.delim)
		marker = blanks(lay.markerW-1-len(m)) + m + " "
	}
	f := newItemStream(s, o, from+ls, len(s.lines), o.shown, marker, lay)
	if f == nil {
		return false
	}
	o.sub = f
	return true
}

// finish lays out item, which a later item's start ended and which is
// the item at index i that it followed, through its end, when the item is
// still the one paragraph it followed on the same lines and nothing was
// taken in speculatively; its lines then end s.lines, which held them
// as the last frame showed them. It reports false otherwise, having done
// nothing. buf is the parse of the text from offset from of the source.
func (it *itemPara) finish(s *Stream, item ast.Node, i, from int, buf []byte) bool {
	if it == nil || it.index != i || it.pf.approx {
		return false
	}
	p := item.FirstChild()
	if p == nil || p != item.LastChild() || p.Kind() != ast.KindParagraph && p.Kind() != ast.KindTextBlock || p.Lines().Len() != it.lines {
		return false
	}
	end := from + p.Lines().At(it.lines-1).Stop
	if end < it.pf.q || end > len(s.src) {
		return false
	}
	it.finishAt(s, end)
	return true
}

// finishAt lays the item out through source offset end, where its one
// paragraph ends; its lines then end s.lines.
func (it *itemPara) finishAt(s *Stream, end int) {
	it.pf.advance(s, end, s.opts.Theme.Text)
	if f := it.pf.f; it.out < len(f.out) {
		s.lines = it.prefix(f.appendLines(s.lines[:it.fixed], it.out, len(f.out)), it.fixed, it.out)
		it.fixed, it.out = len(s.lines), len(f.out)
	}
	n := it.fixed
	s.lines = it.prefixFrame(it.pf.display(s.lines[:it.fixed]), n, it.out)
}

// sibling reports whether line, the start of a line after an item whose
// content starts at column col, starts the next item of this list: it is
// indented less than col (and under four columns), and its marker is the
// list's, followed by a space and content that cannot make it a rule.
func (o *openList) sibling(line []byte, col int) bool {
	t := bytes.TrimLeft(line, " ")
	indent := len(line) - len(t)
	if indent >= col || indent > 3 || len(t) == 0 {
		return false
	}
	i := 0
	if o.ordered {
		for i < len(t) && i < 10 && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == 0 || i > 9 || i >= len(t) || t[i] != o.delim {
			return false
		}
	} else if t[0] != o.delim {
		return false
	}
	i++
	rest := bytes.TrimLeft(t[i:], " \t")
	if len(rest) == len(t[i:]) || len(rest) == 0 || rest[0] == '\n' {
		return false
	}
	return len(bytes.Trim(t, " \t\n-*_")) > 0
}

// prefix puts the item's marker or indent before lines[from:], the
// paragraph's lines from its line k on.
func (it *itemPara) prefix(lines []render.Line, from, k int) []render.Line {
	return it.prefixInto(lines, from, k, nil)
}

// prefixFrame is prefix for lines the next frame replaces: their spans
// go to storage kept from frame to frame.
func (it *itemPara) prefixFrame(lines []render.Line, from, k int) []render.Line {
	it.shown = it.shown[:0]
	return it.prefixInto(lines, from, k, &it.shown)
}

func (it *itemPara) prefixInto(lines []render.Line, from, k int, spare *[]render.Span) []render.Line {
	ls := lines[from:]
	if len(ls) == 0 {
		return lines
	}
	ind := render.Span{Text: it.indent}
	if k == 0 {
		// The marker goes before the paragraph's first line alone.
		prefixedWidths(ls, render.Span{Text: it.marker, Style: it.style}, ind, it.marker, it.indent, &it.widths, spare)
	} else {
		// The indent before every line: its widths are the rest's.
		w := prefixWidths{it.widths[1], it.widths[1]}
		prefixedWidths(ls, ind, ind, it.indent, it.indent, &w, spare)
		for e := range w[1] {
			it.widths[1][e] = max(w[0][e], w[1][e])
		}
	}
	return lines
}

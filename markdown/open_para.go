package markdown

import (
	"bytes"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"

	"github.com/quire-sh/quire/render"
)

// openPara continues a top-level paragraph as it grows. Its inline text
// is laid out in a flow (wrap.go) that keeps every line it emitted: the
// text up to a cut point is in the flow for good, and only the window
// after it is parsed and placed again on each chunk. A cut point lies
// after a space, before a character that shows as itself, where nothing
// before it can still pair with text after it: no unclosed code span,
// link bracket, raw HTML or delimiter run that can open emphasis. The
// inlines after such a point parse alone as they do in the whole
// paragraph, so the lines stay exactly Render's.
//
// An opener that stays unclosed (emphasis that never ends) would make the
// window, and so every chunk, grow without bound. Once the window is
// longer than ageOut, the flow takes it in up to its last cut point
// regardless: the opener is then laid out as the text it is so far, and
// if a closer comes after all, the paragraph shows it only once it ends
// (doc.go: a frame may differ so).
//
// Lines are checked as they arrive: a blank line ends the paragraph, and
// a line that could interrupt it or change it (a list item, a heading
// underline, a table's delimiter row) is parsed with the line before it
// to see whether it does, unless its start already rules that out
// (textStart, noInterruptingTag); either way the tail is then laid out
// whole.
type openPara struct {
	pf      paraFlow
	top     int // index in s.lines of the paragraph's first line
	fixed   int // s.lines[:fixed] stay: the lines the flow emitted
	first   int // source offset where the paragraph's first line starts
	checked int // source offset before which every line continues the paragraph
	prev    int // start of the last line before checked
	settled int // start of a line found to continue the paragraph however it ends
	scanned int // how far the line at checked is known to hold no newline
}

// paraFlow is a paragraph's inlines laid out as they arrive: the flow
// holds the text before q for good (its first kept pieces) and the
// window after q, parsed and placed again each time.
type paraFlow struct {
	f    *flow
	kept int // pieces of f before q
	q    int // source offset where the window starts
	// approx is set once a window went into the flow past an opener
	// (ageOut): the lines may then differ from Render's until a full
	// layout of the paragraph.
	approx bool
	// word is set while the window continues a word that went into the
	// flow as its own text (longer than ageOut): it is not parsed.
	word bool
	// pending are labels the text before q looked up and found nowhere.
	pending map[string]bool
	closing bool // the window being parsed is the paragraph's last
	raw     bool // a plainBlock: its text is shown as it is
	// refs are the definitions windows are parsed with (nil: the frozen
	// part's).
	refs []parser.Reference
	// lastEnd is where the window last laid out ended, and lastPC and
	// lastP its parse's lookups (lastPC nil: it was plain text).
	lastEnd int
	lastPC  *refContext
	lastP   ast.Node
	// shown holds display's lines, and pieces the window's, from frame
	// to frame: what the flow keeps is copied out of them.
	shown struct {
		out   [][]render.Span
		joins []render.Join
		spans []render.Span
	}
	pieces [2]piece
	text   []byte
	// A plain paragraph's (raw) flow holds its text up to source offset
	// stable; partial is how the unfinished character after it shows,
	// if one does (see open_plain.go).
	stable  int
	partial piece
}

// ageOut is the window length past which unclosed openers stop holding
// text out of the flow; once one did in a paragraph (its frames may
// differ from Render's until it ends anyway), ageAgain is. Parsing a
// window again costs each chunk time proportional to the window, so a
// paragraph full of openers that never close ("[a]( [b]( ...") would
// otherwise cost each chunk ageOut/2 bytes of parsing on average.
const (
	ageOut   = 256
	ageAgain = 64
)

// ageLimit is the window length past which openers age out.
func (pf *paraFlow) ageLimit() int {
	if pf.approx {
		return ageAgain
	}
	return ageOut
}

func newOpenPara(s *Stream, t *tailRender, p ast.Node, top int) openBlock {
	if t.para == nil || p.Lines().Len() == 0 {
		return nil
	}
	first := p.Lines().At(0)
	if mayDefine(t.buf[lineStart(t.buf, first.Start):]) {
		return nil // it may turn out to start with link reference definitions
	}
	o := &openPara{top: top, settled: -1}
	o.pf.start(s, t.pc, p, t.para, absStart(t, t.para.cut))
	if o.pf.raw = p.Kind() == kindPlain; o.pf.raw {
		o.pf.startPlain()
	}
	// The lines the flow has emitted stay as the full render drew them.
	o.fixed = top + len(o.pf.f.out)
	end := s.shown
	o.first = lineStart(s.src, absStart(t, p.Lines().At(0).Start))
	o.checked = o.first + bytes.LastIndexByte(s.src[o.first:end], '\n') + 1
	o.prev = max(lineStart(s.src, max(o.checked-1, 0)), o.first)
	if !o.extend(s, end) {
		return nil
	}
	return o
}

// startPara follows, without parsing it, a paragraph that starts where
// the frozen text ends, after a blank line, when the text after that so
// far is one unfinished line that starts with a character no block but a
// paragraph starts with (nor a link reference definition: see mayDefine).
// It lays the paragraph out as newOpenPara would from a layout of the
// tail; for any other text it returns nil, having done nothing.
func startPara(s *Stream, shown int) openBlock {
	tail := s.src[s.base:shown]
	if len(tail) == 0 || len(tail) >= maxInlineLine || tail[0] <= ' ' || s.state.fence != nil || s.state.afterText ||
		bytes.IndexByte(tail, '\n') >= 0 || mayInterrupt(tail) || mayDefine(tail) {
		return nil
	}
	s.lines = s.lines[:s.frozen]
	if s.state.emitted && !s.opts.tight {
		s.lines = append(s.lines, render.Line{}) // the blank line between blocks
	}
	top := len(s.lines)
	o := &openPara{top: top, fixed: top, first: s.base, checked: s.base, prev: s.base, settled: -1}
	o.pf = paraFlow{f: s.newFlow(s.opts.Width), q: s.base}
	if !o.extend(s, shown) {
		s.lines = s.lines[:s.frozen]
		return nil
	}
	return o
}

func (o *openPara) extend(s *Stream, shown int) bool {
	if !o.pf.raw && shown-o.first > maxInline {
		return false // over the inline budget: a plainBlock from now on
	}
	ok, end := o.structure(s, shown)
	if !ok {
		if end >= 0 && !o.pf.approx {
			o.freeze(s, end)
		}
		return false
	}
	o.pf.advance(s, shown, s.opts.Theme.Text)
	s.approx = o.pf.approx
	f := o.pf.f
	// Lines the flow emitted for good.
	if n := o.fixed - o.top; n < len(f.out) {
		s.lines = f.appendLines(s.lines[:o.fixed], n, len(f.out))
		o.fixed = len(s.lines)
	}
	// The rest, as it stands now.
	s.lines = o.pf.display(s.lines[:o.fixed])
	s.held = -1
	return true
}

// start sets pf up from a full layout's paraStart of paragraph p, whose
// cut is at source offset q of the stream.
func (pf *paraFlow) start(s *Stream, pc *refContext, p ast.Node, st *paraStart, q int) {
	pf.f, pf.kept, pf.q = st.f, st.kept, q
	pf.note(s, pc, p, st.cut)
}

// advance takes the window up to shown in: it lays the window out and
// moves what it can of it into the flow for good.
func (pf *paraFlow) advance(s *Stream, shown int, base render.Style) {
	if pf.raw {
		pf.advancePlain(s, shown, base)
		return
	}
	win := s.src[pf.q:shown]
	f := pf.f
	long := len(win) > ageOut || f.inWord || pf.word
	if !isWord(win) {
		pf.word = false // the word ended
	}
	ps, cut, ok := pf.window(win, base)
	aged := false
	var inert bool
	if !ok {
		ps, inert = pf.inertTail(s, shown, base)
	}
	if !inert {
		pf.lastPC = nil
	}
	switch {
	case ok, inert:
	case long && isWord(win) && cleanText(string(win)) == string(win):
		// One word longer than ageOut (no space in it, so no cut point)
		// is not parsed: parsing it again on every chunk would cost each
		// chunk time proportional to the word, and goldmark takes more
		// than linear time on some (80 KB of "[a](").
		ps = []piece{{text: string(win), style: base}}
	default:
		ps, cut, aged = pf.parseWindow(s, win, base)
	}
	pf.lastEnd = shown
	pf.kept -= f.compact()
	f.truncate(pf.kept)
	from := len(f.buf)
	f.add(ps)
	switch {
	case cut.text > 0:
		pf.kept = f.split(from + cut.text)
		f.place(from + cut.text)
		pf.q += cut.src
		pf.approx = pf.approx || aged
	case long && string(f.buf[from:]) == string(win):
		// One word longer than ageOut, shown as its own text: its full
		// lines go in for good (doc.go: a frame may differ so). A
		// plainBlock shows it so anyway: its lines are Render's.
		f.place(len(f.buf) - 1)
		if at := f.placeLong(); at > from {
			pf.kept = f.split(at)
			pf.q += at - from
			pf.word = isWord(win)
			pf.approx = pf.approx || !pf.raw
		}
	}
}

// isWord reports whether win holds no white space, so no cut point.
func isWord(win []byte) bool {
	for _, c := range win {
		switch c {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			return false
		}
	}
	return len(win) > 0
}

// isBlank reports whether line holds only blanks (spaces, tabs, CR, VT,
// FF), as goldmark's blank line does; it stops at the first other byte.
func isBlank(line []byte) bool {
	for _, c := range line {
		switch c {
		case ' ', '\t', '\r', '\v', '\f':
		default:
			return false
		}
	}
	return true
}

// display appends to out the lines of the paragraph after those the
// flow emitted for good, as the text stands.
func (pf *paraFlow) display(out []render.Line) []render.Line {
	// The lines' spans are kept from frame to frame: the next frame
	// replaces these lines (Lines() is valid until the next call).
	pf.shown.spans = pf.shown.spans[:0]
	if pf.raw {
		if l, ok := pf.plainLine(&pf.shown.spans); ok {
			return append(out, l)
		}
	}
	g := *pf.f
	// Emitted lines go to slices of their own, kept from frame to frame:
	// appending to the flow's would copy all of its lines whenever they
	// are full.
	g.out, g.joins = pf.shown.out[:0], pf.shown.joins[:0]
	g.spare = &pf.shown.spans
	if pf.partial.text != "" {
		g.add([]piece{pf.partial})
	}
	g.finish()
	pf.shown.out, pf.shown.joins = g.out, g.joins
	return g.appendLines(out, 0, len(g.out))
}

// structure checks the lines from o.checked on; false means the text no
// longer just continues the paragraph, and then end, unless -1, is where
// a blank line ends it: the paragraph is over and can freeze.
func (o *openPara) structure(s *Stream, shown int) (ok bool, end int) {
	for p := o.checked; p < shown; {
		// The line's start was searched for a newline before: only what
		// came since is (a line can be 100 KB long).
		from := max(p, o.scanned)
		nl := bytes.IndexByte(s.src[from:shown], '\n')
		complete := nl >= 0
		e := shown
		if complete {
			e = from + nl
		} else {
			o.scanned = shown
		}
		line := s.src[p:e]
		// Measured as overBudget does (a top-level paragraph's content is
		// its lines), a complete line with its newline: past either
		// budget the paragraph is a plainBlock from now on.
		if n := e - p; !o.pf.raw && (n > maxInlineLine || complete && n+1 > maxInlineLine) {
			return false, -1
		}
		if isBlank(line) {
			if complete {
				return false, p // a blank line ends the paragraph
			}
			return true, -1 // a blank line in the making shows nothing yet
		}
		if p != o.settled && (p == o.first && mayInterrupt(line) || p != o.first && mayInterruptParagraph(line)) {
			if textStart(line) || p != o.first && noInterruptingTag(line) {
				o.settled = p // its start already rules every block out
			} else if !o.continues(s, line, p == o.first) {
				return false, -1
			}
			if decided(line) {
				o.settled = p // more of this line cannot change that
			}
		}
		if !complete {
			return true, -1
		}
		o.prev, o.checked, p = p, e+1, e+1
	}
	return true, -1
}

// freeze lays out the paragraph, which a blank line at end closed, as it
// stands, and freezes it with the blank line: the flow's lines are then
// Render's (o.approx is not set).
func (o *openPara) freeze(s *Stream, end int) {
	pf := &o.pf
	win := s.src[pf.q:end]
	f := pf.f
	if pf.raw {
		pf.advancePlain(s, end, s.opts.Theme.Text) // all of it: the text ends with a line break
	} else if pf.lastEnd <= end && len(bytes.TrimSpace(s.src[pf.lastEnd:end])) == 0 && (pf.lastPC == nil || s.ctx.windowOf == pf) {
		// The last frame laid out this text (and at most blanks that end
		// it): the flow holds its pieces after pf.kept already.
		if pf.lastPC != nil {
			pf.note(s, pf.lastPC, pf.lastP, len(win))
		}
	} else if ps, ok := pf.inertTail(s, end, s.opts.Theme.Text); ok {
		pf.note(s, pf.lastPC, pf.lastP, len(win))
		f.truncate(pf.kept)
		f.add(ps)
	} else {
		ps, _, ok := pf.window(win, s.opts.Theme.Text)
		if !ok {
			pf.closing = true
			ps, _, _ = pf.parseWindow(s, win, s.opts.Theme.Text)
		}
		f.truncate(pf.kept)
		f.add(ps)
	}
	n := len(f.out)
	s.lines = f.appendLines(s.lines[:o.fixed], o.fixed-o.top, n)
	whole := *f
	whole.out, whole.joins = nil, nil
	whole.finish()
	s.lines = whole.appendLines(s.lines, 0, len(whole.out))
	s.freezeOpen(end+bytes.IndexByte(s.src[end:], '\n')+1, false, pf.pending, nil)
	s.dropFlow(f)
}

// note adds to pf.pending the labels that block p looked up before
// offset end of its parse and that nothing defines.
func (pf *paraFlow) note(s *Stream, pc *refContext, p ast.Node, end int) {
	for _, l := range pc.lookupsOf(p) {
		if k := l.label; l.block == p && l.at < end && !s.state.refKeys[k] {
			if pf.pending == nil {
				pf.pending = map[string]bool{}
			}
			pf.pending[k] = true
		}
	}
}

// mayDefine reports whether a paragraph whose text starts at text could
// still turn out to start with a link reference definition: it opens with
// a label ("[", then no unescaped "[" up to a "]"; goldmark sets no
// length limit here) followed by ":", or the text ends before that is
// refuted.
// goldmark would split such a paragraph, so only a paragraph the text
// has refuted this for can be continued by an openPara; one that starts
// with "[a](" or "[Enter] to" is continued like any other.
func mayDefine(text []byte) bool {
	i := 0
	for i < len(text) && i < 3 && text[i] == ' ' {
		i++
	}
	if i == len(text) {
		return true
	}
	if text[i] != '[' {
		return false
	}
	blank := true
	for i++; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text):
			i++
			blank = false
		case c == '[':
			return false
		case c == ']':
			if blank {
				return false
			}
			return i+1 == len(text) || text[i+1] == ':'
		case c != ' ' && c != '\t' && c != '\n' && c != '\r':
			blank = false
		}
	}
	return true
}

// mayInterrupt reports whether a line might not simply continue a
// paragraph: what it starts with could open a block, underline a
// heading or make a table's delimiter row.
func mayInterrupt(line []byte) bool {
	i := 0
	for i < len(line) && i < 4 && line[i] == ' ' {
		i++
	}
	if i >= 4 {
		return false // indented: continuation text
	}
	if i == len(line) || line[i] == '\t' {
		return true
	}
	switch c := line[i]; c {
	case '#', '>', '-', '+', '*', '=', '_', '`', '~', '<', '|', ':':
		return true
	default:
		return c >= '0' && c <= '9'
	}
}

// mayInterruptParagraph is mayInterrupt for a line after a paragraph's
// first, where fewer lines can start a block: a fence needs three
// backticks or tildes, a heading a space after its marks, and an ordered
// list must start at 1 to interrupt a paragraph (CommonMark 5.3).
func mayInterruptParagraph(line []byte) bool {
	if !mayInterrupt(line) {
		return false
	}
	t := bytes.TrimLeft(line, " ")
	run := 0
	for run < len(t) && t[run] == t[0] {
		run++
	}
	switch c := t[0]; {
	case c == '`' || c == '~':
		return run >= 3 || run == len(t)
	case c == '#':
		return run <= 6 && (run == len(t) || t[run] == ' ' || t[run] == '\t')
	case c >= '0' && c <= '9':
		d := 0
		for d < len(t) && t[d] >= '0' && t[d] <= '9' {
			d++
		}
		n := string(bytes.TrimLeft(t[:d], "0"))
		if d == len(t) { // more digits may come
			return n == "" || n == "1"
		}
		return n == "1"
	}
	return true
}

// textStart reports whether the start of line, which mayInterrupt
// flags, already rules out every block that could interrupt a paragraph
// or change it, whatever follows: the run of the marker character it
// starts with is followed by a character that no list item, heading,
// rule, heading underline or table delimiter row has there ("**bold",
// "-->", "#5", "1.5"). Lines opening with '<', '>', a fence or a tab are
// never decided here.
func textStart(line []byte) bool {
	t := bytes.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) == 0 {
		return false
	}
	c := t[0]
	run := 0
	for run < len(t) && t[run] == c {
		run++
	}
	if run == len(t) {
		return false // more of the run may come
	}
	next := t[run]
	switch c {
	case '*', '-', '+', '_', '=', '#', '|', ':':
		// A list item's marker is followed by a blank, a heading's
		// marks by a blank, and a rule, an underline or a delimiter row
		// holds nothing but its characters, blanks, '|', ':' and '-'.
		return next > ' ' && next != '|' && next != ':' && next != '-'
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		d := 0
		for d < len(t) && t[d] >= '0' && t[d] <= '9' {
			d++
		}
		switch {
		case d == len(t):
			return false
		case t[d] != '.' && t[d] != ')':
			return true // no list marker
		case d+1 == len(t):
			return false
		}
		return t[d+1] > ' '
	}
	return false
}

// noInterruptingTag reports whether line, which starts with '<' after at
// most three spaces, already rules out every HTML block that can
// interrupt a paragraph (CommonMark's kinds 1 to 6), whatever follows: its
// tag name is whole and none of theirs, or is followed by a character
// that cannot end theirs ("<a<a", "<divx", "<p-1"), or no more of the
// name can make it one of theirs ("<spa", "<x"). Comments,
// declarations and processing instructions are never decided here.
func noInterruptingTag(line []byte) bool {
	t := bytes.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 2 || t[0] != '<' {
		return false
	}
	i := 1
	if t[i] == '/' {
		i++
	}
	n := i
	for n < len(t) && (t[n] >= 'a' && t[n] <= 'z' || t[n] >= 'A' && t[n] <= 'Z' || t[n] >= '0' && t[n] <= '9') {
		n++
	}
	if n == len(t) {
		// More of the name may come: decided only if no name it could
		// become is one of theirs.
		name := strings.ToLower(string(t[i:n]))
		for b := range blockTags {
			if strings.HasPrefix(b, name) {
				return false
			}
		}
		return true
	}
	if n == i && (t[n] == '!' || t[n] == '?') {
		return false // a comment, declaration or processing instruction
	}
	switch t[n] {
	case ' ', '\t', '\r', '\n', '\v', '\f', '>', '/':
		return !blockTags[strings.ToLower(string(t[i:n]))]
	}
	return true
}

// blockTags are the tag names of HTML blocks that can interrupt a
// paragraph: CommonMark's kind 1 and kind 6 (goldmark leaves "source"
// out; a name too many only costs a parse).
var blockTags = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`pre script style textarea
		address article aside base basefont blockquote body caption center col colgroup dd details
		dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6
		head header hr html iframe legend li link main menu menuitem meta nav noframes ol optgroup
		option p param search section source summary table tbody td tfoot th thead title tr track ul`) {
		m[n] = true
	}
	return m
}()

// decideLen is how much of a line decides whether it interrupts a
// paragraph, once it holds a character no line-long construct (rule,
// heading underline, delimiter row) is made of: list markers, heading
// marks, fences and HTML tag names are shorter.
const decideLen = 32

// decided reports whether the line's first decideLen bytes decide what
// it is, whatever follows. A line that opens like a backtick fence is
// never decided early: a backtick later on the line makes it no fence
// (fewer than three backticks make none to begin with).
func decided(line []byte) bool {
	t := bytes.TrimLeft(line, " ")
	if len(t) < decideLen || bytes.HasPrefix(t, []byte("```")) {
		return false
	}
	return len(bytes.Trim(t[:decideLen], " \t-=*_|:")) > 0
}

// continues parses a line behind a line of text (and, when it could be a
// table's delimiter row, the paragraph's line before it, its header) and
// reports whether all stay one paragraph. The paragraph's first line is
// parsed as the tail starts, alone.
func (o *openPara) continues(s *Stream, line []byte, first bool) bool {
	if decided(line) {
		line = line[:len(line)-len(bytes.TrimLeft(line, " "))+decideLen]
	}
	buf := append(make([]byte, 0, 64), "x\n"...)
	switch {
	case first:
		buf = buf[:0]
	case isDelimiterCandidate(line) && o.prev < o.checked:
		buf = append(buf, s.src[o.prev:o.checked]...)
	}
	buf = append(buf, line...)
	doc := s.scratch().parse(s.parser, capNesting(buf), s.state.refs)
	b := doc.FirstChild()
	return b != nil && b == doc.LastChild() && b.Kind() == ast.KindParagraph
}

// isDelimiterCandidate reports whether line could be a table's delimiter
// row.
func isDelimiterCandidate(line []byte) bool {
	return len(bytes.Trim(line, " \t|-:")) == 0 && bytes.IndexByte(line, '-') >= 0
}

// window lays out a window without parsing it when it can: it is plain
// text, or the paragraph is a plainBlock.
func (pf *paraFlow) window(win []byte, base render.Style) ([]piece, windowCut, bool) {
	if !pf.raw {
		return plainWindow(win, base)
	}
	var cut windowCut
	pf.text, cut = appendPlainText(pf.text[:0], win)
	if len(pf.text) == 0 {
		return nil, windowCut{}, true
	}
	// Sanitising the two sides of the cut apart keeps the cut's offset
	// right (the cut follows a space, a character boundary).
	text := string(pf.text)
	head := cleanText(text[:cut.text])
	tail := cleanText(text[cut.text:])
	cut.text = len(head)
	pf.pieces = [2]piece{{text: head, style: base}, {text: tail, style: base}}
	ps := pf.pieces[:]
	if head == "" {
		ps = ps[1:]
	}
	return ps, cut, true
}

// inertTail lays out the window up to shown without parsing it when the
// last frame parsed the window up to pf.lastEnd and the text since then
// is inert: text that nothing before it can pair with and that changes
// nothing before it. It holds no character that opens, closes or
// escapes a construct, no line break but at its end (dropped, as the
// blanks that end it are: the window's end is the paragraph's to
// goldmark), and, with the last word before it, nothing an autolink,
// entity or e-mail address is made of; and the window's last character
// shows as itself whatever follows (or is a ']' that no '(' or '['
// follows). The window's pieces are then the last frame's and the text's,
// as goldmark would lay them out. It returns the pieces, in the stream's
// storage, and no cut point: a window longer than the age limit is
// parsed, so that its openers age out.
func (pf *paraFlow) inertTail(s *Stream, shown int, base render.Style) ([]piece, bool) {
	f := pf.f
	if pf.lastPC == nil || s.ctx.windowOf != pf || pf.word || f.inWord || pf.raw ||
		pf.lastEnd <= pf.q || pf.lastEnd > shown || shown-pf.q > pf.ageLimit() || len(f.ps) <= pf.kept {
		return nil, false
	}
	if c := s.src[pf.lastEnd-1]; !stableChar(c) && c != ']' {
		return nil, false
	}
	add := bytes.TrimRight(s.src[pf.lastEnd:shown], " \t\n")
	if len(add) == 0 || bytes.ContainsAny(add, "`*_~[]<>&\\!()@\x00\r\n\t\v\f") ||
		render.NeedsSanitize(unsafe.String(unsafe.SliceData(add), len(add))) {
		return nil, false
	}
	w := pf.lastEnd
	for w > pf.q && s.src[w-1] != ' ' && s.src[w-1] != '\n' {
		w--
	}
	word := s.src[w:pf.lastEnd]
	if bytes.ContainsAny(word, "&@:") || bytes.Contains(add, []byte("www.")) || bytes.Contains(add, []byte("://")) ||
		add[0] != ' ' && (bytes.Contains(word, []byte("ww")) || bytes.HasSuffix(word, []byte("w")) || add[0] == ':') {
		return nil, false
	}
	ps := append(s.ctx.pieces[:0], f.ps[pf.kept:]...)
	ps = append(ps, piece{text: string(add), style: base})
	s.ctx.pieces = ps[:0]
	return ps, true
}

// windowCut is where the flow may take the window in: text offset in the
// window's pieces, source offset in the window.
type windowCut struct{ text, src int }

// plainWindow lays out a window that holds nothing but plain text (no
// character that could start or end an inline construct, no URL, no hard
// line break) the way goldmark would: lines joined by a space, their
// leading blanks and the paragraph's trailing ones dropped. Its cut is
// the start of the last word. ok is false when the window is not plain.
func plainWindow(win []byte, base render.Style) (ps []piece, cut windowCut, ok bool) {
	if len(win) > 0 && (win[0] == '*' || win[0] == '_' || win[0] == '~') && len(bytes.Trim(win, string(win[:1]))) == 0 {
		// One run of a delimiter alone: nothing before it is open (the
		// window starts at a cut) and nothing after it yet, so it is text.
		return []piece{{text: string(win), style: base}}, cut, true
	}
	if bytes.ContainsAny(win, "`*_~[]<>&\\!\x00\r\v\f@") || bytes.Contains(win, []byte("www.")) || bytes.Contains(win, []byte("://")) {
		return nil, cut, false
	}
	text, cut, ok := joinLines(make([]byte, 0, len(win)), win, true)
	if !ok {
		return nil, windowCut{}, false // a hard break
	}
	s := string(text)
	if render.Sanitize(s) != s {
		return nil, windowCut{}, false
	}
	if s == "" {
		return nil, windowCut{}, true
	}
	return []piece{{text: s, style: base}}, cut, true
}

// parseWindow parses the window as paragraph text and lays its inlines
// out. cut is the last cut point before which nothing is left open, or,
// when there is none and the window has grown past ageOut, the last cut
// point at all (aged).
func (pf *paraFlow) parseWindow(s *Stream, win []byte, base render.Style) (ps []piece, cut windowCut, aged bool) {
	if s.inline == nil {
		s.inline = countingParser{newInlineParser(), &s.parsed}
	}
	// A copy in the stream's storage: goldmark may write past a line's
	// end, and nothing keeps the parse's bytes once it is laid out.
	s.ctx.win = append(s.ctx.win[:0], win...)
	buf := capNesting(s.ctx.win)
	refs := pf.refs
	if refs == nil {
		refs = s.state.refs
	}
	// The stream's context for windows, made fresh for every window:
	// lastPC is the only one kept from a window's parse, and a stream
	// has one open block, so one paraFlow, at a time (freeze checks).
	pc := &s.ctx.window
	s.ctx.windowOf = pf
	p := s.ctx.quick.quickParagraph(buf, pc, refs)
	if p != nil {
		s.parsed += len(buf)
	} else {
		p = pc.parse(s.inline, buf, refs).FirstChild()
	}
	pf.lastPC, pf.lastP = pc, p
	if p == nil {
		return nil, cut, false
	}
	defer func() { pf.note(s, pc, p, cut.src) }()
	r := docRenderer(buf, &s.opts, &s.opts.Theme, s.lexers)
	// The pieces go to the stream's storage: the flow copies them.
	ps, safe, any := r.paragraphCuts(s.ctx.pieces[:0], p, base)
	s.ctx.pieces = ps[:0]
	switch {
	case pf.closing:
		cut = windowCut{len(win), len(win)} // the whole window: the paragraph is over
	case safe.text > 0:
		cut = safe
	case len(win) > pf.ageLimit() && any.text > 0:
		cut, aged = any, true
	}
	return ps, cut, aged
}

// paragraphCuts lays out paragraph p's inlines and finds its cut points:
// safe is the last one before which nothing is left open, any the last
// one at all (zero when there is none). Source offsets are r.src's. The
// pieces are appended to ps.
func (r *renderer) paragraphCuts(ps []piece, p ast.Node, base render.Style) (_ []piece, safe, any windowCut) {
	buf := r.src
	sc := openScan{src: buf}
	afterSpace := false
	textLen := 0 // length of the pieces so far
	next := -1   // source offset where c starts, when it follows a space
	litEnd := -1 // source offset where the literal text before c ends
	for c := p.FirstChild(); c != nil; c = c.NextSibling() {
		from := len(ps)
		ps = r.inline(ps, c, base, "")
		t, isText := c.(*ast.Text)
		if !isText && afterSpace && next >= 0 {
			// A construct (code span, emphasis, link...) after a space
			// starts a cut point: the text's start is white space to it
			// as the space was, and it is closed, so nothing after it
			// changes how it or anything before it shows.
			k := windowCut{textLen, next}
			any = k
			if !sc.open {
				safe = k
			}
		}
		next = -1
		lit := isText && from < len(ps) && ps[from].text == string(buf[t.Segment.Start:t.Segment.Stop])
		if lit {
			v := buf[t.Segment.Start:t.Segment.Stop]
			for j := range v {
				at := j == 0 && afterSpace || j > 0 && v[j-1] == ' '
				if at && v[j] != ' ' {
					// Past ageOut any word start will do (doc.go).
					k := windowCut{textLen + j, t.Segment.Start + j}
					any = k
					if !sc.open && stableChar(v[j]) {
						safe = k
					}
				} else if (j > 0 || litEnd == t.Segment.Start) && opensHere(buf, t.Segment.Start+j) {
					// So will the start of an opener inside a word of
					// literal text: it starts the next window, where it
					// pairs with its closer if one comes, and the text
					// before it shows as itself (its last character is
					// one whatever follows). A word of openers that never
					// close ("<a<a<a...", "[a]([a](...") is then parsed a
					// few bytes at a time, not a line at a time.
					any = windowCut{textLen + j, t.Segment.Start + j}
				}
				sc.scan(t.Segment.Start + j)
			}
		} else {
			sc.scanNode(c)
		}
		litEnd = -1
		if isText {
			next = nodeAfter(buf, t)
			if lit && !t.SoftLineBreak() && !t.HardLineBreak() {
				litEnd = t.Segment.Stop
			}
		}
		for _, q := range ps[from:] {
			textLen += len(q.text)
		}
		if n := len(ps); n > from {
			last := ps[n-1].text
			afterSpace = len(last) > 0 && last[len(last)-1] == ' '
		} else if isText && t.SoftLineBreak() {
			afterSpace = true
		}
	}
	return ps, safe, any
}

// nodeAfter returns the source offset where the inline after text t
// starts when white space separates them (t ends with a space, or with a
// soft line break and the next line's indentation), or -1.
func nodeAfter(buf []byte, t *ast.Text) int {
	e := t.Segment.Stop
	switch {
	case t.HardLineBreak():
		return -1
	case t.SoftLineBreak():
		for e < len(buf) && (buf[e] == ' ' || buf[e] == '\t' || buf[e] == '\r') {
			e++
		}
		if e == len(buf) || buf[e] != '\n' {
			return -1
		}
		e++
		for e < len(buf) && (buf[e] == ' ' || buf[e] == '\t') {
			e++
		}
		return e
	case e > t.Segment.Start && buf[e-1] == ' ':
		return e
	}
	return -1
}

// openParagraph lays out the tail's last block, a paragraph, as block
// does, and keeps the flow as it stood at the paragraph's last safe cut
// point, for an openPara to go on from there.
func (r *renderer) openParagraph(p ast.Node, width int) ([]render.Line, *paraStart) {
	ps, safe, _ := r.paragraphCuts(nil, p, r.theme.Text)
	f := newFlow(width)
	f.add(ps)
	st := &paraStart{}
	if safe.text > 0 {
		st.kept = f.split(safe.text)
		f.place(safe.text)
		st.cut = safe.src
	} else if p.Lines().Len() > 0 {
		st.cut = p.Lines().At(0).Start
	}
	snap := *f
	st.f = &snap
	f.finish()
	return f.lines(0, len(f.out)), st
}

// openPlain lays the tail's last block, a plainBlock, out as block does,
// and keeps the flow as it stood before its last word.
func (r *renderer) openPlain(p *plainBlock, width int) ([]render.Line, *paraStart) {
	src := r.plainSource(p)
	out, cut := plainText(src)
	f := newFlow(width)
	st := &paraStart{}
	if len(out) > 0 {
		head := cleanText(string(out[:cut.text]))
		f.add([]piece{{text: head, style: r.theme.Text}, {text: cleanText(string(out[cut.text:])), style: r.theme.Text}})
		if cut.text > 0 {
			st.kept = 1
			f.place(len(head))
		}
	}
	// Source offsets of a top-level plainBlock's lines are the text's.
	st.cut = p.Lines().At(0).Start + cut.src
	snap := *f
	st.f = &snap
	f.finish()
	return f.lines(0, len(f.out)), st
}

// paraStart is where an openPara starts from: the flow with the pieces
// before the cut (source offset in the render's buffer) kept.
type paraStart struct {
	f    *flow
	kept int
	cut  int
}

// opensHere reports whether literal text has, at src[i] after literal
// text at src[i-1], an opener that
// nothing before it pairs with or changes: '<' or '[', or "![", after a
// character that shows as itself (not an escape, a '!' or a delimiter
// whose flanking the opener decides), or a '[' after a '['.
func opensHere(src []byte, i int) bool {
	switch {
	case src[i-1] == '[' && src[i] == '[':
		return true // a label holds no '[', so nothing pairs across "[["
	case !stableChar(src[i-1]):
		return false
	case src[i] == '<' || src[i] == '[':
		return true
	}
	return src[i] == '!' && i+1 < len(src) && src[i+1] == '['
}

// stableChar reports whether a character shows as itself whatever comes
// after it, so that it can follow a cut point.
func stableChar(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '`', '*', '_', '~', '[', ']', '<', '>', '!', '&', '\\':
		return false
	}
	return true
}

// openScan follows, through the literal text of a paragraph's inlines,
// whether something is still open that text after it could close: a
// backtick run, a '[' no ']' has closed, a '<' that may start a tag or
// autolink, or a delimiter run that can open emphasis or strikethrough.
type openScan struct {
	src      []byte
	brackets int  // '[' not closed yet
	parens   int  // inside "](...": the destination and title of a link
	label    bool // inside "][...": the label of a full reference link
	labelAt  int  // offset of the '[' that opened the label
	opener   bool // an opener other than those is left
	open     bool // any of them
	runEnd   int  // end of the delimiter run last looked at
	paren    int  // offset of the '(' that set parens
}

// scan looks at the literal character at src[i].
func (sc *openScan) scan(i int) {
	c := sc.src[i]
	if i > 0 && sc.src[i-1] == '\\' {
		return // escaped (goldmark keeps the backslash in the text)
	}
	if i == sc.paren && sc.parens == 1 {
		return // the '(' that set parens
	}
	switch c {
	case '`':
		sc.opener = true
	case '(':
		if sc.parens > 0 {
			sc.parens++
		}
	case ')':
		if sc.parens > 0 {
			sc.parens--
		}
	case '[':
		switch {
		case !sc.label:
			sc.brackets++
		case i != sc.labelAt:
			// A label holds no '[': the one that opened it opens a
			// link text instead, and so does this one ("[x][[x]").
			sc.label = false
			sc.brackets += 2
		}
	case ']':
		switch {
		case sc.label:
			sc.label = false
		case sc.brackets > 0:
			sc.brackets--
			// What follows may yet make a link of it.
			if i+1 < len(sc.src) && sc.src[i+1] == '(' {
				sc.parens, sc.paren = 1, i+1
			} else if i+1 < len(sc.src) && sc.src[i+1] == '[' {
				sc.label, sc.labelAt = true, i+1
			}
		}
	case '<':
		if i+1 >= len(sc.src) || isTagStart(sc.src[i+1]) {
			sc.opener = true
		}
	case '*', '~', '_':
		if i >= sc.runEnd {
			e := i
			for e < len(sc.src) && sc.src[e] == c {
				e++
			}
			sc.runEnd = e
			if canOpen(sc.src, i) {
				sc.opener = true
			}
		}
	}
	sc.open = sc.opener || sc.brackets > 0 || sc.parens > 0 || sc.label
}

// scanNode scans every literal character under n, but not the content
// of code spans, raw HTML and autolinks, which nothing can pair with.
func (sc *openScan) scanNode(n ast.Node) {
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		switch c.Kind() {
		case ast.KindCodeSpan, ast.KindRawHTML, ast.KindAutoLink:
			return ast.WalkSkipChildren, nil
		}
		if t, ok := c.(*ast.Text); ok && entering {
			for i := t.Segment.Start; i < t.Segment.Stop; i++ {
				sc.scan(i)
			}
		}
		return ast.WalkContinue, nil
	})
}

func isTagStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!' || c == '?'
}

// canOpen reports whether the delimiter character at src[i] belongs to a
// run that can open emphasis or strikethrough (see flanks).
func canOpen(src []byte, i int) bool {
	c := src[i]
	s, e := i, i
	for s > 0 && src[s-1] == c {
		s--
	}
	for e < len(src) && src[e] == c {
		e++
	}
	open, _ := flanks(src, s, e)
	return open
}

// flanks reports whether the run of '*', '_' or '~' at src[s:e] can open
// and can close emphasis, by CommonMark's flanking rules as goldmark's
// parser.ScanDelimiter applies them: from the characters on either side
// (the text's ends count as white space), with '_' unable to open or
// close inside a word.
func flanks(src []byte, s, e int) (open, close bool) {
	before, after := ' ', ' '
	if s > 0 {
		before, _ = utf8.DecodeLastRune(src[:s])
	}
	if e < len(src) {
		after, _ = utf8.DecodeRune(src[e:])
	}
	beforePunct, beforeSpace := util.IsPunctRune(before), util.IsSpaceRune(before)
	afterPunct, afterSpace := util.IsPunctRune(after), util.IsSpaceRune(after)
	left := !afterSpace && (!afterPunct || beforeSpace || beforePunct)
	right := !beforeSpace && (!beforePunct || afterSpace || afterPunct)
	if src[s] == '_' {
		return left && (!right || beforePunct), right && (!left || afterPunct)
	}
	return left, right
}

package markdown

import (
	"bytes"
	"slices"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/quire-sh/quire/render"
)

// Stream renders a markdown document that arrives in chunks. Rendering
// is lazy: Append only records the chunk, and the next Lines or Frozen
// lays out what changed: the text after the last checkpoint, or only the
// new part of a long block that is still open (see open.go). Everything
// before the checkpoint is frozen. The contract (doc.go states it in
// full): after Finish, Lines() equals Render(Source()); before it,
// Lines() equals Render(ShownPrefix(Source())) except where doc.go's
// freezing rule says a frame may differ; frozen lines change only when a
// link reference definition arrives for a label they used (Revisions).
//
// A Stream is not safe for concurrent use.
type Stream struct {
	opts   Options
	parser parser.Parser
	inline parser.Parser // newInlineParser, made on first use
	lexers *lexerSet

	src      []byte
	lastLine lastLines // src's last lines, for hold-back
	finished bool
	dirty    bool // src or finished changed since the last render

	lines  []render.Line // frozen lines, then the tail's
	frozen int           // len of the frozen prefix of lines
	base   int           // bytes of src behind the frozen lines
	state  tailState
	// held is where a held-back unfinished line starts: a line of an open
	// code fence or a table row (-1: none). Until that line ends, or gains
	// a character that could make it a closing fence, more of it changes
	// nothing on screen.
	held int
	// shown is the end of the text the last render showed (-1 after
	// Finish): Lines() depends on nothing else.
	shown int

	// open continues the layout of the tail's last block while it grows
	// (nil: the next render lays the whole tail out).
	open openBlock
	// approx is set while a frame differs from Render(ShownPrefix(...))
	// the way doc.go allows (a deferred table re-layout, a paragraph
	// window); tests read it.
	approx bool

	late lateRefs
	// After Finish, the definitions in the tail the last render laid out
	// (they never froze) and the labels that tail looked up and found
	// nowhere before it: what a stream nested in a quote (open_quote.go)
	// hands the enclosing one when the quote freezes.
	tailDefs   []parser.Reference
	tailLabels []string
	// ctx are parse contexts reused from parse to parse, one for each
	// use whose lookups are read before its next parse: the tail's
	// layout, an open list's or table's, a paragraph's window (windowOf
	// is the paraFlow that parsed in it last), and any other (see
	// scratch); pieces and win are storage for a window's pieces and
	// bytes, and flow is a flow no block uses any more, for the next
	// paragraph or list item (newFlow).
	ctx struct {
		tail, open, window, spare refContext
		windowOf                  *paraFlow
		pieces                    []piece
		win                       []byte
		flow                      *flow
		quick                     quickNodes // the nodes of quick window parses
	}
	// parsed counts the bytes the stream parsed (with goldmark, or with
	// quickParagraph); tests read it to check that parsing stays
	// proportional to the text.
	parsed int
}

// NewStream starts an empty stream.
func NewStream(opts Options) *Stream {
	s := newStream(opts, newLexerSet())
	s.parser = countingParser{newParser(), &s.parsed}
	return s
}

// newStream starts an empty stream that highlights with lx and has no
// parser yet: a stream nested in another (innerStream) takes the outer
// one's rather than building its own for every quote and list item.
func newStream(opts Options, lx *lexerSet) *Stream {
	s := &Stream{
		opts:   opts.normalized(),
		lexers: lx,
		state:  tailState{refKeys: map[string]bool{}},
		held:   -1,
		late:   lateRefs{pending: map[string][]int{}},
	}
	if s.opts.Cwd != "" && s.opts.fileLinks == nil {
		s.opts.fileLinks = &fileLinks{}
	}
	return s
}

// countingParser adds the length of every text it parses to *n.
type countingParser struct {
	parser.Parser
	n *int
}

func (p countingParser) Parse(r text.Reader, opts ...parser.ParseOption) ast.Node {
	*p.n += len(r.Source())
	return p.Parser.Parse(r, opts...)
}

// scratch returns the stream's context for a parse whose context is
// dropped before the next parse in it.
func (s *Stream) scratch() *refContext { return &s.ctx.spare }

// newFlow returns an empty flow, made of the storage of the last one
// dropFlow was given if there is one.
func (s *Stream) newFlow(width int) *flow {
	f := s.ctx.flow
	if f == nil {
		return newFlow(width)
	}
	s.ctx.flow = nil
	*f = flow{width: max(width, 1), state: -1,
		ps: f.ps[:0], starts: f.starts[:0], buf: f.buf[:0], out: f.out[:0], joins: f.joins[:0]}
	return f
}

// dropFlow takes f, which nothing uses any more, for the next newFlow.
// The lines it emitted keep their spans; a flow whose strings alias its
// text (owned) is left alone.
func (s *Stream) dropFlow(f *flow) {
	if f != nil && !f.owned {
		s.ctx.flow = f
	}
}

// Append adds a chunk of text. Appending after Finish reopens the stream
// (hold-back applies again).
func (s *Stream) Append(chunk string) {
	if chunk == "" && !s.finished {
		return
	}
	appendChunk(s, chunk)
}

// appendChunk is Append for a chunk that is not empty, which a stream
// nested in a quote takes as a slice of the enclosing stream's text.
func appendChunk[T string | []byte](s *Stream, chunk T) {
	if n := len(s.src) + len(chunk); n > cap(s.src) {
		// Doubling, where append grows a long slice by a quarter: a long
		// answer would otherwise be copied a few dozen times.
		s.src = append(make([]byte, 0, max(2*cap(s.src), n, 256)), s.src...)
	}
	s.src = append(s.src, chunk...)
	s.lastLine.feed(s.src)
	s.finished = false
	s.dirty = true
}

// Finish declares the text complete: held-back suffixes are rendered for
// what they are.
func (s *Stream) Finish() {
	s.finished = true
	s.dirty = true
}

// Lines returns the current lines: the frozen ones followed by the tail.
// The slice is valid until the next call of any Stream method; callers
// must not modify it. Lines()[:Frozen()] change only as Revisions says.
func (s *Stream) Lines() []render.Line {
	s.sync()
	return s.lines[:len(s.lines):len(s.lines)]
}

// Frozen returns how many leading lines are final: no later text changes
// them, except a link reference definition for a label they looked up
// without finding it (Revisions reports those), so a caller can commit
// them to scrollback.
func (s *Stream) Frozen() int {
	s.sync()
	return s.frozen
}

// Source returns all text appended so far.
func (s *Stream) Source() string { return string(s.src) }

// FrozenSource returns how many leading bytes of Source() are behind
// frozen lines.
func (s *Stream) FrozenSource() int {
	s.sync()
	return s.base
}

func (s *Stream) sync() {
	if s.dirty {
		s.dirty = false
		s.update()
	}
}

func (s *Stream) update() {
	shown := len(s.src)
	if !s.finished {
		// The frozen part always ends before anything held back; the max
		// only guards that promise.
		shown = max(shownLen(s.src, &s.lastLine), s.base)
		if shown == s.shown {
			return // only held-back text arrived
		}
		if s.held >= 0 && shown >= s.held && !bytes.ContainsAny(s.src[s.held:shown], "\n`~") {
			return // the same unfinished line, still held back
		}
		prev := s.shown
		s.shown = shown
		if s.open != nil && shown > prev && prev >= 0 {
			if s.open.extend(s, shown) {
				return
			}
		}
		if s.continueCode(shown) {
			return
		}
	} else {
		s.shown = -1
	}
	s.open = nil
	s.approx = false
	if !s.finished {
		if s.open = startPara(s, shown); s.open != nil {
			return
		}
	}
	res := renderTail(s.parser, &s.ctx.tail, s.lexers, s.src[s.base:shown], &s.opts, s.state, true, !s.finished)
	res.t.base = s.base
	s.lines = append(s.lines[:s.frozen], res.lines...)
	s.held = -1
	if res.held >= 0 {
		s.held = s.base + res.held
	}
	if res.cpSrc > 0 {
		s.freeze(res)
	}
	if s.finished {
		var refs []parser.Reference
		var keys []string
		for _, b := range res.t.blocks {
			for _, d := range definitions(b) {
				if k := refKey(d.Label); !s.state.refKeys[k] && !slices.Contains(keys, k) {
					refs = append(refs, keepRef(d))
					keys = append(keys, k)
				}
			}
		}
		s.tailDefs, s.tailLabels = refs, s.tailLabels[:0]
		for _, b := range res.t.blocks {
			for _, k := range res.t.pc.labels(b) {
				if !s.state.refKeys[k] {
					s.tailLabels = append(s.tailLabels, k)
				}
			}
		}
		s.late.finish(s, refs, keys)
		return
	}
	s.open = newOpenBlock(s, res)
}

// freezeOpen freezes, for an open block that the new text proved over,
// every line in s.lines and the text up to end; the text after end
// follows a non-blank line when afterText is set. pending are labels the
// frozen blocks looked up and found nowhere, defs the definitions they
// hold.
func (s *Stream) freezeOpen(end int, afterText bool, pending map[string]bool, defs []parser.Reference) {
	var labels []string
	for k := range pending {
		if !s.state.refKeys[k] {
			labels = append(labels, k)
		}
	}
	if len(labels) > 0 {
		slices.Sort(labels)
		s.late.record(frozenStretch{
			src: s.base, end: end, line: s.frozen, lines: len(s.lines) - s.frozen,
			fence: s.state.fence, afterText: s.state.afterText, emitted: s.state.emitted,
		}, labels)
	}
	s.frozen = len(s.lines)
	s.base = end
	s.state.fence = nil
	s.state.afterText = afterText
	if s.frozen > 0 {
		s.state.emitted = true
	}
	s.held = -1
	var defined []string
	for _, d := range defs {
		if k := refKey(d.Label()); !s.state.refKeys[k] {
			s.state.refKeys[k] = true
			s.state.refs = append(s.state.refs, d)
			defined = append(defined, k)
		}
	}
	s.late.defined(s, defined)
}

// freeze moves the checkpoint to the end of res's frozen part.
func (s *Stream) freeze(res tailResult) {
	if len(res.pending) > 0 {
		s.late.record(frozenStretch{
			src: s.base, end: s.base + res.segSrc,
			line: s.frozen, lines: res.segLines,
			fence: s.state.fence, afterText: s.state.afterText, emitted: s.state.emitted,
		}, res.pending)
	}
	s.frozen += res.cpLines
	s.base += res.cpSrc
	s.state.fence = res.fence
	s.state.afterText = res.afterText
	if s.frozen > 0 {
		s.state.emitted = true
	}
	var defined []string
	for _, d := range res.refs {
		k := refKey(d.Label)
		if !s.state.refKeys[k] {
			s.state.refKeys[k] = true
			s.state.refs = append(s.state.refs, keepRef(d))
			defined = append(defined, k)
		}
	}
	s.late.defined(s, defined)
}

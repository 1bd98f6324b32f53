package markdown

import (
	"fmt"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// newParser builds the goldmark parser: CommonMark plus the GFM
// extensions, plus an observer that attributes every reference-label
// lookup to the top-level block it happens in. The parser holds no
// per-document state and may be reused.
func newParser() parser.Parser {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	p := md.Parser()
	p.AddOptions(parser.WithInlineParsers(util.Prioritized(refObserver{}, 199)))
	// Around the table transformer (200): the line budget before it, so
	// that no row is over it, the size budget after (see plain.go).
	p.AddOptions(parser.WithParagraphTransformers(
		util.Prioritized(budget{lines: true}, 150),
		util.Prioritized(budget{}, 300)))
	return p
}

// newInlineParser builds a parser that knows paragraphs only, with
// newParser's inline parsers: every text becomes paragraphs (split at
// blank lines) whose inlines parse as in a full document. A stream parses
// the new part of an open paragraph with it (open_para.go).
func newInlineParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(util.Prioritized(parser.NewParagraphParser(), 1000)),
		parser.WithInlineParsers(append(parser.DefaultInlineParsers(),
			util.Prioritized(extension.NewLinkifyParser(), 999),
			util.Prioritized(extension.NewStrikethroughParser(), 500),
			util.Prioritized(refObserver{}, 199))...),
	)
}

// refContext is the parse context: goldmark's parser.Context, written
// here so that a stream can reuse one from parse to parse (a stream
// parses a few dozen bytes on most chunks, and a fresh goldmark context
// costs more than such a parse) and can look frozen definitions up in an
// index it builds once rather than once per parse. It also records which
// link labels each top-level block looked up. A later definition of such
// a label would change how that block renders, so the stream must not
// freeze the block until the label's first definition is itself frozen.
type refContext struct {
	// values holds what parsers store by key (goldmark's own context,
	// used for that alone: it knows which key marks a link label).
	values       parser.Context
	known        *refIndex                   // the frozen definitions
	refs         map[string]parser.Reference // those the parsed text adds
	blockOffset  int
	blockIndent  int
	firstDelim   *parser.Delimiter
	lastDelim    *parser.Delimiter
	openedBlocks []parser.Block

	current ast.Node // top-level block whose inlines are being parsed
	at      int      // source offset of the ']' being parsed
	lookups []lookup // in the order goldmark made them
	// spans indexes lookups by block (see lookupsOf), made for
	// lookups[:indexed].
	spans   map[ast.Node][2]int
	indexed int
	// para measures the last paragraph that stayed within the inline
	// budgets (plain.go).
	para paraMeasure
}

// refIndex is a list of frozen definitions keyed by label, earlier ones
// winning. It is never changed once built: contexts share it.
type refIndex struct {
	of   []parser.Reference
	byID map[string]parser.Reference
}

// indexFor returns an index of refs: idx itself when it was built from
// the same list.
func indexFor(idx *refIndex, refs []parser.Reference) *refIndex {
	if len(refs) == 0 {
		return nil
	}
	if idx != nil && len(idx.of) == len(refs) && &idx.of[0] == &refs[0] {
		return idx
	}
	n := &refIndex{of: refs, byID: make(map[string]parser.Reference, len(refs))}
	for _, r := range refs {
		if k := refKey(r.Label()); n.byID[k] == nil {
			n.byID[k] = r
		}
	}
	return n
}

// reset makes c a fresh context whose known definitions are refs.
func (c *refContext) reset(refs []parser.Reference) {
	if c.values == nil {
		c.values = parser.NewContext()
	} else {
		for k := range parser.ContextKeyMax + 1 {
			c.values.Set(k, nil)
		}
	}
	c.known = indexFor(c.known, refs)
	clear(c.refs)
	c.blockOffset, c.blockIndent = -1, -1
	c.firstDelim, c.lastDelim = nil, nil
	if c.openedBlocks == nil {
		c.openedBlocks = []parser.Block{}
	}
	c.openedBlocks = c.openedBlocks[:0]
	c.current, c.at = nil, 0
	c.lookups = c.lookups[:0]
	c.spans, c.indexed = nil, 0
	c.para = paraMeasure{}
}

func (c *refContext) String() string { return fmt.Sprintf("refContext{%d lookups}", len(c.lookups)) }

func (c *refContext) Get(k parser.ContextKey) any    { return c.values.Get(k) }
func (c *refContext) Set(k parser.ContextKey, v any) { c.values.Set(k, v) }
func (c *refContext) IsInLinkLabel() bool            { return c.values.IsInLinkLabel() }

func (c *refContext) ComputeIfAbsent(k parser.ContextKey, f func() any) any {
	return c.values.ComputeIfAbsent(k, f)
}

// IDs makes heading IDs; no parser here asks for them.
func (c *refContext) IDs() parser.IDs { return c.values.IDs() }

func (c *refContext) BlockOffset() int                  { return c.blockOffset }
func (c *refContext) SetBlockOffset(v int)              { c.blockOffset = v }
func (c *refContext) BlockIndent() int                  { return c.blockIndent }
func (c *refContext) SetBlockIndent(v int)              { c.blockIndent = v }
func (c *refContext) OpenedBlocks() []parser.Block      { return c.openedBlocks }
func (c *refContext) SetOpenedBlocks(v []parser.Block)  { c.openedBlocks = v }
func (c *refContext) FirstDelimiter() *parser.Delimiter { return c.firstDelim }
func (c *refContext) LastDelimiter() *parser.Delimiter  { return c.lastDelim }

func (c *refContext) LastOpenedBlock() parser.Block {
	if n := len(c.openedBlocks); n > 0 {
		return c.openedBlocks[n-1]
	}
	return parser.Block{}
}

// PushDelimiter appends d to the delimiter list.
func (c *refContext) PushDelimiter(d *parser.Delimiter) {
	if c.lastDelim == nil {
		c.firstDelim = d
	} else {
		c.lastDelim.NextDelimiter = d
		d.PreviousDelimiter = c.lastDelim
	}
	c.lastDelim = d
}

// RemoveDelimiter takes d out of the list and out of the tree: what is
// left of its run (Length characters) stays as text.
func (c *refContext) RemoveDelimiter(d *parser.Delimiter) {
	prev, next := d.PreviousDelimiter, d.NextDelimiter
	if prev == nil {
		c.firstDelim = next
	} else {
		prev.NextDelimiter = next
	}
	if next == nil {
		c.lastDelim = prev
	} else {
		next.PreviousDelimiter = prev
	}
	d.PreviousDelimiter, d.NextDelimiter = nil, nil
	if d.Length != 0 {
		ast.MergeOrReplaceTextSegment(d.Parent(), d, d.Segment)
	} else {
		d.Parent().RemoveChild(d.Parent(), d)
	}
}

// ClearDelimiters removes the delimiters among the inlines from the last
// delimiter back to bottom (not included).
func (c *refContext) ClearDelimiters(bottom ast.Node) {
	if c.lastDelim == nil {
		return
	}
	var n ast.Node = c.lastDelim
	for n != nil && n != bottom {
		prev := n.PreviousSibling()
		if d, ok := n.(*parser.Delimiter); ok {
			c.RemoveDelimiter(d)
		}
		n = prev
	}
}

func (c *refContext) AddReference(r parser.Reference) {
	k := refKey(r.Label())
	if _, ok := c.lookup(k); ok {
		return
	}
	if c.refs == nil {
		c.refs = map[string]parser.Reference{}
	}
	c.refs[k] = r
}

func (c *refContext) lookup(k string) (parser.Reference, bool) {
	if c.known != nil {
		if r, ok := c.known.byID[k]; ok {
			return r, true
		}
	}
	r, ok := c.refs[k]
	return r, ok
}

func (c *refContext) References() []parser.Reference {
	var out []parser.Reference
	if c.known != nil {
		for _, r := range c.known.byID {
			out = append(out, r)
		}
	}
	for _, r := range c.refs {
		out = append(out, r)
	}
	return out
}

// lookup is one label a top-level block looked up, normalised, and the
// source offset of the ']' that did.
type lookup struct {
	block ast.Node
	label string
	at    int
}

// labels returns the labels block b looked up.
func (c *refContext) labels(b ast.Node) []string {
	var out []string
	for _, l := range c.lookupsOf(b) {
		if l.block == b {
			out = append(out, l.label)
		}
	}
	return out
}

// lookupsOf returns a run of c.lookups that holds every lookup block b
// made, in order; it may hold other blocks' too, which callers skip.
func (c *refContext) lookupsOf(b ast.Node) []lookup {
	if len(c.lookups) <= 16 {
		// A window's few: looking through them beats indexing them.
		return c.lookups
	}
	// goldmark parses the inlines of one top-level block after another,
	// so each block's lookups are one run of c.lookups.
	if c.spans == nil || c.indexed != len(c.lookups) {
		c.spans, c.indexed = map[ast.Node][2]int{}, len(c.lookups)
		for i, l := range c.lookups {
			r, ok := c.spans[l.block]
			if !ok {
				r[0] = i
			}
			r[1] = i + 1
			c.spans[l.block] = r
		}
	}
	r := c.spans[b]
	return c.lookups[r[0]:r[1]]
}

// Reference records the lookup before answering it.
func (c *refContext) Reference(label string) (parser.Reference, bool) {
	if c.current != nil {
		c.lookups = append(c.lookups, lookup{c.current, label, c.at})
	}
	return c.lookup(label)
}

// refObserver runs just before goldmark's link parser at every ']' and
// notes the enclosing top-level block; it never consumes input.
type refObserver struct{}

func (refObserver) Trigger() []byte { return []byte{']'} }

func (refObserver) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if rc, ok := pc.(*refContext); ok {
		rc.current = topLevel(parent)
		_, seg := block.Position()
		rc.at = seg.Start
	}
	return nil
}

// topLevel returns n's ancestor that is a direct child of the document.
func topLevel(n ast.Node) ast.Node {
	for n != nil && n.Parent() != nil && n.Parent().Kind() != ast.KindDocument {
		n = n.Parent()
	}
	return n
}

// parseDoc parses src with the given frozen reference definitions
// already known (earlier definitions win, as in CommonMark).
func parseDoc(p parser.Parser, src []byte, frozen []parser.Reference) (ast.Node, *refContext) {
	pc := &refContext{}
	return pc.parse(p, src, frozen), pc
}

// parse parses src in c, made fresh, with the given frozen definitions:
// what c held from an earlier parse is gone.
func (c *refContext) parse(p parser.Parser, src []byte, frozen []parser.Reference) ast.Node {
	c.reset(frozen)
	return p.Parse(text.NewReader(src), parser.WithContext(c))
}

// definitions lists the link reference definitions inside n, in order.
func definitions(n ast.Node) []*ast.LinkReferenceDefinition {
	var out []*ast.LinkReferenceDefinition
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if d, ok := c.(*ast.LinkReferenceDefinition); ok {
			out = append(out, d)
			return ast.WalkSkipChildren, nil
		}
		if c.Type() == ast.TypeInline {
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// frozenRef is a reference definition kept after its source was frozen.
type frozenRef struct{ label, dest, title []byte }

func (r frozenRef) String() string      { return string(r.label) }
func (r frozenRef) Label() []byte       { return r.label }
func (r frozenRef) Destination() []byte { return r.dest }
func (r frozenRef) Title() []byte       { return r.title }
func refKey(label []byte) string        { return util.ToLinkReference(label) }
func keepRef(d *ast.LinkReferenceDefinition) parser.Reference {
	return frozenRef{label: clone(d.Label), dest: clone(d.Destination), title: clone(d.Title)}
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

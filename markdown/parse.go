package markdown

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"math"
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

// refContext wraps goldmark's parse context to record which link labels
// each top-level block looked up. A later definition of such a label
// would change how that block renders, so the stream must not freeze the
// block until the label's first definition is itself frozen.
type refContext struct {
	parser.Context
	current ast.Node // top-level block whose inlines are being parsed
	at      int      // source offset of the ']' being parsed
	lookups []lookup // in the order goldmark made them
	// spans indexes lookups by block (see labelsBefore), made for
	// lookups[:indexed].
	spans   map[ast.Node][2]int
	indexed int
	// para measures the last paragraph that stayed within the inline
	// budgets (plain.go).
	para paraMeasure
}

// lookup is one label a top-level block looked up, normalised, and the
// source offset of the ']' that did.
type lookup struct {
	block ast.Node
	label string
	at    int
}

// labels returns the labels block b looked up.
func (c *refContext) labels(b ast.Node) []string { return c.labelsBefore(b, math.MaxInt) }

// labelsBefore returns the labels block b looked up before source offset
// end.
func (c *refContext) labelsBefore(b ast.Node, end int) []string {
	if len(c.lookups) == 0 {
		return nil
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
	var out []string
	for _, l := range c.lookups[r[0]:r[1]] {
		if l.block == b && l.at < end {
			out = append(out, l.label)
		}
	}
	return out
}

func newRefContext(frozen []parser.Reference) *refContext {
	c := &refContext{Context: parser.NewContext()}
	for _, r := range frozen {
		c.AddReference(r)
	}
	return c
}

// Reference records the lookup before answering it.
func (c *refContext) Reference(label string) (parser.Reference, bool) {
	if c.current != nil {
		c.lookups = append(c.lookups, lookup{c.current, label, c.at})
	}
	return c.Context.Reference(label)
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
	pc := newRefContext(frozen)
	doc := p.Parse(text.NewReader(src), parser.WithContext(pc))
	return doc, pc
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

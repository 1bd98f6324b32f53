package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/quire-sh/quire/render"
)

// maxDepth caps container nesting (quotes and lists). Deeper content is
// shown as plain text at the cap, so hostile input cannot make lines of
// pure indentation or unbounded recursion in the layout.
const maxDepth = 12

// minContent is the narrowest column a container will indent its
// children into; below it, prefixes stop growing.
const minContent = 8

// renderer lays out one parsed document. It is used for one call and
// holds no state across documents.
type renderer struct {
	src    []byte
	theme  *Theme
	cwd    string
	links  *fileLinks // nil: ask the file system for every code span
	depth  int
	lexers *lexerSet
	// dropLastLine leaves out the unfinished last line of the fenced
	// block or table being rendered (stream hold-back).
	dropLastLine bool
	// itemEnds holds, after a top-level list is laid out, the line after
	// each of its items (a stream keeps the items it will not redo).
	itemEnds []int
	// base is the depth of the document's own blocks (Options.depth).
	base int
	// tight: the document's blocks are joined without blank lines
	// (Options.tight).
	tight bool
}

// docRenderer is the renderer of a document laid out with opts: src's
// blocks at opts' depth, spaced as opts says, code spans linked through
// opts' memory of them, code highlighted by lx.
func docRenderer(src []byte, opts *Options, theme *Theme, lx *lexerSet) *renderer {
	return &renderer{src: src, theme: theme, cwd: opts.Cwd, links: opts.fileLinks, lexers: lx,
		depth: opts.depth, base: opts.depth, tight: opts.tight}
}

// block renders one block node at the given width.
func (r *renderer) block(n ast.Node, width int) []render.Line {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return wrapLines(r.inlines(n, r.theme.Text), width)
	case *ast.Heading:
		return r.heading(n, width)
	case *ast.ThematicBreak:
		rule := render.Plain(strings.Repeat("─", max(width, 1)), r.theme.Rule)
		rule.Copy = render.Copy{Skip: max(width, 1), Lead: "---"}
		return []render.Line{rule}
	case *ast.FencedCodeBlock:
		return r.fenced(n, width, nil, -1).lines
	case *ast.CodeBlock:
		return r.indented(n, width, nil, -1).lines
	case *ast.Blockquote:
		return r.quote(n, width)
	case *ast.List:
		return r.list(n, width)
	case *ast.HTMLBlock:
		return r.html(n, width)
	case *east.Table:
		return r.table(n, width)
	case *ast.LinkReferenceDefinition:
		return nil
	case *plainBlock:
		return r.plainLines(n, width)
	}
	// Unknown block kinds: show their text rather than nothing.
	return r.flatten(n, width)
}

func (r *renderer) heading(n *ast.Heading, width int) []render.Line {
	lvl := min(max(n.Level, 1), 6)
	st := r.theme.Heading[lvl-1]
	ps := []piece{{text: strings.Repeat("#", lvl) + " ", style: st}}
	ps = append(ps, r.inlines(n, st)...)
	return wrapLines(ps, width)
}

// children renders a container's blocks, a blank line between them unless
// tight.
func (r *renderer) children(n ast.Node, width int, tight bool) []render.Line {
	var out []render.Line
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		ls := r.block(c, width)
		if len(ls) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, render.Line{})
		}
		out = append(out, ls...)
	}
	return out
}

// prefixed prepends first to the first line and rest to the others. A
// copy keeps a prefix as the container's lead (firstLead, restLead) on
// lines that start a source line, and leaves it out of lines that
// continue a wrapped one, so those join up.
func prefixed(ls []render.Line, first, rest render.Span, firstLead, restLead string) []render.Line {
	widths := newPrefixWidths()
	return prefixedWidths(ls, first, rest, firstLead, restLead, &widths, nil)
}

// prefixWidths holds the display widths of prefixed's prefixes, each
// measured once: [first, rest] × [full, on an empty line] (-1: not yet).
type prefixWidths [2][2]int

func newPrefixWidths() prefixWidths { return prefixWidths{{-1, -1}, {-1, -1}} }

// prefixedWidths is prefixed with the prefixes' widths kept in widths,
// for a caller that prefixes lines with the same spans again and again.
//
// With spare set, the lines' spans are appended to *spare instead of
// slices of their own, for lines the caller replaces before the storage
// is used again.
func prefixedWidths(ls []render.Line, first, rest render.Span, firstLead, restLead string, widths *prefixWidths, spare *[]render.Span) []render.Line {
	for i := range ls {
		p, lead, k := rest, restLead, 1
		if i == 0 {
			p, lead, k = first, firstLead, 0
		}
		e := 0
		if len(ls[i].Spans) == 0 {
			// No trailing blanks on empty lines: a quote keeps its bar.
			p.Text = strings.TrimRight(p.Text, " ")
			lead = strings.TrimRight(lead, " ")
			e = 1
		}
		if widths[k][e] < 0 {
			widths[k][e] = render.StringWidth(p.Text)
		}
		c := &ls[i].Copy
		c.Skip += widths[k][e]
		if c.Join == render.JoinNewline {
			c.Lead = lead + c.Lead
		}
		if p.Text == "" {
			continue
		}
		if spare != nil {
			k := len(*spare)
			*spare = append(append(*spare, p), ls[i].Spans...)
			ls[i].Spans = (*spare)[k:len(*spare):len(*spare)]
			continue
		}
		spans := make([]render.Span, 0, len(ls[i].Spans)+1)
		spans = append(spans, p)
		ls[i].Spans = append(spans, ls[i].Spans...)
	}
	return ls
}

func (r *renderer) quote(n *ast.Blockquote, width int) []render.Line {
	if r.depth >= maxDepth {
		return r.flatten(n, width)
	}
	r.depth++
	defer func() { r.depth-- }()
	bar := render.Span{Text: "│ ", Style: r.theme.QuoteBar}
	inner := width - 2
	if inner < minContent {
		inner, bar.Text = width, "│"
	}
	saved := r.theme.Text
	r.theme.Text = mergeStyle(r.theme.Text, r.theme.Quote)
	ls := r.children(n, inner, false)
	r.theme.Text = saved
	if len(ls) == 0 {
		ls = []render.Line{{}}
	}
	return prefixed(ls, bar, bar, "> ", "> ")
}

func (r *renderer) list(n *ast.List, width int) []render.Line {
	if r.depth >= maxDepth {
		return r.flatten(n, width)
	}
	r.depth++
	defer func() { r.depth-- }()
	lay := r.listLayout(n.IsOrdered(), n.Start, n.Marker, n.ChildCount(), width)
	var out []render.Line
	top := r.depth == r.base+1
	if top {
		r.itemEnds = r.itemEnds[:0]
	}
	i := 0
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		out = r.listItem(out, item, i, n.IsTight, lay)
		if top {
			r.itemEnds = append(r.itemEnds, len(out))
		}
		i++
	}
	return out
}

// listLayout is what every item of a list shares: markers, their width
// and the width left for the items' content.
type listLayout struct {
	ordered bool
	start   int
	delim   byte
	bullet  string
	markerW int
	inner   int
	indent  string
}

// listLayout lays out a list (ordered from start with delimiter delim,
// or bulleted) of items items at width; r.depth is the list's depth,
// counting it.
func (r *renderer) listLayout(ordered bool, start int, delim byte, items, width int) listLayout {
	lay := listLayout{ordered: ordered, start: start, delim: delim, markerW: 2}
	// Ordered markers share one width so that item text lines up.
	if ordered {
		last := start + items - 1
		lay.markerW = len(strconv.Itoa(max(last, start))) + 2
	} else {
		lay.bullet = bullets[(r.depth-1)%len(bullets)] + " "
	}
	lay.inner = width - lay.markerW
	lay.indent = blanks(lay.markerW)
	if lay.inner < minContent {
		lay.inner = width
	}
	return lay
}

// listItem appends item i of a list (a blank line before it unless it is
// the first or the list is tight).
func (r *renderer) listItem(out []render.Line, item ast.Node, i int, tight bool, lay listLayout) []render.Line {
	marker := lay.bullet
	if lay.ordered {
		m := strconv.Itoa(lay.start+i) + string(lay.delim)
		marker = blanks(lay.markerW-1-len(m)) + m + " "
	}
	ls := r.children(item, lay.inner, tight)
	if len(ls) == 0 {
		ls = []render.Line{{}}
	}
	if i > 0 && !tight {
		out = append(out, render.Line{})
	}
	return append(out, prefixed(ls,
		render.Span{Text: marker, Style: r.theme.ListMarker},
		render.Span{Text: lay.indent}, marker, lay.indent)...)
}

var bullets = [...]string{"•", "◦", "▪", "‣"}

func (r *renderer) html(n *ast.HTMLBlock, width int) []render.Line {
	var out []render.Line
	lines := n.Lines()
	add := func(s string) {
		s = strings.TrimRight(s, "\r\n")
		ls := wrapLines([]piece{{text: cleanText(s), style: r.theme.HTML}}, width)
		if len(ls) == 0 {
			ls = []render.Line{{}}
		}
		out = append(out, ls...)
	}
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		add(string(seg.Value(r.src)))
	}
	if n.HasClosure() {
		add(string(n.ClosureLine.Value(r.src)))
	}
	return out
}

// flatten shows a subtree's text as one plain paragraph: the fallback for
// content nested past maxDepth and for node kinds without a layout.
func (r *renderer) flatten(n ast.Node, width int) []render.Line {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(r.src))
			b.WriteByte(' ')
		case *ast.String:
			b.Write(c.Value)
			b.WriteByte(' ')
		default:
			if c.Type() == ast.TypeBlock && c.FirstChild() == nil {
				ls := c.Lines()
				for i := 0; i < ls.Len(); i++ {
					seg := ls.At(i)
					b.Write(seg.Value(r.src))
					b.WriteByte(' ')
				}
			}
		}
		return ast.WalkContinue, nil
	})
	text := strings.Join(strings.Fields(b.String()), " ")
	if text == "" {
		return nil
	}
	return wrapLines([]piece{{text: cleanText(text), style: r.theme.Text}}, width)
}

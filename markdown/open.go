package markdown

import (
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/quire-sh/quire/render"
)

// A long block that is still open (a table growing row by row, a list
// item by item, a paragraph word by word) would cost every chunk time
// proportional to the block if the tail were parsed and laid out whole
// each time. An openBlock instead parses only the block's new part,
// behind just enough context to parse it as the whole text would, and
// appends its lines to the ones it keeps. When the new text ends the
// block or turns it into something else, it hands back to a full render
// of the tail, which freezes the block (exactly, as Render lays it out)
// or starts another openBlock.

// openMin is the tail size from which a block is continued rather than
// laid out whole on every chunk.
const openMin = 256

// openBlock continues the layout of the tail's last top-level block as
// text arrives.
type openBlock interface {
	// extend brings the stream's lines up to src[:shown], which extends
	// the text the block last saw. It reports false when the new text
	// goes beyond what it can follow; the stream then lays the whole tail
	// out. Before that, a block the new text proves over may have frozen
	// itself (a paragraph at a blank line); otherwise nothing changed.
	extend(s *Stream, shown int) bool
}

// newOpenBlock returns the continuation for the block a full tail render
// left open, or nil when the tail is better laid out whole each time.
func newOpenBlock(s *Stream, res tailResult) openBlock {
	t := res.t
	if res.fence != nil || res.cut >= len(t.blocks) {
		return nil
	}
	rest := t.blocks[res.cut:]
	// Where the remaining block j's lines start in s.lines.
	at := func(j int) int { return len(s.lines) - len(res.lines) + t.first[res.cut+j] }
	if len(rest) == 1 && (rest[0].Kind() == ast.KindParagraph || rest[0].Kind() == kindPlain) {
		// Any paragraph: continuing one costs less than laying it out.
		return newOpenPara(s, t, rest[0], at(0))
	}
	if len(s.src)-s.base < openMin {
		return nil
	}
	switch b := rest[len(rest)-1].(type) {
	case *east.Table:
		if len(rest) == 2 {
			if _, ok := rest[0].(*ast.Paragraph); !ok {
				return nil
			}
		} else if len(rest) != 1 {
			return nil
		}
		return newOpenTable(s, t, b, at(len(rest)-1), rest)
	case *ast.List:
		if len(rest) == 1 {
			return newOpenList(s, t, b, at(0))
		}
	case *ast.Blockquote:
		if len(rest) == 1 {
			return newOpenQuote(s, t, b, at(0))
		}
	case *ast.HTMLBlock:
		if len(rest) == 1 {
			return newOpenHTML(s, t, b, at(0))
		}
	}
	return nil
}

// trailing lays out the blocks that follow the open block in a parse of
// its new part (doc's children after first), as renderTail would; ok is
// false when the first of them starts on a complete line, which proves
// the open block over: then the tail is laid out whole, to freeze it.
func trailing(r *renderer, doc, first ast.Node, width int) (lines []render.Line, ok bool) {
	next := first.NextSibling()
	if next == nil {
		return nil, true
	}
	ls := lineStart(r.src, startPos(next))
	for p := ls; p < len(r.src); p++ {
		if r.src[p] == '\n' {
			return nil, false
		}
	}
	for b := next; b != nil; b = b.NextSibling() {
		if bl := r.block(b, width); len(bl) > 0 {
			if !r.tight {
				lines = append(lines, render.Line{})
			}
			lines = append(lines, bl...)
		}
	}
	return lines, true
}

// absStart is the source offset in the stream of buffer offset p of a
// tail render (t.buf holds a prefix of t.off bytes before the tail, which
// started at t.base).
func absStart(t *tailRender, p int) int { return t.base + p - t.off }

// lineComplete reports whether the line starting at p in buf ends with a
// newline.
func lineComplete(buf []byte, p int) bool {
	e := lineEndAfter(buf, p)
	return e > p && buf[e-1] == '\n'
}

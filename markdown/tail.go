package markdown

import (
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"

	"github.com/quire-sh/quire/render"
)

// tailState is what the frozen part of a stream hands to the render of
// the text after it.
type tailState struct {
	// fence is set when the frozen part ends inside an open top-level code
	// fence: the tail continues that fence.
	fence *fenceState
	// refs are the link reference definitions of the frozen part, and
	// refKeys their normalised labels.
	refs    []parser.Reference
	refKeys map[string]bool
	// emitted tells whether the frozen part produced any line (the first
	// block of the tail is then preceded by a blank line).
	emitted bool
	// afterText is set when goldmark, parsing the whole text, opens the
	// tail's first block as a continuation of the line before it rather
	// than afresh. goldmark records on each block whether it "follows a
	// blank line" (which decides whether a list is loose); it says yes at
	// the start of a text, after a blank line and after a block that ended
	// itself (a closed fence or HTML block), and no when the previous line
	// ended a paragraph or rule by starting this block. For afterText the
	// tail is parsed behind a thematic break, which the next line ends in
	// that second way, so the tail sees what the whole text saw.
	afterText bool
}

// ruleLine is the line parsed before a tail that follows a non-blank line.
const ruleLine = "***\n"

// fenceState describes an open code block whose first lines are frozen:
// a fence, or an indented code block.
type fenceState struct {
	// opening is the fence's opening line, newline included, or, for
	// indented code, indentedLead.
	opening []byte
	lexer   string    // the highlighter the frozen lines used
	state   *lexState // the lexer state after the last frozen line (nil: plain text)
	// indented is set for indented code, which the tail continues behind
	// a content line of its own (the frozen lines cannot stand in: the
	// blank lines after them belong to the block only if more code
	// follows, and the tail must see them as the whole text does).
	indented bool
}

// indentedLead is the code line parsed before the tail of an indented
// code block whose first lines are frozen; it is left out of the layout.
const indentedLead = "    .\n"

// tailResult is the rendered tail and the furthest point that may be
// frozen: bytes [0, cpSrc) of the tail render to lines [0, cpLines), and
// no continuation of the text can change that.
type tailResult struct {
	lines   []render.Line
	cpSrc   int
	cpLines int
	fence   *fenceState
	refs    []*ast.LinkReferenceDefinition // definitions inside [0, cpSrc)
	// pending are the labels that blocks inside [0, cpSrc) looked up and
	// found nowhere in the text: a later definition of one of them
	// changes those blocks.
	pending []string
	// segSrc and segLines end the part the pending labels belong to: the
	// frozen part, or, when it ends inside an open code fence, the blocks
	// before the fence.
	segSrc, segLines int
	// held is where the unfinished line left out under hold starts (a
	// code line or a table row), or -1.
	held int
	// afterText is tailState.afterText for a tail starting at cpSrc.
	afterText bool
	// cut is how many of t's blocks are behind cpSrc.
	cut int
	// t is the render itself, for a stream to continue the last block
	// without parsing it again (see open.go).
	t *tailRender
}

// tailRender holds one render of a tail.
type tailRender struct {
	buf    []byte // the parsed text: the fence opening (if continuing) + tail
	off    int    // bytes of buf before the tail
	base   int    // where the tail starts in a stream's source (set by the stream)
	st     tailState
	blocks []ast.Node
	first  []int // output line where each block starts (its gap excluded)
	ends   []int // output lines after each block
	pc     *refContext
	r      *renderer
	code   codeOut    // the last block's rendering when it is a fenced code block
	para   *paraStart // the last block's flow when it is a paragraph
}

// renderTail renders src (the text after the frozen part described by st)
// and, when checkpoints is set, finds the furthest safe checkpoint.
//
// It parses in pc (nil: a new context). When hold is set, the unfinished
// last line of a trailing open code fence or table is left out (see
// ShownPrefix).
func renderTail(p parser.Parser, pc *refContext, lx *lexerSet, src []byte, opts *Options, st tailState, checkpoints, hold bool) tailResult {
	// No spare capacity: goldmark's Segment.Value appends a newline to
	// the last line in place, which would overwrite the stream's
	// held-back bytes that follow src in memory.
	t := tailRender{buf: src[:len(src):len(src)], st: st}
	var prefix []byte
	switch {
	case st.fence != nil:
		prefix = st.fence.opening
	case st.afterText:
		prefix = []byte(ruleLine)
	}
	if prefix != nil {
		t.buf = make([]byte, 0, len(prefix)+len(src))
		t.buf = append(append(t.buf, prefix...), src...)
		t.off = len(prefix)
	}
	t.buf = capNesting(t.buf)
	if pc == nil {
		pc = &refContext{}
	}
	doc := pc.parse(p, t.buf, st.refs)
	t.pc = pc
	theme := opts.Theme
	r := docRenderer(t.buf, opts, &theme, lx)
	t.r = r
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		t.blocks = append(t.blocks, c)
	}
	if st.fence == nil && st.afterText && len(t.blocks) > 0 {
		t.blocks = t.blocks[1:] // the rule parsed from ruleLine
	}
	res := tailResult{held: -1}
	emitted := st.emitted
	t.first = make([]int, len(t.blocks))
	t.ends = make([]int, len(t.blocks))
	for i, b := range t.blocks {
		continued := i == 0 && st.fence != nil
		var ls []render.Line
		if fc, ok := b.(*ast.FencedCodeBlock); ok && (continued || i == len(t.blocks)-1) {
			var cont *fenceState
			if continued {
				cont = st.fence
			}
			snap := -1
			if checkpoints && i == len(t.blocks)-1 {
				snap = t.completeLines(fc) - 1
			}
			if hold && i == len(t.blocks)-1 && t.partialCodeLine(fc) {
				r.dropLastLine = true
				segs := fc.Lines()
				res.held = lineStart(t.buf, segs.At(segs.Len()-1).Start) - t.off
			}
			t.code = r.fenced(fc, opts.Width, cont, snap)
			r.dropLastLine = false
			ls = t.code.lines
		} else if cb, ok := b.(*ast.CodeBlock); ok && (continued || i == len(t.blocks)-1) {
			var cont *fenceState
			lead := 0
			if continued {
				cont, lead = st.fence, 1
			}
			snap := -1
			if checkpoints && i == len(t.blocks)-1 {
				snap = t.codeDone(cb) - 1 - lead
			}
			if p := heldCodeLine(t.buf, cb); hold && i == len(t.blocks)-1 && p >= 0 {
				r.dropLastLine = true
				res.held = p - t.off
			}
			t.code = r.indented(cb, opts.Width, cont, snap)
			r.dropLastLine = false
			ls = t.code.lines
		} else if tb, ok := b.(*east.Table); ok && hold && i == len(t.blocks)-1 && partialRow(t.buf, tb) >= 0 {
			res.held = partialRow(t.buf, tb) - t.off
			r.dropLastLine = true
			ls = r.block(b, opts.Width)
			r.dropLastLine = false
		} else if p, ok := b.(*ast.Paragraph); ok && checkpoints && hold && i == len(t.blocks)-1 {
			ls, t.para = r.openParagraph(p, opts.Width)
		} else if p, ok := b.(*plainBlock); ok && checkpoints && hold && i == len(t.blocks)-1 {
			ls, t.para = r.openPlain(p, opts.Width)
		} else {
			ls = r.block(b, opts.Width)
		}
		if len(ls) > 0 {
			if emitted && !continued && !opts.tight {
				res.lines = append(res.lines, render.Line{})
			}
			emitted = true
		}
		t.first[i] = len(res.lines)
		res.lines = append(res.lines, ls...)
		t.ends[i] = len(res.lines)
	}
	if checkpoints {
		t.checkpoint(&res)
	}
	res.t = &t
	return res
}

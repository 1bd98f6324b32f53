package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// This file decides where a stream may freeze: which top-level blocks are
// provably over, and where an open code block may be cut line by line.

// checkpoint finds the last top-level block boundary that is final (see
// final), or a line boundary inside a trailing open code block (a fence,
// or indented code: see codeDone).
//
// A block that looked up a link label is frozen even though a definition
// of that label may still arrive (speculatively, see doc.go): the labels
// it looked up without finding them are returned in res.pending, and the
// stream lays the block out again if one of them gets defined. Only a
// label whose definition is already in the text but not yet frozen
// holds the checkpoint back, until that definition freezes (a frozen
// block is laid out with frozen definitions only).
func (t *tailRender) checkpoint(res *tailResult) {
	// Labels are looked up rarely; the maps are made only then.
	var tailDefs, defined, waiting map[string]bool // waiting: looked up, defined in the tail, not yet behind the cut
	if len(t.pc.lookups) > 0 {
		tailDefs, defined, waiting = map[string]bool{}, map[string]bool{}, map[string]bool{}
		for _, b := range t.blocks {
			for _, d := range definitions(b) {
				tailDefs[refKey(d.Label)] = true
			}
		}
	}
	finals := t.finals()
	best := -1
	var pending, cutPending []string
	for i, b := range t.blocks {
		if !finals[i] {
			break
		}
		for _, k := range t.pc.labels(b) {
			switch {
			case t.st.refKeys[k] || defined[k]:
			case tailDefs[k]:
				waiting[k] = true
			default:
				pending = append(pending, k)
			}
		}
		if defined != nil {
			for _, d := range definitions(b) {
				k := refKey(d.Label)
				defined[k] = true
				delete(waiting, k)
			}
		}
		if i+1 < len(t.blocks) && t.carved(i) {
			continue // never cut inside a paragraph goldmark split
		}
		if len(waiting) == 0 {
			best = i
			cutPending = pending[:len(pending):len(pending)]
		}
	}
	cut := func(i int) {
		for _, b := range t.blocks[:i+1] {
			res.refs = append(res.refs, definitions(b)...)
		}
		res.pending = cutPending
		res.segSrc, res.segLines = t.blockEnd(i)-t.off, t.ends[i]
		res.cut = i + 1
	}
	if best >= 0 {
		res.cpSrc = t.blockEnd(best) - t.off
		res.cpLines = t.ends[best]
		// With no block after the checkpoint yet, the next one follows a
		// blank line or a fence that ended itself: a fresh start.
		res.afterText = best+1 < len(t.blocks) && !t.blocks[best+1].HasBlankPreviousLines()
		cut(best)
	}
	// An open code block that is the last block, after only final blocks.
	k := len(t.blocks) - 1
	if k < 0 || best != k-1 {
		return
	}
	continued := k == 0 && t.st.fence != nil
	// done counts the block's content lines that may freeze; lead of
	// them are indentedLead's, which the layout leaves out.
	var done, lead int
	var lang string
	var opening []byte
	switch b := t.blocks[k].(type) {
	case *ast.FencedCodeBlock:
		done, lang = t.completeLines(b), string(b.Language(t.buf))
		if continued {
			opening = t.st.fence.opening
		} else {
			ls := lineStart(t.buf, startPos(b))
			le := bytes.IndexByte(t.buf[ls:], '\n')
			opening = clone(t.buf[ls : ls+le+1])
		}
	case *ast.CodeBlock:
		done, opening = t.codeDone(b), []byte(indentedLead)
		if continued {
			lead = 1
		}
	default:
		return
	}
	if done <= lead || !t.code.resumable || (!continued && !t.r.langDecided(lang, done)) {
		return
	}
	segs := t.blocks[k].Lines()
	res.cpSrc = segs.At(done-1).Stop - t.off
	if done-lead < len(t.code.bodyStart) {
		res.cpLines = t.first[k] + t.code.bodyStart[done-lead]
	} else {
		res.cpLines = t.ends[k] - 1 // all but the footer
	}
	_, indented := t.blocks[k].(*ast.CodeBlock)
	res.fence = &fenceState{opening: opening, lexer: t.code.lexer, state: t.code.snap, indented: indented}
	if k > 0 {
		cut(k - 1)
	}
}

// finals reports for each block whether it is final. A block that
// goldmark carved out of the same paragraph as the block after it (see
// carved) is final exactly when that one is.
func (t *tailRender) finals() []bool {
	out := make([]bool, len(t.blocks))
	for i := len(t.blocks) - 1; i >= 0; i-- {
		if i+1 < len(t.blocks) && t.carved(i) {
			out[i] = out[i+1]
			continue
		}
		out[i] = t.final(i)
	}
	return out
}

// carved reports whether blocks i and i+1 came out of one paragraph that
// goldmark split after parsing it: the lines before a table's header and
// the table, or link reference definitions and what follows them on the
// next line. Later lines can still turn that paragraph into something
// else (a setext heading), so the first part is final only with the last.
func (t *tailRender) carved(i int) bool {
	b, next := t.blocks[i], t.blocks[i+1]
	switch b.(type) {
	case *ast.Paragraph, *plainBlock:
		if next.Kind() != east.KindTable {
			return false
		}
	case *ast.LinkReferenceDefinition:
	default:
		return false
	}
	return !hasBlankLine(t.buf, lineEndAfter(t.buf, lastByte(b, t.buf)), lineStart(t.buf, startPos(next)))
}

// partialCodeLine reports whether fc (the last block) is an open fence
// whose last content line has not ended yet.
func (t *tailRender) partialCodeLine(fc *ast.FencedCodeBlock) bool {
	segs := fc.Lines()
	return segs.Len() > t.completeLines(fc) && !t.fenceClosed(fc)
}

// partialRow returns the start of tb's last row when that row is the
// unfinished last line of the text and starts with '|' (so it stays a row
// of this table however it grows), or -1. Whatever the row holds so far
// (text, a bare URL, nothing), the answer is the same, so a row is held
// back from its first '|' to its newline however it arrives.
func partialRow(buf []byte, tb *east.Table) int {
	if len(buf) == 0 || buf[len(buf)-1] == '\n' {
		return -1
	}
	ls := lineStart(buf, len(buf))
	if !heldRow(buf, ls) {
		return -1
	}
	row := tb.LastChild()
	if row == nil || row == tb.FirstChild() || row.Kind() != east.KindTableRow || row.Pos() < ls {
		return -1
	}
	return ls
}

// heldCodeLine returns where the unfinished last line of buf starts when
// it is a content line of cb, the last block, an indented code block,
// that is not blank and not its first (the block stands without it), or
// -1: a line of code is shown once it is complete (see ShownPrefix).
func heldCodeLine(buf []byte, cb *ast.CodeBlock) int {
	segs := cb.Lines()
	n := segs.Len()
	if n < 2 || len(buf) == 0 || buf[len(buf)-1] == '\n' {
		return -1
	}
	last := segs.At(n - 1)
	ls := lineStart(buf, len(buf))
	if last.Start < ls || last.Stop != len(buf) || util.IsBlank(last.Value(buf)) {
		return -1
	}
	return ls
}

// completeLines counts a code block's content lines that end in a
// newline: in a fence they stay content lines whatever follows (only an
// unfinished last line could still turn out to be the closing fence).
func (t *tailRender) completeLines(fc ast.Node) int {
	segs := fc.Lines()
	n := 0
	for n < segs.Len() {
		seg := segs.At(n)
		if seg.Stop <= 0 || seg.Stop > len(t.buf) || t.buf[seg.Stop-1] != '\n' {
			break
		}
		n++
	}
	return n
}

// codeDone counts the content lines of an indented code block that no
// continuation of the text can change: its complete lines up to the last
// one that is not blank. A blank line belongs to the block only if more
// code follows it, and an unfinished line could still turn out blank.
// The lines the code continues with are laid out after them exactly as
// in the whole text: a code line is taken on its own (its indentation
// and tabs counted from its own line start), and no later line can turn
// the block into something else.
func (t *tailRender) codeDone(cb *ast.CodeBlock) int {
	n := t.completeLines(cb)
	segs := cb.Lines()
	for n > 0 {
		seg := segs.At(n - 1)
		if !util.IsBlank(seg.Value(t.buf)) {
			break
		}
		n--
	}
	return n
}

// blockEnd is where the source after block i begins: the start of the
// next block's line, or after the last newline of the text.
func (t *tailRender) blockEnd(i int) int {
	if i+1 < len(t.blocks) {
		return lineStart(t.buf, startPos(t.blocks[i+1]))
	}
	return bytes.LastIndexByte(t.buf, '\n') + 1
}

// final reports whether no continuation of the text can change block i
// (or end it later than it ends now). Evidence is either a complete line
// that starts another top-level block, which closes every block before
// it, or a complete blank line after the block, which closes paragraphs,
// headings, tables, quotes and HTML. Lists and indented code continue
// across blank lines, so only the first kind of evidence ends them, or
// the start of a line after a blank line that can no longer continue
// them (see cannotContinue); a fenced block is also ended by its
// complete closing fence line.
func (t *tailRender) final(i int) bool {
	b := t.blocks[i]
	if i+1 < len(t.blocks) && t.nextEvidence(i) {
		return true
	}
	switch b := b.(type) {
	case *ast.List, *ast.CodeBlock:
		return i+1 < len(t.blocks) && t.cannotContinue(i)
	case *ast.FencedCodeBlock:
		return t.fenceClosed(b)
	case *ast.HTMLBlock:
		if b.HTMLBlockType <= ast.HTMLBlockType5 && !b.HasClosure() {
			return false
		}
	}
	to := len(t.buf)
	if i+1 < len(t.blocks) {
		to = lineStart(t.buf, startPos(t.blocks[i+1]))
	}
	return hasBlankLine(t.buf, lineEndAfter(t.buf, lastByte(b, t.buf)), to)
}

// cannotContinue reports whether block i+1, the successor of a list or
// an indented code block, starts on a line that, however it goes on, can
// neither continue block i nor join it: the line follows a blank line
// (so it is no lazy continuation), is not indented, and can no longer
// become an item of the same list.
func (t *tailRender) cannotContinue(i int) bool {
	ls := lineStart(t.buf, startPos(t.blocks[i+1]))
	if !hasBlankLine(t.buf, lineEndAfter(t.buf, lastByte(t.blocks[i], t.buf)), ls) || ls >= len(t.buf) {
		return false
	}
	line := t.buf[ls:]
	if c := line[0]; c == ' ' || c == '\t' || c == '\n' || c == '\r' {
		return false
	}
	l, ok := t.blocks[i].(*ast.List)
	if !ok {
		return true // indented code continues only with an indented line
	}
	at := func(j int) (byte, bool) { // line[j]; false past the text so far
		if j < len(line) {
			return line[j], true
		}
		return 0, false
	}
	spaceOrEnd := func(j int) bool {
		c, ok := at(j)
		return !ok || c == ' ' || c == '\t' || c == '\n' || c == '\r'
	}
	if !l.IsOrdered() {
		return !(line[0] == l.Marker && spaceOrEnd(1))
	}
	j := 0
	for j < len(line) && j < 10 && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	switch c, ok := at(j); {
	case j == 0 || j > 9:
		return true
	case !ok:
		return false // digits so far: a delimiter may follow
	case c != l.Marker:
		return true
	}
	return !spaceOrEnd(j + 1)
}

// nextEvidence reports whether block i+1 starts on a complete line that a
// line-by-line parse opened as a block of its own. Blocks that goldmark
// carves out of a paragraph afterwards (see carved) are no such
// evidence: the paragraph could still absorb them.
func (t *tailRender) nextEvidence(i int) bool {
	if t.carved(i) {
		return false
	}
	next := t.blocks[i+1]
	ls := lineStart(t.buf, startPos(next))
	return bytes.IndexByte(t.buf[ls:], '\n') >= 0
}

// fenceClosed reports whether a fenced block has a complete closing line.
func (t *tailRender) fenceClosed(fc *ast.FencedCodeBlock) bool {
	ls := lineStart(t.buf, startPos(fc))
	open := t.buf[ls:]
	j := 0
	for j < len(open) && j < 3 && open[j] == ' ' {
		j++
	}
	if j >= len(open) {
		return false
	}
	ch := open[j]
	n := 0
	for j+n < len(open) && open[j+n] == ch {
		n++
	}
	var next int
	if segs := fc.Lines(); segs.Len() > 0 {
		last := segs.At(segs.Len() - 1)
		if last.Stop <= 0 || t.buf[last.Stop-1] != '\n' {
			return false
		}
		next = last.Stop
	} else {
		nl := bytes.IndexByte(open, '\n')
		if nl < 0 {
			return false
		}
		next = ls + nl + 1
	}
	line := t.buf[next:]
	nl := bytes.IndexByte(line, '\n')
	if nl < 0 {
		return false
	}
	line = line[:nl]
	j = 0
	for j < len(line) && j < 3 && line[j] == ' ' {
		j++
	}
	m := 0
	for j+m < len(line) && line[j+m] == ch {
		m++
	}
	return m >= n && len(bytes.Trim(line[j+m:], " \t\r")) == 0
}

// hasBlankLine reports whether a complete whitespace-only line starts in
// [from, to); from is a line start.
func hasBlankLine(buf []byte, from, to int) bool {
	for p := from; p < to && p < len(buf); {
		nl := bytes.IndexByte(buf[p:], '\n')
		if nl < 0 {
			return false
		}
		if len(bytes.Trim(buf[p:p+nl], " \t\r")) == 0 {
			return true
		}
		p += nl + 1
	}
	return false
}

func lineStart(buf []byte, p int) int {
	p = min(max(p, 0), len(buf))
	return bytes.LastIndexByte(buf[:p], '\n') + 1
}

// lineEndAfter returns the start of the line after the one holding byte p.
func lineEndAfter(buf []byte, p int) int {
	if p < 0 {
		return 0
	}
	if p >= len(buf) {
		return len(buf)
	}
	nl := bytes.IndexByte(buf[p:], '\n')
	if nl < 0 {
		return len(buf)
	}
	return p + nl + 1
}

// startPos is the source offset where block n begins.
func startPos(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	pos := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if t, ok := c.(*ast.Text); ok {
			pos = t.Segment.Start
			return ast.WalkStop, nil
		}
		if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			pos = c.Lines().At(0).Start
			return ast.WalkStop, nil
		}
		if p := c.Pos(); p >= 0 && c != n {
			pos = p
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return max(pos, 0)
}

// lastByte is the offset of the last source byte that belongs to block
// n's content (closing lines without content, like a quote's bare '>',
// may follow it).
func lastByte(n ast.Node, buf []byte) int {
	last := n.Pos()
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if p := c.Pos(); p > last {
			last = p
		}
		switch c := c.(type) {
		case *ast.Text:
			last = max(last, c.Segment.Stop-1)
		case *ast.HTMLBlock:
			if c.HasClosure() {
				last = max(last, c.ClosureLine.Stop-1)
			}
		}
		if c.Type() == ast.TypeBlock {
			if ls := c.Lines(); ls.Len() > 0 {
				last = max(last, ls.At(ls.Len()-1).Stop-1)
			}
		}
		return ast.WalkContinue, nil
	})
	return min(last, len(buf)-1)
}

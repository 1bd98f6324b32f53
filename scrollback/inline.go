package scrollback

import "github.com/quire-sh/quire/render"

// inline is the bookkeeping of the inline (--minimal) view, which writes
// finished lines into the terminal's own scrollback exactly once: the
// first block not yet written in full, and how many of its lines (at the
// width they were written) are out.
type inline struct {
	next  int
	lines int
	live  []render.Line
}

// TakeFinished returns the lines that became final since the last call,
// in order, and marks them emitted: every line of finished blocks and the
// frozen head of the block still streaming. Blocks after one that is
// still changing wait for it, so the terminal's scrollback stays in
// transcript order. The lines are the caller's to keep. The blocks it
// and LiveLines look at are on screen, so they keep their layout (view,
// not peek): one frame lays a changed block out once, and a frame after
// no change not at all.
func (t *Transcript) TakeFinished() []render.Line {
	var out []render.Line
	in := &t.inl
	for in.next < len(t.blocks) {
		b := t.blocks[in.next]
		v := t.view(in.next)
		t.followRevisions(b, v)
		for ; in.lines < v.frozen; in.lines++ {
			var l render.Line
			v.line(in.lines, &l)
			out = append(out, l)
		}
		if !b.finished || in.lines < v.height() {
			break
		}
		// Written in full: the terminal holds its lines now, so its layout
		// is dropped, as a block scrolled out of the pager's cache is.
		t.forget(b)
		in.next++
		in.lines = 0
	}
	return out
}

// followRevisions moves the count of block b's lines the inline view
// wrote by the revisions its body made since the last call: a revised
// stretch it wrote counts as written in its new form (the terminal shows
// the old one), so the lines after it are written once.
func (t *Transcript) followRevisions(b *Block, v *blockView) {
	in := &t.inl
	for _, r := range revisionsSince(b.body, b.revs) {
		b.revs++
		wrote := in.lines - len(v.head) // body lines out
		switch {
		case r.At+r.Old <= wrote:
			in.lines += r.New - r.Old
		case r.At < wrote:
			in.lines = len(v.head) + r.At + r.New // partly out: all of it counts
		}
	}
}

// LiveLines are the lines still changing, below everything TakeFinished
// returned: the unfrozen tail of the streaming block and every block
// after it. The inline view redraws them in its pinned live region. The
// slice is reused by the next call.
func (t *Transcript) LiveLines() []render.Line {
	in := &t.inl
	n := 0
	for i := in.next; i < len(t.blocks); i++ {
		v := t.view(i)
		from := 0
		if i == in.next {
			from = in.lines
		}
		for y := from; y < v.height(); y++ {
			if n == len(in.live) {
				in.live = append(in.live, render.Line{})
			}
			v.line(y, &in.live[n])
			n++
		}
	}
	return in.live[:n]
}

// Emitted reports how far the inline view got: blocks [0, blocks) are in
// the terminal's scrollback in full, and so are the first lines lines of
// block `blocks`, if any.
func (t *Transcript) Emitted() (blocks, lines int) { return t.inl.next, t.inl.lines }

// ReflowEmitted lays out everything emitted so far again at the current
// width and returns it, for an inline view that purges and reprints its
// history after a resize. The streaming block's emitted part becomes its
// frozen head at the new width, so TakeFinished continues from there
// without losing or repeating a line.
func (t *Transcript) ReflowEmitted() []render.Line {
	var out []render.Line
	in := &t.inl
	for i := 0; i <= in.next && i < len(t.blocks); i++ {
		v := t.peek(i)
		n := v.height()
		if i == in.next {
			if in.lines == 0 {
				break
			}
			n = v.frozen
			in.lines = n
		}
		for y := 0; y < n; y++ {
			var l render.Line
			v.line(y, &l)
			out = append(out, l)
		}
	}
	return out
}

// KeepEmitted is ReflowEmitted for a terminal whose scrollback cannot be
// cleared, so the history is not printed again: it only moves the
// streaming block's emitted mark to its frozen head at the current width,
// so TakeFinished continues from there.
func (t *Transcript) KeepEmitted() {
	in := &t.inl
	if in.next < len(t.blocks) && in.lines > 0 {
		in.lines = t.peek(in.next).frozen
	}
}

package markdown

import (
	"slices"

	"github.com/yuin/goldmark/parser"

	"github.com/quire-sh/quire/render"
)

// A stream freezes a block that looked up a link label nobody has defined
// (arr[i], [Enter], [x]) as if nobody ever will: such a definition is rare
// and, when it comes, usually comes last. This file is what happens when
// one does come: the frozen stretches that looked the label up are laid
// out again (a revision), so that after Finish the lines are exactly
// Render's.

// Revision reports that lines of a stream that were frozen were laid out
// again because a link reference definition arrived after them: lines
// [At, At+Old) of the earlier Lines() are now [At, At+New), and every
// line after them moved by New-Old. Lines a caller already committed to
// the terminal's scrollback stay as they were there; a caller that keeps
// an index into the lines moves it past the revised ones.
type Revision struct {
	At, Old, New int
}

// Revisions returns every revision so far, oldest first. A caller keeps
// how many it has seen and looks at the rest.
func (s *Stream) Revisions() []Revision {
	s.sync()
	return s.late.revisions[:len(s.late.revisions):len(s.late.revisions)]
}

// frozenStretch is a stretch of the text whose blocks looked up labels
// that were defined nowhere when it froze.
type frozenStretch struct {
	src, end    int // source bytes
	line, lines int // lines of the stream
	// the tail state it was laid out from
	fence              *fenceState
	afterText, emitted bool
	stale              bool // a revision is due but waits for Finish
	into               int  // 1 + the stretch this one was merged into, or 0
}

// lateRefs keeps the segments and the labels they wait for.
type lateRefs struct {
	segs      []frozenStretch
	pending   map[string][]int // label → indexes into segs
	stale     []int
	reworked  int // source bytes laid out again by revisions
	revisions []Revision
}

// reviseBudget bounds revision work before Finish: in all, revisions lay
// out again at most as much text as the stream holds plus this many
// bytes; past that a due revision waits for Finish, so that no run of
// late definitions makes a stream quadratic.
const reviseBudget = 64 << 10

func (l *lateRefs) record(seg frozenStretch, labels []string) {
	i := len(l.segs)
	l.segs = append(l.segs, seg)
	for j, k := range labels {
		if !slices.Contains(labels[:j], k) {
			l.pending[k] = append(l.pending[k], i)
		}
	}
}

// defined revises the segments waiting for the given labels, which the
// frozen definitions now define.
func (l *lateRefs) defined(s *Stream, keys []string) {
	var todo []int
	for _, k := range keys {
		todo = append(todo, l.pending[k]...)
		delete(l.pending, k)
	}
	if len(todo) == 0 {
		return
	}
	var now []int
	for _, i := range l.live(todo) {
		seg := &l.segs[i]
		if seg.stale {
			continue
		}
		if l.reworked+seg.end-seg.src > len(s.src)+reviseBudget {
			seg.stale = true
			l.stale = append(l.stale, i)
			continue
		}
		now = append(now, i)
	}
	l.reviseAll(s, now, s.state.refs)
}

// live maps stretch indexes to the stretches they were merged into,
// sorted and without repeats.
func (l *lateRefs) live(is []int) []int {
	out := make([]int, 0, len(is))
	for _, i := range is {
		for l.segs[i].into > 0 {
			i = l.segs[i].into - 1
		}
		out = append(out, i)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// reviseAll revises the stretches is (sorted), each run of adjacent ones
// merged into one and laid out in one go.
func (l *lateRefs) reviseAll(s *Stream, is []int, refs []parser.Reference) {
	for k := 0; k < len(is); {
		a := is[k]
		k++
		for k < len(is) && is[k] == is[k-1]+1 && l.segs[is[k-1]].end == l.segs[is[k]].src {
			b := is[k]
			l.segs[a].end = l.segs[b].end
			l.segs[a].lines += l.segs[b].lines
			l.segs[b].into = a + 1
			k++
		}
		l.revise(s, a, refs)
	}
}

// finish revises, with every definition in the finished text, the
// segments that wait for a definition the unfrozen tail holds (tailRefs,
// keyed in tailKeys) and those whose revision was postponed. Labels that
// only the tail defines stay pending: reopened, the text could still
// change that definition before it freezes.
func (l *lateRefs) finish(s *Stream, tailRefs []parser.Reference, tailKeys []string) {
	refs := s.state.refs
	if len(tailRefs) > 0 {
		refs = append(refs[:len(refs):len(refs)], tailRefs...)
	}
	var todo []int
	for _, k := range tailKeys {
		todo = append(todo, l.pending[k]...)
	}
	for _, i := range l.stale {
		if l.segs[i].stale {
			todo = append(todo, i)
		}
	}
	l.stale = l.stale[:0]
	todo = l.live(todo)
	for _, i := range todo {
		l.segs[i].stale = false
	}
	l.reviseAll(s, todo, refs)
}

// revise lays segment i out again with refs and splices its lines in.
func (l *lateRefs) revise(s *Stream, i int, refs []parser.Reference) {
	seg := &l.segs[i]
	st := tailState{fence: seg.fence, afterText: seg.afterText, emitted: seg.emitted, refs: refs, refKeys: map[string]bool{}}
	for _, r := range refs {
		st.refKeys[refKey(r.Label())] = true
	}
	res := renderTail(s.parser, nil, s.lexers, s.src[seg.src:seg.end], &s.opts, st, false, false)
	l.reworked += seg.end - seg.src
	delta := len(res.lines) - seg.lines
	rest := s.lines[seg.line+seg.lines:]
	if delta != 0 {
		rest = append([]render.Line(nil), rest...)
	}
	s.lines = append(append(s.lines[:seg.line], res.lines...), rest...)
	s.frozen += delta
	l.revisions = append(l.revisions, Revision{At: seg.line, Old: seg.lines, New: len(res.lines)})
	seg.lines = len(res.lines)
	if delta != 0 {
		for j := range l.segs[i+1:] {
			l.segs[i+1+j].line += delta
		}
	}
	// Labels still undefined keep the segment waiting.
	for _, b := range res.t.blocks {
		for _, k := range res.t.pc.labels(b) {
			if !st.refKeys[k] && !slices.Contains(l.pending[k], i) {
				l.pending[k] = append(l.pending[k], i)
			}
		}
	}
	s.open = nil
}

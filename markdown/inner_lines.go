package markdown

import (
	"maps"
	"slices"

	"github.com/yuin/goldmark/parser"

	"github.com/quire-sh/quire/render"
)

// innerStream returns a stream for an open container's content, laid out
// with opts: it shares s's parsers (its parsing counts as s's, which tests
// bound) and lexers, and starts with the definitions s knows and extra
// ones (those of the container's finished part).
func (s *Stream) innerStream(opts Options, extra []parser.Reference) *Stream {
	in := newStream(opts, s.lexers)
	if s.inline == nil {
		s.inline = countingParser{newInlineParser(), &s.parsed}
	}
	in.parser, in.inline = s.parser, s.inline
	refs := slices.Clip(s.state.refs) // the inner stream appends its own
	keys := maps.Clone(s.state.refKeys)
	for _, d := range extra {
		if k := refKey(d.Label()); !keys[k] {
			keys[k] = true
			refs = append(refs, d)
		}
	}
	in.state.refs, in.state.refKeys = slices.Clip(refs), keys
	return in
}

// innerLines is what an open container that streams its content into an
// inner Stream (a quote, a list item) knows of the lines it drew from it
// in the last frame. kept counts the inner lines whose copies in s.lines
// are the last frame's; of those, the ones the inner stream had frozen
// (lastFrozen) or its open block kept for good (lastSteady, while
// lastOpen stays open) are still current, so only the lines after them
// are drawn again.
type innerLines struct {
	kept, lastFrozen, lastSteady int
	lastOpen                     openBlock
	revs                         int // inner revisions seen
	// spare holds the spans of the lines drawn that the next frame draws
	// again (see drawInner).
	spare []render.Span
}

// advance notes the inner stream's state for this frame. It returns how
// many of its lines are still as the last frame drew them (current) and
// how many the next frame will not change (stay).
func (f *innerLines) advance(in *Stream) (current, stay int) {
	current = f.lastFrozen
	if in.open != nil && in.open == f.lastOpen {
		current = max(current, f.lastSteady)
	}
	f.lastFrozen, f.lastOpen, f.lastSteady = in.frozen, in.open, 0
	if b, ok := in.open.(steadyBlock); ok {
		f.lastSteady = b.steadyLines()
	}
	return current, max(f.lastFrozen, f.lastSteady)
}

// drawInner puts lines, the inner stream's, into s.lines from top on,
// each behind what prefix draws before the inner line at index from:
// the first current ones stay as the last frame drew them (unless a
// revision changed them), and the lines from stay on, which the next
// frame draws again whatever happens, put their spans in spare storage
// that frame reuses. An empty inner stream still shows one line.
func (f *innerLines) drawInner(s *Stream, in *Stream, top int, lines []render.Line, current, stay int,
	prefix func(out, ls []render.Line, from int, spare *[]render.Span) []render.Line) {
	if revs := len(in.Revisions()); revs != f.revs {
		f.revs, current = revs, 0 // frozen lines were revised: draw them all again
	}
	keep := min(f.kept, current, len(lines))
	stay = min(max(stay, keep), len(lines))
	s.lines = prefix(s.lines[:top+keep], lines[keep:stay], keep, nil)
	f.spare = f.spare[:0]
	s.lines = prefix(s.lines, lines[stay:], stay, &f.spare)
	f.kept = len(lines)
	if len(lines) == 0 {
		s.lines = prefix(s.lines, []render.Line{{}}, 0, nil)
	}
}

package scrollback

import (
	"fmt"

	"github.com/quire-sh/quire/render"
)

// Frame is what the viewport shows now. Its slices are reused by the next
// call to Frame: read them before laying out again.
type Frame struct {
	// Lines has exactly Height rows; rows past the end are empty.
	Lines []render.Line
	// Blocks names the block each row belongs to (0 past the end), for
	// mouse clicks and focus drawing.
	Blocks []ID
	// Sticky is how many top rows show the pinned prompt instead of the
	// transcript.
	Sticky int
	// Matches are the search matches on screen, in row order.
	Matches []Match
	// FocusTop and FocusEnd are the rows [FocusTop, FocusEnd) of the
	// focused block that are on screen; equal when it is not.
	FocusTop, FocusEnd int
	Position           Position

	focusMargin int // row of the focused block's margin line, or -1
}

// Match is one search match on a screen row: cells [Col, Col+Width).
type Match struct {
	Row, Col, Width int
	// Current marks the match n/N last moved to.
	Current bool
}

// Position is the viewport's place in the transcript, for the status line.
type Position struct {
	Top    int // first line on screen, 1-based (0 when empty)
	Bottom int // last line on screen
	Total  int // lines in the transcript at this width (estimated where not yet laid out)
	Follow bool
}

// Percent is how far the bottom of the screen is into the transcript.
func (p Position) Percent() int {
	if p.Total == 0 {
		return 100
	}
	return p.Bottom * 100 / p.Total
}

// String formats the position the way less does: "lines 120-160/4000 42%".
func (p Position) String() string {
	s := fmt.Sprintf("lines %d-%d/%d %d%%", p.Top, p.Bottom, p.Total, p.Percent())
	if p.Follow {
		s += " (following)"
	}
	return s
}

// frameScratch is reused between frames so a steady-state frame allocates
// nothing.
type frameScratch struct {
	f     Frame
	paint PaintScratch
}

// Frame lays out and returns the viewport. Its cost depends on the screen
// size and on what changed since the last frame, never on the length of
// the transcript.
func (t *Transcript) Frame() *Frame {
	top := t.settle()
	f := &t.pg.scratch.f
	h := t.h
	if cap(f.Lines) < h {
		f.Lines = make([]render.Line, h)
		f.Blocks = make([]ID, h)
	}
	f.Lines, f.Blocks = f.Lines[:h], f.Blocks[:h]
	f.Matches = f.Matches[:0]
	f.FocusTop, f.FocusEnd = 0, 0
	f.focusMargin = -1

	row := 0
	if len(t.blocks) > 0 {
		i := t.lay.Find(top)
		off := 0
		if i < len(t.blocks) {
			off = top - t.lay.Top(i)
		}
		for i < len(t.blocks) && row < h {
			b := t.blocks[i]
			if b.hidden {
				i = t.nextShown(i)
				continue
			}
			v := t.view(i)
			start := row
			if b.id == t.pg.focus && off == 0 {
				f.focusMargin = row
			}
			for y := off; y < v.height() && row < h; y++ {
				v.line(y, &f.Lines[row])
				f.Blocks[row] = b.id
				t.matchesOn(i, y, row, f)
				row++
			}
			if b.id == t.pg.focus && row > start {
				f.FocusTop, f.FocusEnd = start, row
			}
			off = 0
			i = t.nextShown(i)
		}
	}
	for r := row; r < h; r++ {
		f.Lines[r].Spans = f.Lines[r].Spans[:0]
		f.Blocks[r] = 0
	}

	f.Sticky = t.drawSticky(top, f)
	if f.Sticky > 0 {
		kept := f.Matches[:0]
		for _, m := range f.Matches {
			if m.Row >= f.Sticky {
				kept = append(kept, m)
			}
		}
		f.Matches = kept
	}

	total := t.lay.Total()
	f.Position = Position{Total: total, Follow: t.pg.follow}
	if total > 0 {
		f.Position.Top = top + 1
		f.Position.Bottom = min(top+h, total)
	}
	return f
}

// nextShown is the first block after i with a height, found through the
// prefix sums so that a run of blocks hidden by a filter costs O(log n),
// not a walk.
func (t *Transcript) nextShown(i int) int {
	if i+1 < len(t.blocks) && t.lay.Height(i+1) > 0 {
		return i + 1
	}
	return t.lay.Find(t.lay.Top(i + 1))
}

// stickyAt computes the pinned header for a viewport starting at line top.
func (t *Transcript) stickyAt(top int) (rows, clipTop int) {
	if len(t.blocks) == 0 {
		return 0, 0
	}
	i := min(t.lay.Find(top), len(t.blocks)-1)
	k := t.blocks[i].turn
	if k < 0 {
		return 0, 0
	}
	p := t.index[t.turns[k].prompt]
	if t.blocks[p].hidden {
		return 0, 0
	}
	next := t.lay.Total()
	if k+1 < len(t.turns) {
		next = t.lay.Top(t.index[t.turns[k+1].prompt])
	}
	v := t.view(p)
	content := v.height() - blockMargin
	return StickyGeometry(t.lay.Top(p)+blockMargin, content, next, top, min(t.opt.StickyLines, t.h-1))
}

// drawSticky overlays the pinned prompt on the top rows of f.
func (t *Transcript) drawSticky(top int, f *Frame) int {
	rows, clip := t.stickyAt(top)
	if rows == 0 {
		return 0
	}
	i := min(t.lay.Find(top), len(t.blocks)-1)
	p := t.index[t.turns[t.blocks[i].turn].prompt]
	v := t.view(p)
	for r := 0; r < rows; r++ {
		v.line(blockMargin+clip+r, &f.Lines[r])
		for s := range f.Lines[r].Spans {
			sp := &f.Lines[r].Spans[s]
			sp.Style.Attrs |= t.theme.Sticky.Attrs
			if t.theme.Sticky.Bg != render.DefaultColor {
				sp.Style.Bg = t.theme.Sticky.Bg
			}
		}
		f.Blocks[r] = t.blocks[p].id
	}
	return rows
}

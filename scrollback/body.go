package scrollback

import "github.com/quire-sh/quire/render"

// BodyRenderer turns the streamed text of one block into lines at one
// width. A block owns one for as long as its text can still grow; when
// the width changes the block discards it, asks the factory for a new one
// at the new width and feeds it the source again.
//
// Lines may return the renderer's own slice: the caller reads it and
// never modifies it. The first Frozen() lines change no more, which is
// what lets the inline view emit them into the terminal's scrollback
// while the rest is still streaming; after Finish every line is frozen.
// The one exception is a revision (a markdown stream's link definition
// arriving after the lines that use it): a RevisingBody reports those,
// and the inline view follows them.
// Each line's render.Copy says how it reads in a copied selection: where
// the renderer wrapped, and which leading columns are decoration.
type BodyRenderer interface {
	Append(chunk string)
	Finish()
	Lines() []render.Line
	Frozen() int
}

// RendererFactory makes a BodyRenderer for text laid out at width columns.
type RendererFactory func(width int) BodyRenderer

// Revision says that a body renderer replaced Old of its frozen lines,
// from line At on, with New others.
type Revision struct{ At, Old, New int }

// RevisingBody is a BodyRenderer whose frozen lines can change by
// revisions. The inline view, which cannot change what it already wrote
// into the terminal's scrollback, counts a revised stretch it wrote as
// written in its new form, so that the lines after it are written once,
// neither repeated nor skipped.
type RevisingBody interface {
	BodyRenderer
	// RevisionsSince returns the revisions after the first n, oldest
	// first.
	RevisionsSince(n int) []Revision
}

// revisionsSince returns body's revisions after the first n, if it makes
// any.
func revisionsSince(body BodyRenderer, n int) []Revision {
	if rb, ok := body.(RevisingBody); ok {
		return rb.RevisionsSince(n)
	}
	return nil
}

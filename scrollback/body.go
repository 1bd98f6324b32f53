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
// The one exception is a markdown stream's revision (a link definition
// arriving after the lines that use it), which the inline view does not
// follow yet: see markdown's package documentation.
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

package scrollback

import "github.com/quire-sh/quire/render"

// BodyRenderer turns the streamed text of one block into lines at one
// width. A block owns one for as long as its text can still grow; when
// the width changes the block discards it, asks the factory for a new one
// at the new width and feeds it the source again.
//
// Lines may return the renderer's own slice: the caller reads it and
// never modifies it. The first Frozen() lines never change again, which
// is what lets the inline view emit them into the terminal's scrollback
// while the rest is still streaming; after Finish every line is frozen.
type BodyRenderer interface {
	Append(chunk string)
	Finish()
	Lines() []render.Line
	Frozen() int
}

// RendererFactory makes a BodyRenderer for text laid out at width columns.
type RendererFactory func(width int) BodyRenderer

// Join says how a line continues the one before it when the text is
// copied: a renderer that broke one source line to fit the width knows
// the break was not in the source.
type Join uint8

const (
	// JoinNewline: the line starts a new source line.
	JoinNewline Join = iota
	// JoinSpace: the line continues the previous one after a word-wrap
	// break that dropped white space.
	JoinSpace
	// JoinNone: the line continues the previous one after a break inside
	// a word (or inside code, where nothing was dropped).
	JoinNone
)

// LineJoiner is implemented by body renderers that know where they wrapped
// (the plain Wrapper does). Copied text joins soft-wrapped prose back
// into one line; lines from renderers without it are copied as they are.
type LineJoiner interface {
	Join(i int) Join
}

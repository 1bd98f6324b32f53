package markdown

import (
	"github.com/quire-sh/quire/render"
)

// Options control layout.
type Options struct {
	// Width is the number of columns to lay out to; 0 or less means 80.
	Width int
	// Theme is the colour theme; the zero Theme means DarkTheme().
	Theme Theme
	// Cwd is the directory against which file paths in code spans are
	// checked; those that exist become file:// links. "" disables this.
	// A stream checks a path the first time it lays it out, and
	// remembers the answer for the rest of the stream.
	Cwd string

	// depth is how many containers hold the document: a quote's content
	// streamed on its own (open_quote.go), or a list item's (open_item.go),
	// is laid out one deeper.
	depth int
	// tight joins the document's blocks without a blank line between
	// them, as a tight list item's blocks are: the content of a list
	// item streamed on its own (open_item.go).
	tight bool
	// fileLinks is a stream's memory of the code spans it checked
	// against Cwd, shared with the streams nested in it.
	fileLinks *fileLinks
}

func (o Options) normalized() Options {
	if o.Width <= 0 {
		o.Width = 80
	}
	if o.Theme.tokens == nil {
		switch o.Theme.Name {
		case "", "dark":
			o.Theme = DarkTheme()
		case "light":
			o.Theme = LightTheme()
		default: // a theme built field by field: only highlighting is missing
			if o.Theme.ChromaStyle == "" {
				o.Theme.ChromaStyle = DarkTheme().ChromaStyle
			}
			o.Theme.tokens = chromaStyles(o.Theme.ChromaStyle)
		}
	}
	return o
}

// Render lays out a whole markdown document at opts.Width. The result is
// the reference a Stream must match: a Stream's lines equal Render of
// ShownPrefix of its text while streaming, and Render of all of it after
// Finish.
func Render(src string, opts Options) []render.Line {
	opts = opts.normalized()
	res := renderTail(newParser(), nil, newLexerSet(), []byte(src), &opts, tailState{}, false, false)
	return res.lines
}

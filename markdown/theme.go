package markdown

import (
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/quire-sh/quire/render"
)

// Theme is the set of styles the renderer paints with. Colours are always
// full-fidelity RGB; the renderer degrades them to the terminal's level.
// Every element whose meaning matters also carries an attribute (bold,
// italic, underline, reverse...), because at render.ColorNone all colour is
// dropped and the attributes alone must keep headings, code and links
// distinguishable.
type Theme struct {
	// Name identifies the theme ("dark", "light").
	Name string

	Text       render.Style
	Heading    [6]render.Style // by level, 1–6
	Emphasis   render.Attr     // added for *emphasis*
	Strong     render.Attr     // added for **strong**
	Strike     render.Attr     // added for ~~strikethrough~~
	InlineCode render.Style    // `code` spans
	Link       render.Style
	Image      render.Style
	QuoteBar   render.Style // the bar left of a block quote
	Quote      render.Style // quoted text
	ListMarker render.Style
	TaskDone   render.Style
	CodeFrame  render.Style // the frame and language label of code blocks
	CodeText   render.Style // code with no highlighting
	CodeMark   render.Style // the continuation mark of wrapped code lines
	TableFrame render.Style
	TableHead  render.Style
	Rule       render.Style // thematic breaks
	HTML       render.Style // raw HTML shown as text

	// ChromaStyle names the chroma style used for code highlighting.
	ChromaStyle string

	tokens map[chroma.TokenType]render.Style
}

func rgb(hex uint32) render.Color {
	return render.RGB(uint8(hex>>16), uint8(hex>>8), uint8(hex))
}

// DarkTheme is the default theme, for dark terminal backgrounds.
func DarkTheme() Theme {
	t := Theme{
		Name:       "dark",
		Heading:    headingStyles(rgb(0x7aa2f7), rgb(0xbb9af7), rgb(0x7dcfff)),
		Emphasis:   render.Italic,
		Strong:     render.Bold,
		Strike:     render.Strikethrough,
		InlineCode: inlineCode(rgb(0xe0af68), rgb(0x24283b)),
		Link:       render.Style{Fg: rgb(0x7dcfff), Attrs: render.Underline},
		Image:      render.Style{Fg: rgb(0xbb9af7), Attrs: render.Underline},
		QuoteBar:   render.Style{Fg: rgb(0x565f89)},
		Quote:      render.Style{Fg: rgb(0xa9b1d6), Attrs: render.Italic},
		ListMarker: render.Style{Fg: rgb(0xff9e64)},
		TaskDone:   render.Style{Fg: rgb(0x9ece6a)},
		CodeFrame:  render.Style{Fg: rgb(0x565f89)},
		CodeText:   render.Style{Fg: rgb(0xc0caf5)},
		CodeMark:   render.Style{Fg: rgb(0xff9e64), Attrs: render.Bold},
		TableFrame: render.Style{Fg: rgb(0x565f89)},
		TableHead:  render.Style{Fg: rgb(0x7aa2f7), Attrs: render.Bold},
		Rule:       render.Style{Fg: rgb(0x565f89)},
		HTML:       render.Style{Fg: rgb(0x9aa5ce)},

		ChromaStyle: "tokyonight-night",
	}
	t.tokens = chromaStyles(t.ChromaStyle)
	return t
}

// LightTheme is for light terminal backgrounds.
func LightTheme() Theme {
	t := Theme{
		Name:       "light",
		Heading:    headingStyles(rgb(0x2e7de9), rgb(0x9854f1), rgb(0x007197)),
		Emphasis:   render.Italic,
		Strong:     render.Bold,
		Strike:     render.Strikethrough,
		InlineCode: inlineCode(rgb(0x8c4351), rgb(0xe1e2e7)),
		Link:       render.Style{Fg: rgb(0x2e7de9), Attrs: render.Underline},
		Image:      render.Style{Fg: rgb(0x9854f1), Attrs: render.Underline},
		QuoteBar:   render.Style{Fg: rgb(0x8990b3)},
		Quote:      render.Style{Fg: rgb(0x4c505e), Attrs: render.Italic},
		ListMarker: render.Style{Fg: rgb(0xb15c00)},
		TaskDone:   render.Style{Fg: rgb(0x587539)},
		CodeFrame:  render.Style{Fg: rgb(0x8990b3)},
		CodeText:   render.Style{Fg: rgb(0x3760bf)},
		CodeMark:   render.Style{Fg: rgb(0xb15c00), Attrs: render.Bold},
		TableFrame: render.Style{Fg: rgb(0x8990b3)},
		TableHead:  render.Style{Fg: rgb(0x2e7de9), Attrs: render.Bold},
		Rule:       render.Style{Fg: rgb(0x8990b3)},
		HTML:       render.Style{Fg: rgb(0x6172b0)},

		ChromaStyle: "tokyonight-day",
	}
	t.tokens = chromaStyles(t.ChromaStyle)
	return t
}

// ThemeByName returns the theme a configuration names ("dark" or
// "light"); anything else yields the dark default and false.
func ThemeByName(name string) (Theme, bool) {
	switch name {
	case "light":
		return LightTheme(), true
	case "dark", "":
		return DarkTheme(), name != ""
	}
	return DarkTheme(), false
}

func headingStyles(h1, h2, h3 render.Color) [6]render.Style {
	return [6]render.Style{
		{Fg: h1, Attrs: render.Bold | render.Underline},
		{Fg: h1, Attrs: render.Bold},
		{Fg: h2, Attrs: render.Bold},
		{Fg: h3, Attrs: render.Bold},
		{Fg: h3, Attrs: render.Bold | render.Italic},
		{Fg: h3, Attrs: render.Italic},
	}
}

// inlineCode shows fg on bg through reverse video, so that with colour the
// span looks like fg on bg and without colour it is still set apart.
func inlineCode(fg, bg render.Color) render.Style {
	return render.Style{Fg: bg, Bg: fg, Attrs: render.Reverse}
}

// chromaStyles converts a chroma style into render styles for every
// standard token type, once, so highlighting is a map lookup.
func chromaStyles(name string) map[chroma.TokenType]render.Style {
	cs := styles.Get(name)
	out := make(map[chroma.TokenType]render.Style, len(chroma.StandardTypes))
	for tt := range chroma.StandardTypes {
		e := cs.Get(tt)
		var st render.Style
		if e.Colour.IsSet() {
			st.Fg = render.RGB(e.Colour.Red(), e.Colour.Green(), e.Colour.Blue())
		}
		if e.Bold == chroma.Yes {
			st.Attrs |= render.Bold
		}
		if e.Italic == chroma.Yes {
			st.Attrs |= render.Italic
		}
		if e.Underline == chroma.Yes {
			st.Attrs |= render.Underline
		}
		out[tt] = st
	}
	return out
}

// tokenStyle is the style of a chroma token, falling back through its
// sub-category and category to plain code text.
func (t *Theme) tokenStyle(tt chroma.TokenType) render.Style {
	for _, k := range [...]chroma.TokenType{tt, tt.SubCategory(), tt.Category()} {
		if st, ok := t.tokens[k]; ok {
			return st
		}
	}
	return t.CodeText
}

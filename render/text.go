package render

import "strings"

// This file is the styled-text vocabulary shared by every producer of
// lines (markdown, scrollback, app) and the renderer that draws them. It
// deliberately knows nothing about terminals: a Line is data, and the
// renderer alone decides which bytes express it.

// ColorLevel is how many colours the terminal can show. Styles are always
// built at full fidelity and degraded at the output edge to this level.
type ColorLevel uint8

const (
	// ColorNone emits no colour SGR at all (NO_COLOR, dumb terminals);
	// attributes such as bold and underline still go out.
	ColorNone ColorLevel = iota
	// Color16 is the 8 basic colours and their bright variants.
	Color16
	// Color256 is the xterm 256-colour palette.
	Color256
	// ColorTrue is 24-bit RGB.
	ColorTrue
)

// String names the level the way `quire doctor` prints it.
func (l ColorLevel) String() string {
	switch l {
	case ColorNone:
		return "none"
	case Color16:
		return "16"
	case Color256:
		return "256"
	case ColorTrue:
		return "truecolor"
	}
	return "unknown"
}

// Color is a packed terminal colour: the top byte is the kind, the low
// three bytes the value. The zero value is the terminal's default colour,
// so a zero Style is "whatever the terminal shows by default".
type Color uint32

// ColorKind tells how a Color's value is to be read.
type ColorKind uint8

const (
	// KindDefault is the terminal's default foreground or background.
	KindDefault ColorKind = iota
	// KindANSI is one of the 16 basic colours (value 0–15).
	KindANSI
	// KindIndexed is one of the 256 palette colours (value 0–255).
	KindIndexed
	// KindRGB is a 24-bit colour (value 0xRRGGBB).
	KindRGB
)

// DefaultColor is the terminal's default colour.
const DefaultColor Color = 0

// ANSI returns basic colour i (0–7 normal, 8–15 bright); i is taken mod 16.
func ANSI(i uint8) Color { return Color(uint32(KindANSI)<<24 | uint32(i&15)) }

// Indexed returns palette colour i of the 256-colour palette.
func Indexed(i uint8) Color { return Color(uint32(KindIndexed)<<24 | uint32(i)) }

// RGB returns a 24-bit colour.
func RGB(r, g, b uint8) Color {
	return Color(uint32(KindRGB)<<24 | uint32(r)<<16 | uint32(g)<<8 | uint32(b))
}

// Kind reports how c is encoded.
func (c Color) Kind() ColorKind { return ColorKind(c >> 24) }

// Index is the palette index of an ANSI or Indexed colour.
func (c Color) Index() uint8 { return uint8(c) }

// RGB returns the channels of an RGB colour.
func (c Color) RGB() (r, g, b uint8) { return uint8(c >> 16), uint8(c >> 8), uint8(c) }

// Attr is a set of text attributes.
type Attr uint8

const (
	Bold Attr = 1 << iota
	Dim
	Italic
	Underline
	Reverse
	Strikethrough
)

// Style is how a cell looks: colours and attributes. Links are not part of
// Style; they travel beside it on a Span and in a Cell, so that a link
// change is a change of its own and a style change never restarts a link.
type Style struct {
	Fg, Bg Color
	Attrs  Attr
}

// Span is a run of text in one style, optionally one hyperlink target.
// Text may hold anything, including control characters: the renderer
// draws those visibly escaped, so producers never have to sanitise.
type Span struct {
	Text  string
	Style Style
	// Link is the OSC 8 target (a URL); empty means no link.
	Link string
}

// Line is one row of styled text, already wrapped to its width by whoever
// produced it. The renderer clips what does not fit.
type Line struct {
	Spans []Span
	// Copy is how the line reads when it is copied as text; drawing
	// ignores it.
	Copy Copy
}

// Copy describes how a line reads back as text, for the producers that
// know more than its characters say: where they wrapped a longer line,
// and which leading columns are decoration (a code frame's bar, a
// quote's bar, a list item's hanging indent). The zero Copy is the
// line's text as drawn, starting a new line.
type Copy struct {
	// Join is how the line continues the line before it.
	Join Join
	// Skip is how many leading columns are decoration, left out of the
	// copy; Lead is copied in their place (a quote's "> ", a code
	// frame's fence).
	Skip int
	Lead string
}

// Join is how a line continues the one before it when the text is read
// back: a producer that broke one source line to fit the width knows the
// break was not in the source.
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

// Plain builds a single-span line.
func Plain(text string, style Style) Line {
	return Line{Spans: []Span{{Text: text, Style: style}}}
}

// Text returns the line's characters without styles or links.
func (l Line) Text() string {
	if len(l.Spans) == 1 {
		return l.Spans[0].Text
	}
	var b strings.Builder
	for _, s := range l.Spans {
		b.WriteString(s.Text)
	}
	return b.String()
}

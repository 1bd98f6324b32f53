package render

import (
	"unicode"
	"unicode/utf8"
)

// Cell is one terminal column: a grapheme cluster, its style and its link.
// The zero Cell is a blank in the default style, so clearing a buffer is a
// memory clear.
//
// A wide cluster occupies two cells: the lead cell holds the cluster
// (Width 2) and the cell to its right is a continuation (Width 0) that
// carries the same style and link and no grapheme.
type Cell struct {
	// Grapheme is the cluster drawn in the cell; "" draws a blank.
	Grapheme string
	// Link is the OSC 8 target of the cell, already stripped of control
	// characters; "" is no link.
	Link  string
	Style Style
	kind  cellKind
}

type cellKind uint8

const (
	narrowCell   cellKind = iota // one column (the zero value: a blank)
	wideCell                     // lead half of a two-column cluster
	continuation                 // right half of a wide cluster
)

// Width is the number of columns the cell's grapheme covers: 1 or 2 for a
// cell that starts a cluster, 0 for the right half of a wide cluster.
func (c *Cell) Width() int {
	switch c.kind {
	case wideCell:
		return 2
	case continuation:
		return 0
	}
	return 1
}

// IsBlank reports whether the cell draws nothing but its background.
func (c *Cell) IsBlank() bool { return c.Grapheme == "" && c.kind == narrowCell }

// String is the text the cell draws: its grapheme, a space for a blank, ""
// for a continuation.
func (c *Cell) String() string {
	switch {
	case c.kind == continuation:
		return ""
	case c.Grapheme == "":
		return " "
	}
	return c.Grapheme
}

// blankStyle keeps only the parts of st that can show on a blank cell:
// the background, and the foreground when an attribute paints with it
// (reverse swaps it in, underline and strikethrough draw in it). Blank
// cells that look alike therefore compare equal and are never rewritten
// for an invisible difference.
func blankStyle(st Style) Style {
	const visible = Reverse | Underline | Strikethrough
	if st.Attrs&visible == 0 {
		return Style{Bg: st.Bg}
	}
	st.Attrs &= visible
	return st
}

// erasable reports whether a blank cell in style st can be produced by an
// erase (EL, ECH, ED): terminals fill erased cells with the current
// background and no attributes.
func erasable(c *Cell) bool {
	return c.IsBlank() && c.Link == "" && c.Style.Attrs == 0 && c.Style.Fg == DefaultColor
}

// driftProne reports whether a terminal may disagree with uniseg about the
// cluster's width: multi-code-point clusters other than a base plus
// combining marks (ZWJ sequences, flags, variation selectors, skin tones).
// After writing one, the encoder stops trusting its idea of the cursor
// column and positions the next write absolutely, so a disagreement stays
// inside that one cell instead of shifting the rest of the row.
func driftProne(g string) bool {
	if len(g) < 2 {
		return false
	}
	_, n := utf8.DecodeRuneInString(g)
	for _, r := range g[n:] {
		if !unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Me, r) {
			return true
		}
	}
	return false
}

// same is c == *o, written out so that it inlines: it is the diff's
// innermost comparison, and the generated struct equality is a call.
func (c *Cell) same(o *Cell) bool {
	return c.Style == o.Style && c.kind == o.kind && c.Grapheme == o.Grapheme && c.Link == o.Link
}

package render

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Text that reaches the renderer is untrusted (model output, tool output,
// file names). Control characters are never written raw: each is drawn as a
// visible one-column glyph. Producers that lay text out (markdown,
// scrollback) measure with StringWidth, which counts exactly what the
// renderer will draw, so wrapping and drawing always agree.

// VisibleControl maps a control rune to the glyph drawn in its place, and
// reports whether r is a control rune at all. The bidirectional
// embedding, override and isolate controls (U+202A–U+202E,
// U+2066–U+2069) count as controls: passed on raw, they make a terminal
// show text in another order than it was written in.
func VisibleControl(r rune) (rune, bool) {
	switch {
	case r < 0x20:
		return 0x2400 + r, true // U+2400 CONTROL PICTURES: ␀ … ␟ (␛ for ESC)
	case r == 0x7f:
		return 0x2421, true // ␡
	case r >= 0x80 && r < 0xa0:
		return utf8.RuneError, true // C1 controls have no picture
	case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
		return utf8.RuneError, true // nor do bidi controls
	}
	return r, false
}

// Sanitize returns s with invalid UTF-8 replaced by U+FFFD and every
// control character replaced by its visible glyph. It returns s itself
// (no allocation) when there is nothing to replace.
func Sanitize(s string) string {
	if !NeedsSanitize(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s { // range yields RuneError for invalid bytes
		if v, ctl := VisibleControl(r); ctl {
			r = v
		}
		b.WriteRune(r)
	}
	return b.String()
}

// NeedsSanitize reports whether s holds a control character (see
// VisibleControl) or invalid UTF-8: the bytes that must never reach a
// terminal raw, which Sanitize would change. It is the fast path of
// Sanitize and CleanURL.
func NeedsSanitize(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if _, ctl := VisibleControl(r); ctl || r == utf8.RuneError && n == 1 {
			return true
		}
		i += n
	}
	return false
}

// StringWidth is the number of terminal columns s occupies when drawn by
// the renderer: grapheme clusters measured with uniseg, control characters
// one column each (they are drawn as visible glyphs).
func StringWidth(s string) int {
	s = Sanitize(s)
	w := 0
	state := -1
	for len(s) > 0 {
		if s[0] < utf8.RuneSelf && (len(s) == 1 || s[1] < utf8.RuneSelf) {
			// A printable ASCII character (Sanitize left no control)
			// followed by ASCII or nothing is a cluster of one column,
			// as SetString draws it.
			s, w, state = s[1:], w+1, -1
			continue
		}
		var cw int
		_, s, cw, state = uniseg.FirstGraphemeClusterInString(s, state)
		w += cw
	}
	return w
}

// Width is the display width of the line.
func (l Line) Width() int {
	w := 0
	for _, s := range l.Spans {
		w += StringWidth(s.Text)
	}
	return w
}

// ExpandTabs replaces each tab in s with the spaces that reach the next
// multiple of width columns, counting one column a rune. A raw tab would
// be drawn as a visible control character; code and previews keep their
// indentation instead.
func ExpandTabs(s string, width int) string {
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := width - col%width
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// FirstLine is s up to its first line break, marked " …" when more lines
// follow: a multi-line command or target shown on one row says that it
// goes on.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

package rendertest

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/quire-sh/quire/render"
)

// Oracle is a headless terminal that the renderer's bytes are fed into,
// so tests can compare what a terminal would show with the frame that was
// meant. It is an io.Writer; it also keeps every byte it was given.
type Oracle struct {
	emu *vt.Emulator
	// Colors is the level the renderer under test was told to write
	// (expected styles are degraded to it before comparing). Hyperlinks
	// says whether links are expected on screen.
	Colors     render.ColorLevel
	Hyperlinks bool
	stream     bytes.Buffer
}

// NewOracle returns a width×height terminal expecting true colour and
// hyperlinks.
//
// The emulator answers queries (cursor position, DA1, DECRQM) as a
// terminal would; the answers are read and dropped, so a recording that
// holds queries plays without blocking.
func NewOracle(width, height int) *Oracle {
	emu := vt.NewEmulator(width, height)
	go func() { _, _ = io.Copy(io.Discard, emu) }()
	return &Oracle{emu: emu, Colors: render.ColorTrue, Hyperlinks: true}
}

// Write feeds p to the terminal.
func (o *Oracle) Write(p []byte) (int, error) {
	o.stream.Write(p)
	return o.emu.Write(p)
}

// Stream is every byte written so far.
func (o *Oracle) Stream() []byte { return o.stream.Bytes() }

// Emulator exposes the underlying terminal for assertions this type does
// not offer.
func (o *Oracle) Emulator() *vt.Emulator { return o.emu }

// Resize changes the terminal's size the way a window resize would.
func (o *Oracle) Resize(width, height int) { o.emu.Resize(width, height) }

// Size is the terminal's size.
func (o *Oracle) Size() (width, height int) { return o.emu.Width(), o.emu.Height() }

// Cursor returns the cursor position and whether it is visible.
func (o *Oracle) Cursor() (x, y int, visible bool) {
	p := o.emu.CursorPosition()
	return p.X, p.Y, !o.emu.CursorHidden()
}

// Diff compares the whole screen with want and describes every
// difference; "" means the screen shows exactly want.
func (o *Oracle) Diff(want *render.Buffer) string { return o.DiffAt(0, want) }

// DiffAt compares the screen rows from top on with want (an inline live
// region, say).
func (o *Oracle) DiffAt(top int, want *render.Buffer) string {
	w, h := want.Size()
	var b strings.Builder
	bad := 0
	for y := range h {
		for x := range w {
			c := want.Cell(x, y)
			if msg := o.cellDiff(x, top+y, &c); msg != "" {
				if bad < 12 {
					fmt.Fprintf(&b, "  (%d,%d): %s\n", x, y, msg)
				}
				bad++
			}
		}
	}
	if bad == 0 {
		return ""
	}
	fmt.Fprintf(&b, "%d cells differ. want rows:\n", bad)
	for y := range h {
		fmt.Fprintf(&b, "  %2d |%s|\n", y, BufferRow(want, y))
	}
	b.WriteString("got rows:\n")
	for y := range h {
		fmt.Fprintf(&b, "  %2d |%s|\n", y, o.ScreenRow(top+y))
	}
	return b.String()
}

// BufferRow is the text of row y of b, blanks as spaces.
func BufferRow(b *render.Buffer, y int) string {
	w, _ := b.Size()
	var s strings.Builder
	for x := range w {
		c := b.Cell(x, y)
		s.WriteString(c.String())
	}
	return s.String()
}

// ScreenRow is the text of screen row y.
func (o *Oracle) ScreenRow(y int) string {
	var s strings.Builder
	for x := range o.emu.Width() {
		c := o.emu.CellAt(x, y)
		switch {
		case c == nil:
			s.WriteByte('?')
		case c.Width == 0:
		case c.Content == "":
			s.WriteByte(' ')
		default:
			s.WriteString(c.Content)
		}
	}
	return s.String()
}

// ScreenText is the screen's rows with trailing blanks trimmed.
func (o *Oracle) ScreenText() []string {
	rows := make([]string, o.emu.Height())
	for y := range rows {
		rows[y] = strings.TrimRight(o.ScreenRow(y), " ")
	}
	return rows
}

// ScrollbackText is the scrollback's lines, oldest first, with trailing
// blanks trimmed.
func (o *Oracle) ScrollbackText() []string {
	sb := o.emu.Scrollback()
	n := sb.Len()
	rows := make([]string, n)
	for y := range n {
		line := sb.Line(y)
		var s strings.Builder
		for i := range line {
			c := &line[i]
			switch {
			case c.Width == 0 && c.Content == "" && i > 0 && line[i-1].Width == 2:
			case c.Content == "":
				s.WriteByte(' ')
			default:
				s.WriteString(c.Content)
			}
		}
		rows[y] = strings.TrimRight(s.String(), " ")
	}
	return rows
}

// HistoryLen is the number of lines in the terminal's history: the
// scrollback's lines and then the screen's rows.
func (o *Oracle) HistoryLen() int { return o.emu.ScrollbackLen() + o.emu.Height() }

// HistoryDiff compares line i of the history (scrollback first, oldest
// at 0, then the screen's rows) with row y of want, cell by cell, styles
// and links included; "" means they match.
func (o *Oracle) HistoryDiff(i int, want *render.Buffer, y int) string {
	w, _ := want.Size()
	sb := o.emu.ScrollbackLen()
	for x := range w {
		var got *uv.Cell
		if i < sb {
			got = o.emu.ScrollbackCellAt(x, i)
			if got == nil {
				// The scrollback trims a line after its last cell with
				// content, which drops trailing blanks and the right half
				// of a wide cluster in the last column.
				got = &uv.EmptyCell
				if x > 0 {
					if prev := o.emu.ScrollbackCellAt(x-1, i); prev != nil && prev.Width == 2 {
						got = &uv.Cell{}
					}
				}
			}
		} else {
			got = o.emu.CellAt(x, i-sb)
		}
		c := want.Cell(x, y)
		if msg := o.compare(got, &c); msg != "" {
			return fmt.Sprintf("history line %d col %d: %s", i, x, msg)
		}
	}
	return ""
}

func (o *Oracle) cellDiff(x, y int, want *render.Cell) string {
	return o.compare(o.emu.CellAt(x, y), want)
}

func (o *Oracle) compare(got *uv.Cell, want *render.Cell) string {
	if got == nil {
		return "outside the screen"
	}
	if want.Width() == 0 {
		if got.Width != 0 {
			return fmt.Sprintf("want the right half of a wide cluster, got %q width %d", got.Content, got.Width)
		}
		return ""
	}
	gotText := got.Content
	if gotText == "" {
		gotText = " "
	}
	if gotText != want.String() || max(got.Width, 1) != want.Width() {
		return fmt.Sprintf("want %q width %d, got %q width %d", want.String(), want.Width(), gotText, got.Width)
	}
	wantStyle := Visible(want.IsBlank(), adapt(want.Style, o.Colors))
	gotStyle := Visible(gotText == " ", StyleOf(&got.Style))
	if wantStyle != gotStyle {
		return fmt.Sprintf("%q: want style %+v, got %+v", want.String(), wantStyle, gotStyle)
	}
	wantLink := want.Link
	if !o.Hyperlinks {
		wantLink = ""
	}
	if got.Link.URL != wantLink {
		return fmt.Sprintf("%q: want link %q, got %q", want.String(), wantLink, got.Link.URL)
	}
	return ""
}

func adapt(st render.Style, l render.ColorLevel) render.Style {
	st.Fg = render.AdaptColor(st.Fg, l)
	st.Bg = render.AdaptColor(st.Bg, l)
	return st
}

// Visible keeps what can be seen of a style: on a blank only the
// background, and the foreground when reverse, underline or
// strikethrough paint with it. Two cells look the same to a user when
// their Visible styles are equal.
func Visible(blank bool, st render.Style) render.Style {
	if !blank {
		return st
	}
	const shows = render.Reverse | render.Underline | render.Strikethrough
	if st.Attrs&shows == 0 {
		return render.Style{Bg: st.Bg}
	}
	st.Attrs &= shows
	return st
}

// StyleOf is the style of an emulator's cell in render's terms: the
// attributes render has, and colours with the first 16 palette entries
// folded onto the basic colours they are (SGR 31 and 38;5;1 are one
// colour).
func StyleOf(s *uv.Style) render.Style {
	var st render.Style
	st.Fg = fromColor(s.Fg)
	st.Bg = fromColor(s.Bg)
	if s.Attrs&uv.AttrBold != 0 {
		st.Attrs |= render.Bold
	}
	if s.Attrs&uv.AttrFaint != 0 {
		st.Attrs |= render.Dim
	}
	if s.Attrs&uv.AttrItalic != 0 {
		st.Attrs |= render.Italic
	}
	if s.Underline != uv.UnderlineNone {
		st.Attrs |= render.Underline
	}
	if s.Attrs&uv.AttrReverse != 0 {
		st.Attrs |= render.Reverse
	}
	if s.Attrs&uv.AttrStrikethrough != 0 {
		st.Attrs |= render.Strikethrough
	}
	return st
}

func fromColor(c color.Color) render.Color {
	switch c := c.(type) {
	case nil:
		return render.DefaultColor
	case ansi.BasicColor:
		return render.ANSI(uint8(c))
	case ansi.IndexedColor:
		if c < 16 {
			return render.ANSI(uint8(c))
		}
		return render.Indexed(uint8(c))
	}
	r, g, b, _ := c.RGBA()
	return render.RGB(uint8(r>>8), uint8(g>>8), uint8(b>>8))
}

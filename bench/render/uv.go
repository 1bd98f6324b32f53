package renderbench

import (
	"bytes"
	"image/color"
	"io"
	"strings"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/quire-sh/quire/render"
)

// ultraviolet's TerminalRenderer is the cell diff under bubbletea v2. It is
// configured the way uv's own TerminalScreen sets it up on a tty that allows
// hard tabs and backspace, with hard-scroll optimisation on in full-screen
// mode, and each non-empty flush is wrapped in synchronized-update brackets
// as TerminalScreen does when mode 2026 is on. Unlike TerminalScreen, the
// wrapping reuses one buffer, so uv is not charged an allocation per frame
// that its renderer does not make. Inline mode uses relative cursor moves
// and PrependString, uv's way of putting lines above the live region.

func uvImpl() Impl {
	return Impl{
		Name: "uv",
		Skip: func(*Workload) string { return "" },
		New:  newUVDriver,
	}
}

type uvDriver struct {
	out    io.Writer
	inner  bytes.Buffer // what the renderer flushes
	frame  bytes.Buffer // inner wrapped in sync brackets
	r      *uv.TerminalRenderer
	buf    *uv.RenderBuffer
	rows   []uv.Line
	inline bool
	w, h   int
	insert strings.Builder
}

func newUVDriver(w *Workload, out io.Writer) (Driver, error) {
	f0 := w.First()
	d := &uvDriver{out: out, inline: w.Mode == Inline, w: f0.Width, h: f0.Height}
	d.r = uv.NewTerminalRenderer(&d.inner, []string{"TERM=" + termType, "COLORTERM=" + colorTerm})
	d.r.SetColorProfile(colorprofile.TrueColor)
	d.r.SetTabStops(f0.Width)
	d.r.SetBackspace(true)
	if d.inline {
		d.r.SetFullscreen(false)
		d.r.SetRelativeCursor(true)
		d.buf = uv.NewRenderBuffer(f0.Width, len(f0.Rows))
	} else {
		d.r.EnterAltScreen()
		d.r.SetScrollOptim(true)
		d.buf = uv.NewRenderBuffer(f0.Width, f0.Height)
	}
	d.r.Resize(f0.Width, f0.Height)

	styles := make([]uv.Style, len(w.Styles))
	for i, st := range w.Styles {
		styles[i] = uvStyle(st)
	}
	d.rows = make([]uv.Line, len(w.Rows))
	for i, r := range w.Rows {
		line := make(uv.Line, len(r.Cells))
		for x, c := range r.Cells {
			if c.Width == 0 {
				continue // the placeholder uv writes itself
			}
			line[x] = uv.Cell{Content: c.Grapheme, Width: int(c.Width), Style: styles[c.Style]}
			if c.Link != 0 {
				line[x].Link = uv.Link{URL: w.Links[c.Link], Params: "id=" + LinkID(c.Link)}
			}
		}
		d.rows[i] = line
	}
	return d, nil
}

func (d *uvDriver) Draw(f *Frame) error {
	if f.Width != d.w || f.Height != d.h {
		d.r.Resize(f.Width, f.Height)
		d.w, d.h = f.Width, f.Height
	}
	if bw, bh := d.buf.Width(), d.buf.Height(); bw != f.Width || (!d.inline && bh != f.Height) || (d.inline && bh != len(f.Rows)) {
		if d.inline {
			d.buf.Resize(f.Width, len(f.Rows))
		} else {
			d.buf.Resize(f.Width, f.Height)
		}
	}
	if len(f.Insert) > 0 {
		d.r.PrependString(d.buf, insertText(&d.insert, d.rows, f.Insert))
	}
	for y, r := range f.Rows {
		line := d.rows[r.ID]
		for x := range line {
			if line[x].Width == 0 {
				continue
			}
			d.buf.SetCell(x, y, &line[x])
		}
	}
	d.r.Render(d.buf)
	if d.inline {
		// As TerminalScreen.Flush does with a hidden cursor: never leave
		// it in the last column, where some terminals wrap.
		if x, y := d.r.Position(); x >= f.Width-1 {
			d.r.MoveTo(0, y)
		}
	}
	if err := d.r.Flush(); err != nil {
		return err
	}
	if d.inner.Len() == 0 {
		return nil
	}
	d.frame.Reset()
	d.frame.WriteString(syncBegin)
	d.frame.Write(d.inner.Bytes())
	d.frame.WriteString(syncEnd)
	d.inner.Reset()
	_, err := d.out.Write(d.frame.Bytes())
	return err
}

func (d *uvDriver) Close() error { return nil }

func uvColor(c render.Color) color.Color {
	switch c.Kind() {
	case render.KindANSI:
		return ansi.BasicColor(c.Index())
	case render.KindIndexed:
		return ansi.IndexedColor(c.Index())
	case render.KindRGB:
		r, g, b := c.RGB()
		return color.RGBA{R: r, G: g, B: b, A: 0xff}
	}
	return nil
}

func uvStyle(s render.Style) uv.Style {
	st := uv.Style{Fg: uvColor(s.Fg), Bg: uvColor(s.Bg)}
	for _, m := range []struct {
		a  render.Attr
		uv uint8
	}{
		{render.Bold, uv.AttrBold}, {render.Dim, uv.AttrFaint}, {render.Italic, uv.AttrItalic},
		{render.Reverse, uv.AttrReverse}, {render.Strikethrough, uv.AttrStrikethrough},
	} {
		if s.Attrs&m.a != 0 {
			st.Attrs |= m.uv
		}
	}
	if s.Attrs&render.Underline != 0 {
		st.Underline = uv.UnderlineSingle
	}
	return st
}

// insertText is rows as uv takes lines to put above the live region: each
// rendered with uv's own line encoder, trailing blanks dropped, joined by
// newlines. uv ignores an empty string, so a batch that is one blank line
// is sent as a single space.
func insertText(b *strings.Builder, native []uv.Line, rows []*Row) string {
	b.Reset()
	for i, r := range rows {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := native[r.ID]
		end := len(line)
		for end > 0 && (line[end-1].Equal(&uv.EmptyCell) || line[end-1].IsZero()) {
			end--
		}
		b.WriteString(line[:end].Render())
	}
	if b.Len() == 0 {
		return " "
	}
	return b.String()
}

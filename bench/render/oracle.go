package renderbench

import (
	"bytes"
	"fmt"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

// Oracle is a headless terminal that a renderer writes into, and the
// judge of whether what it shows is the frame that was meant.
type Oracle struct {
	w       *Workload
	emu     *vt.Emulator
	history []*Row // inline: every row inserted so far
	// frame holds the bytes written since Synced was last called.
	frame []byte
	// escapes counts the control sequences written.
	escapes Escapes
	// checked is how many scrollback lines have been compared already.
	// The emulator never rewrites a line once it is in scrollback, so each
	// is compared once, when it first appears, unless scrollback shrinks.
	checked int
}

// NewOracle returns an oracle for w: an empty xterm-like screen at the
// first frame's size with the cursor at the top left.
func NewOracle(w *Workload) *Oracle {
	f0 := w.First()
	emu := vt.NewEmulator(f0.Width, f0.Height)
	emu.SetScrollbackSize(1 << 20)
	return &Oracle{w: w, emu: emu}
}

// Write feeds a renderer's bytes to the terminal.
func (o *Oracle) Write(p []byte) (int, error) {
	o.frame = append(o.frame, p...)
	o.escapes.Add(p)
	return o.emu.Write(p)
}

// Synced reports whether the bytes written since the last call form
// nothing or one synchronized update: they begin with the bracket's
// opening and end with its closing, with no closing in between, so no
// clear or partial frame reaches the screen before the frame is whole.
func (o *Oracle) Synced() bool {
	p := o.frame
	o.frame = o.frame[:0]
	if len(p) == 0 {
		return true
	}
	body, ok := bytes.CutPrefix(p, []byte(syncBegin))
	if !ok {
		return false
	}
	body, ok = bytes.CutSuffix(body, []byte(syncEnd))
	return ok && !bytes.Contains(body, []byte(syncEnd))
}

// Prepare is called before f is drawn: it resizes the terminal when f's
// size differs, as the user's window manager would.
func (o *Oracle) Prepare(f *Frame) {
	if f.Width != o.emu.Width() || f.Height != o.emu.Height() {
		o.emu.Resize(f.Width, f.Height)
	}
}

// Check reports how the terminal differs from f after f was drawn: nil
// when it shows exactly f (and, inline, exactly the history so far in its
// scrollback and above the live region).
func (o *Oracle) Check(f *Frame) error {
	if o.w.Mode == Inline {
		return o.checkInline(f)
	}
	for y, r := range f.Rows {
		if err := o.compareRow(fmt.Sprintf("row %d", y), r, func(x int) *uv.Cell { return o.emu.CellAt(x, y) }); err != nil {
			return err
		}
	}
	return nil
}

// checkInline compares the terminal's whole transcript (scrollback, then
// screen, without the blank rows below the live region) with the history
// inserted so far followed by the live region.
func (o *Oracle) checkInline(f *Frame) error {
	o.history = append(o.history, f.Insert...)
	want := make([]*Row, 0, len(o.history)+len(f.Rows))
	want = append(append(want, o.history...), f.Rows...)

	sb := o.emu.Scrollback()
	if sb.Len() < o.checked {
		o.checked = 0
	}
	from := o.checked
	var got []func(x int) *uv.Cell
	for i := from; i < sb.Len(); i++ {
		line := sb.Line(i)
		got = append(got, func(x int) *uv.Cell {
			if x < len(line) {
				return &line[x]
			}
			return nil
		})
	}
	last := -1
	for y := range o.emu.Height() {
		if !o.blankScreenRow(y) {
			last = y
		}
	}
	for y := 0; y <= last; y++ {
		got = append(got, func(x int) *uv.Cell { return o.emu.CellAt(x, y) })
	}
	held := from + len(got)
	if from > len(want) {
		return fmt.Errorf("terminal holds %d lines (%d in scrollback), want %d history + %d live: lines duplicated",
			held, sb.Len(), len(o.history), len(f.Rows))
	}
	want = want[from:]
	for i := range min(len(want), len(got)) {
		where := fmt.Sprintf("history line %d", from+i)
		if from+i >= len(o.history) {
			where = fmt.Sprintf("live row %d", from+i-len(o.history))
		}
		if err := o.compareRow(where, want[i], got[i]); err != nil {
			return fmt.Errorf("%w (terminal holds %d lines, %d in scrollback; want %d history + %d live)",
				err, held, sb.Len(), len(o.history), len(f.Rows))
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("terminal holds %d lines (%d in scrollback), want %d history + %d live: lines lost or duplicated",
			held, sb.Len(), len(o.history), len(f.Rows))
	}
	o.checked = sb.Len()
	return nil
}

func (o *Oracle) blankScreenRow(y int) bool {
	for x := range o.emu.Width() {
		c := o.emu.CellAt(x, y)
		if c != nil && !c.IsZero() && !c.Equal(&uv.EmptyCell) {
			return false
		}
	}
	return true
}

// compareRow compares what a terminal row shows with r, cell by cell, as
// a user would see it: the same grapheme and width, the same colours and
// attributes where they are visible, the same link target.
func (o *Oracle) compareRow(where string, r *Row, at func(x int) *uv.Cell) error {
	for x, want := range r.Cells {
		if want.Width == 0 {
			continue
		}
		got := at(x)
		gotText, gotWidth := " ", 1
		var gotStyle uv.Style
		var gotLink string
		if got != nil && !got.IsZero() {
			gotText, gotWidth, gotStyle, gotLink = got.Content, got.Width, got.Style, got.Link.URL
			if gotText == "" {
				gotText = " "
			}
		}
		wantStyle := o.w.Styles[want.Style]
		wantLink := o.w.Links[want.Link]
		ws, gs := rendertest.Visible(want.Grapheme == " ", canonical(wantStyle)), rendertest.Visible(gotText == " ", rendertest.StyleOf(&gotStyle))
		if gotText != want.Grapheme || gotWidth != int(want.Width) || ws != gs || gotLink != wantLink {
			return fmt.Errorf("%s col %d: shows %q (width %d, %s, link %q), want %q (width %d, %s, link %q); row wants %q",
				where, x, gotText, gotWidth, describe(gs), gotLink,
				want.Grapheme, want.Width, describe(ws), wantLink, rowText(r))
		}
	}
	return nil
}

// canonical folds the first 16 palette entries onto the basic colours they
// are, as rendertest.StyleOf does for what the terminal shows.
func canonical(s render.Style) render.Style {
	for _, c := range []*render.Color{&s.Fg, &s.Bg} {
		if c.Kind() == render.KindIndexed && c.Index() < 16 {
			*c = render.ANSI(c.Index())
		}
	}
	return s
}

func describe(s render.Style) string {
	return fmt.Sprintf("fg %s bg %s attrs %06b", colorName(s.Fg), colorName(s.Bg), s.Attrs)
}

func colorName(c render.Color) string {
	switch c.Kind() {
	case render.KindANSI:
		return fmt.Sprintf("ansi%d", c.Index())
	case render.KindIndexed:
		return fmt.Sprintf("idx%d", c.Index())
	case render.KindRGB:
		r, g, b := c.RGB()
		return fmt.Sprintf("#%02x%02x%02x", r, g, b)
	}
	return "default"
}

func rowText(r *Row) string {
	var b strings.Builder
	for _, c := range r.Cells {
		b.WriteString(c.Grapheme)
	}
	return strings.TrimRight(b.String(), " ")
}

// Verdict is what the oracle found for one renderer on one workload.
type Verdict struct {
	Frames, Bad int
	// First describes the first frame that was wrong.
	First string
	// Unsynced counts the frames whose bytes were not one synchronized
	// update (see Oracle.Synced); FirstUnsynced names the first.
	Unsynced      int
	FirstUnsynced string
	// Escapes counts the control sequences of all the frames checked.
	Escapes Escapes
}

// Verify draws w's prologue and then every frame of its loop, loops times
// over, then the loop's first frame once more (so the seam where the loop
// starts again is checked too), with a fresh instance of impl writing into
// an Oracle, and checks each frame.
func Verify(impl Impl, w *Workload, loops int) (Verdict, error) {
	o := NewOracle(w)
	d, err := impl.New(w, o)
	if err != nil {
		return Verdict{}, err
	}
	defer d.Close()
	// What a renderer writes while it is set up (tcell's Init enters the
	// alternate screen and clears it) belongs to no frame.
	o.Synced()
	o.escapes = Escapes{}
	var v Verdict
	draw := func(where string, f *Frame) error {
		o.Prepare(f)
		if err := d.Draw(f); err != nil {
			return fmt.Errorf("%s: %s: %w", impl.Name, where, err)
		}
		v.Frames++
		if !o.Synced() {
			v.Unsynced++
			if v.FirstUnsynced == "" {
				v.FirstUnsynced = where
			}
		}
		if err := o.Check(f); err != nil {
			v.Bad++
			if v.First == "" {
				v.First = fmt.Sprintf("%s: %v", where, err)
			}
		}
		return nil
	}
	for i := range w.Prologue {
		if err := draw(fmt.Sprintf("prologue frame %d", i), &w.Prologue[i]); err != nil {
			return v, err
		}
	}
	for l := range loops + 1 {
		for i := range w.Frames {
			if l == loops && i > 0 {
				break
			}
			if err := draw(fmt.Sprintf("loop %d frame %d", l, i), &w.Frames[i]); err != nil {
				return v, err
			}
		}
	}
	v.Escapes = o.escapes
	return v, nil
}

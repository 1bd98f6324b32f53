package render_test

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

// row renders b's row y as text with "|" after each cell and "_" for the
// right half of a wide cluster, so widths are visible in failures.
func row(b *render.Buffer, y int) string {
	w, _ := b.Size()
	var s strings.Builder
	for x := range w {
		c := b.Cell(x, y)
		if c.Width() == 0 {
			s.WriteString("_|")
			continue
		}
		s.WriteString(c.String())
		s.WriteByte('|')
	}
	return s.String()
}

func TestSetString(t *testing.T) {
	for _, tc := range []struct {
		name  string
		x     int
		text  string
		want  string
		used  int
		width int
	}{
		{"ascii", 0, "abc", "a|b|c| | |", 3, 5},
		{"wide", 1, "コa", " |コ|_|a| |", 3, 5},
		{"wide clipped at the right edge", 3, "aコ", " | | |a| |", 1, 5},
		{"left edge cuts a wide glyph", -1, "コb", " |b| | | |", 3, 5},
		{"combining mark joins its base", 0, "e\u0301x", "e\u0301|x| | | |", 2, 5},
		{"ZWJ family is one wide cluster", 0, "👨\u200d👩\u200d👧!", "👨\u200d👩\u200d👧|_|!| | |", 3, 5},
		{"flag", 0, "🇯🇵", "🇯🇵|_| | | |", 2, 5},
		{"controls drawn visibly", 0, "\x1b[2J", "␛|[|2|J| |", 4, 5},
		{"C1 and DEL visible", 0, "\u009b\x7f", "\uFFFD|␡| | | |", 2, 5},
		{"invalid UTF-8", 0, "a\xffb", "a|\uFFFD|b| | |", 3, 5},
		{"tab is a control", 0, "\t", "␉| | | | |", 1, 5},
		{"past the right edge", 5, "x", " | | | | |", 0, 5},
	} {
		b := render.NewBuffer(tc.width, 1)
		used := b.SetString(tc.x, 0, tc.text, render.Style{}, "")
		if got := row(b, 0); got != tc.want || used != tc.used {
			t.Errorf("%s: got %q used %d, want %q used %d", tc.name, got, used, tc.want, tc.used)
		}
	}
}

func TestOverwritingHalfAWideGlyphBlanksTheOther(t *testing.T) {
	for _, tc := range []struct {
		name string
		draw func(b *render.Buffer)
		want string
	}{
		{"right half", func(b *render.Buffer) { b.SetString(2, 0, "x", render.Style{}, "") }, " | |x| |"},
		{"left half", func(b *render.Buffer) { b.SetString(1, 0, "x", render.Style{}, "") }, " |x| | |"},
		{"wide over the right half", func(b *render.Buffer) { b.SetString(2, 0, "字", render.Style{}, "") }, " | |字|_|"},
		{"fill over the right half", func(b *render.Buffer) { b.Fill(2, 0, 2, 1, render.Style{}) }, " | | | |"},
		{"fill ending on the left half", func(b *render.Buffer) { b.Fill(0, 0, 2, 1, render.Style{}) }, " | | | |"},
		{"resize cuts it", func(b *render.Buffer) { b.Resize(2, 1) }, " | |"},
	} {
		b := render.NewBuffer(4, 1)
		b.SetString(1, 0, "コ", render.Style{}, "")
		tc.draw(b)
		if got := row(b, 0); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSetLineAndLinks(t *testing.T) {
	b := render.NewBuffer(8, 1)
	used := b.SetLine(1, 0, render.Line{Spans: []render.Span{
		{Text: "ab", Style: render.Style{Attrs: render.Bold}},
		{Text: "cd", Link: "https://x/\x07y"},
	}})
	if used != 4 || row(b, 0) != " |a|b|c|d| | | |" {
		t.Fatalf("got %q used %d", row(b, 0), used)
	}
	if c := b.Cell(3, 0); c.Link != "https://x/y" {
		t.Fatalf("link %q, want the control stripped", c.Link)
	}
	if c := b.Cell(1, 0); c.Style.Attrs != render.Bold || c.Link != "" {
		t.Fatalf("cell %+v", c)
	}
}

func TestBlankCellsKeepOnlyVisibleStyle(t *testing.T) {
	b := render.NewBuffer(2, 1)
	b.SetString(0, 0, " ", render.Style{Fg: render.ANSI(1), Bg: render.ANSI(2), Attrs: render.Bold | render.Italic}, "")
	b.Fill(1, 0, 1, 1, render.Style{Fg: render.ANSI(1), Bg: render.ANSI(2), Attrs: render.Underline | render.Bold})
	if c := b.Cell(0, 0); c.Style != (render.Style{Bg: render.ANSI(2)}) {
		t.Errorf("plain blank kept %+v", c.Style)
	}
	if c := b.Cell(1, 0); c.Style != (render.Style{Fg: render.ANSI(1), Bg: render.ANSI(2), Attrs: render.Underline}) {
		t.Errorf("underlined blank kept %+v", c.Style)
	}
}

func TestShift(t *testing.T) {
	b := render.NewBuffer(1, 4)
	for y, s := range []string{"a", "b", "c", "d"} {
		b.SetString(0, y, s, render.Style{}, "")
	}
	b.Shift(1, 4, 1)
	if got := rendertest.BufferRow(b, 0) + rendertest.BufferRow(b, 1) + rendertest.BufferRow(b, 2) + rendertest.BufferRow(b, 3); got != "acd " {
		t.Fatalf("after shift up: %q", got)
	}
	b.Shift(0, 4, -2)
	if got := rendertest.BufferRow(b, 0) + rendertest.BufferRow(b, 1) + rendertest.BufferRow(b, 2) + rendertest.BufferRow(b, 3); got != "  ac" {
		t.Fatalf("after shift down: %q", got)
	}
}

func TestAdaptColor(t *testing.T) {
	for _, tc := range []struct {
		in    render.Color
		level render.ColorLevel
		want  render.Color
	}{
		{render.RGB(255, 0, 0), render.ColorTrue, render.RGB(255, 0, 0)},
		{render.RGB(255, 0, 0), render.Color256, render.Indexed(196)},
		{render.RGB(255, 0, 0), render.Color16, render.ANSI(9)},
		{render.RGB(128, 128, 128), render.Color256, render.Indexed(244)},
		{render.RGB(0, 0, 0), render.Color256, render.Indexed(16)},
		{render.Indexed(3), render.Color256, render.ANSI(3)},
		{render.Indexed(196), render.Color16, render.ANSI(9)},
		{render.ANSI(4), render.ColorNone, render.DefaultColor},
		{render.RGB(1, 2, 3), render.ColorNone, render.DefaultColor},
		{render.DefaultColor, render.Color16, render.DefaultColor},
	} {
		if got := render.AdaptColor(tc.in, tc.level); got != tc.want {
			t.Errorf("AdaptColor(%#x, %v) = %#x, want %#x", tc.in, tc.level, got, tc.want)
		}
	}
}

// Colour degradation happens in the bytes: no 38;2 below true colour, no
// colour SGR at all at ColorNone (attributes still go out).
func TestColorLevelsOnTheWire(t *testing.T) {
	st := render.Style{Fg: render.RGB(200, 10, 10), Bg: render.Indexed(100), Attrs: render.Bold}
	for _, tc := range []struct {
		level         render.ColorLevel
		must, mustNot []string
	}{
		{render.ColorTrue, []string{"38;2;200;10;10", "48;5;100"}, nil},
		{render.Color256, []string{"38;5;", "48;5;100"}, []string{"38;2"}},
		{render.Color16, []string{"31", "43"}, []string{"38;", "48;"}},
		{render.ColorNone, []string{"\x1b[1m"}, []string{"38;", "48;", "31", "43"}},
	} {
		out := &writes{}
		s := render.NewScreen(out, 5, 1, render.Options{Colors: tc.level})
		s.Back().SetString(0, 0, "x", st, "")
		flush(t, s)
		body := out.last()
		for _, m := range tc.must {
			if !strings.Contains(body, m) {
				t.Errorf("%v: %q lacks %q", tc.level, body, m)
			}
		}
		for _, m := range tc.mustNot {
			if strings.Contains(body, m) {
				t.Errorf("%v: %q has %q", tc.level, body, m)
			}
		}
	}
}

// SGR goes out as the cheaper of a transition and a reset.
func TestSGRTransitions(t *testing.T) {
	bold := render.Style{Attrs: render.Bold}
	for _, tc := range []struct {
		name     string
		from, to render.Style
		want     string
	}{
		{"add italic", bold, render.Style{Attrs: render.Bold | render.Italic}, "\x1b[3m"},
		{"drop bold keep dim", render.Style{Attrs: render.Bold | render.Dim}, render.Style{Attrs: render.Dim}, "\x1b[;2m"},
		{"to default is a reset", render.Style{Fg: render.RGB(1, 2, 3), Attrs: render.Bold | render.Underline}, render.Style{}, "\x1b[m"},
		{"reset then set when shorter", render.Style{Fg: render.RGB(1, 2, 3), Bg: render.RGB(4, 5, 6), Attrs: render.Italic | render.Underline}, render.Style{Attrs: render.Bold}, "\x1b[;1m"},
		{"22 restores the survivor", render.Style{Fg: render.RGB(1, 2, 3), Attrs: render.Bold | render.Dim}, render.Style{Fg: render.RGB(1, 2, 3), Attrs: render.Dim}, "\x1b[22;2m"},
		{"bright colours", render.Style{}, render.Style{Fg: render.ANSI(9), Bg: render.ANSI(12)}, "\x1b[91;104m"},
	} {
		out := &writes{}
		s := render.NewScreen(out, 4, 1, plainOpts)
		s.Back().SetString(0, 0, "a", tc.from, "")
		flush(t, s)
		s.Back().SetString(0, 0, "a", tc.from, "")
		s.Back().SetString(1, 0, "b", tc.to, "")
		flush(t, s)
		if body := frameBody(t, out.last()); body != tc.want+"b" {
			t.Errorf("%s: %q, want %q", tc.name, body, tc.want+"b")
		}
	}
}

func TestHugeClusterIsClipped(t *testing.T) {
	b := render.NewBuffer(3, 1)
	zalgo := "a" + strings.Repeat("\u0301", 5000) + "b"
	if used := b.SetString(0, 0, zalgo, render.Style{}, ""); used != 2 {
		t.Fatalf("used %d", used)
	}
	c := b.Cell(0, 0)
	if len(c.Grapheme) > 64 || !strings.HasPrefix(c.Grapheme, "a\u0301") || b.Cell(1, 0).Grapheme != "b" {
		t.Fatalf("cells %q %q", c.Grapheme, b.Cell(1, 0).Grapheme)
	}
}

// Resizing keeps the cells that fit, whichever way each side changes,
// and a terminal resized back and forth allocates nothing.
func TestResizeKeepsContent(t *testing.T) {
	fill := func(b *render.Buffer) {
		w, h := b.Size()
		for y := range h {
			for x := range w {
				b.SetString(x, y, string(rune('a'+(x+y*3)%26)), render.Style{Fg: render.ANSI(uint8(x))}, "")
			}
		}
	}
	for _, to := range [][2]int{{5, 3}, {12, 6}, {5, 6}, {12, 3}, {8, 4}, {0, 0}, {3, 9}} {
		b := render.NewBuffer(8, 4)
		fill(b)
		ref := render.NewBuffer(8, 4)
		fill(ref)
		b.Resize(20, 10) // grow the capacity first, so the next resize reuses it
		b.Resize(8, 4)
		b.Resize(to[0], to[1])
		for y := range to[1] {
			for x := range to[0] {
				want := render.Cell{}
				if x < 8 && y < 4 {
					want = ref.Cell(x, y)
				}
				if got := b.Cell(x, y); got != want {
					t.Fatalf("8x4→%v: (%d,%d) = %+v, want %+v", to, x, y, got, want)
				}
			}
		}
	}
	b := render.NewBuffer(200, 50)
	if n := testing.AllocsPerRun(20, func() { b.Resize(160, 40); b.Resize(200, 50) }); n != 0 {
		t.Fatalf("%v allocations per resize pair", n)
	}
}

// TestSetCellsDrawsWhatItCopied pins SetCells to drawing: cells copied
// from a row where a string was drawn, put over any row, make the row
// drawing that string there would make, wide clusters under either edge
// included.
func TestSetCellsDrawsWhatItCopied(t *testing.T) {
	unders := []string{"", "コココ", "aコbコ", "字字字", "abcdefg"}
	for _, text := range []string{"xy", "字z", "a字", "字字", "e\u0301x", "xyz字"} {
		for _, under := range unders {
			for _, x := range []int{0, 1, 2, 3} {
				want := render.NewBuffer(7, 1)
				want.SetString(0, 0, under, render.Style{}, "")
				n := want.SetString(x, 0, text, render.Style{Fg: render.ANSI(2)}, "https://x")

				src := render.NewBuffer(7, 1)
				src.SetString(x, 0, text, render.Style{Fg: render.ANSI(2)}, "https://x")
				cells := src.AppendCells(nil, x, 0, n)
				got := render.NewBuffer(7, 1)
				got.SetString(0, 0, under, render.Style{}, "")
				if m := got.SetCells(x, 0, cells); m != n || !got.Equal(want) {
					t.Errorf("%q at %d over %q: SetCells wrote %d cells, row %q; drawing wrote %d, row %q",
						text, x, under, m, row(got, 0), n, row(want, 0))
				}
			}
		}
	}
}

// TestSetCellsBlanksWideClustersCutByTheCopy: a copy that starts on the
// right half of a wide cluster or ends on its left half holds no whole
// cluster there, and draws a blank.
func TestSetCellsBlanksWideClustersCutByTheCopy(t *testing.T) {
	src := render.NewBuffer(6, 1)
	src.SetString(0, 0, "字a字", render.Style{}, "")
	for _, tc := range []struct {
		from, n int
		want    string
	}{
		{1, 3, " |a| | | | |"},
		{0, 4, "字|_|a| | | |"},
		{1, 4, " |a|字|_| | |"},
	} {
		b := render.NewBuffer(6, 1)
		b.SetCells(0, 0, src.AppendCells(nil, tc.from, 0, tc.n))
		if got := row(b, 0); got != tc.want {
			t.Errorf("cells [%d,%d): got %q, want %q", tc.from, tc.from+tc.n, got, tc.want)
		}
	}
	// Clipped at the right edge, and nothing outside the buffer.
	b := render.NewBuffer(3, 1)
	if n := b.SetCells(1, 0, src.AppendCells(nil, 0, 0, 6)); n != 2 || row(b, 0) != " |字|_|" {
		t.Errorf("clipped copy wrote %d cells, row %q", n, row(b, 0))
	}
	if n := b.SetCells(3, 0, src.AppendCells(nil, 0, 0, 2)); n != 0 {
		t.Errorf("copy past the right edge wrote %d cells", n)
	}
}

// TestDrawnWidthIsWhatSetStringAdvances measures strings the way drawing
// them does: wide clusters that do not fit, controls, zero-width
// clusters and the dashes uniseg counts wider than two columns.
func TestDrawnWidthIsWhatSetStringAdvances(t *testing.T) {
	for _, s := range []string{"", "abc", "a字b", "字字字", "e\u0301x", "\x1b[0m", "⸻x", "⸺", "\u200b", "👨\u200d👩\u200d👧!", "a\xffb", "· working 12s"} {
		for width := 0; width <= 8; width++ {
			b := render.NewBuffer(width, 1)
			if got, want := render.DrawnWidth(s, width), b.SetString(0, 0, s, render.Style{}, ""); got != want {
				t.Errorf("DrawnWidth(%q, %d) = %d, SetString advanced %d", s, width, got, want)
			}
		}
	}
}

// TestGrowingRowByRowAllocatesRarely grows a buffer a row at a time, as
// the inline view's region grows under a stream: its memory doubles, so
// forty rows take a handful of allocations, not forty, and the rows keep
// their content.
func TestGrowingRowByRowAllocatesRarely(t *testing.T) {
	allocs := testing.AllocsPerRun(10, func() {
		b := render.NewBuffer(120, 0)
		for h := 1; h <= 40; h++ {
			b.Resize(120, h)
			b.SetString(0, h-1, "row", render.Style{}, "")
		}
	})
	if allocs > 8 {
		t.Errorf("growing to 40 rows took %v allocations", allocs)
	}
	b := render.NewBuffer(3, 0)
	for h := 1; h <= 9; h++ {
		b.Resize(3, h)
		b.SetString(0, h-1, string(rune('a'+h)), render.Style{}, "")
	}
	for y := range 9 {
		if got := row(b, y); got != string(rune('b'+y))+"| | |" {
			t.Errorf("row %d after growing: %q", y, got)
		}
	}
}

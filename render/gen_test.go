package render_test

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
	"pgregory.net/rapid"

	"github.com/quire-sh/quire/render"
)

// clusterPool is what generated text is made of: ASCII, CJK, emoji with
// ZWJ, flags and skin tones, combining marks, box drawing, and controls
// and invalid UTF-8 (which must come out as visible glyphs).
//
// Excluded, because uniseg (our width) and the oracle's width function
// disagree on them, so no byte stream could make both agree (see
// TestWidthDisagreements): keycap sequences (1️⃣), Thai SARA AM (กำ) and
// Devanagari conjuncts (क्ष).
var clusterPool = []string{
	"a", "b", "x", "Z", "0", " ", " ", " ", "-", "~", "é",
	"コ", "漢", "字", "각", "Ａ",
	"😀", "👍🏽", "❤️", "👨\u200d👩\u200d👧", "🧑\u200d💻", "🏳️\u200d🌈", "🇯🇵", "🇺🇸",
	"e\u0301", "a\u0308", "ñ", "─", "│", "→", "…",
	"\x1b", "\x07", "\t", "\u009b", "\x7f", "\xff",
}

// widthDisagreements are the clusters known to be measured differently by
// uniseg and by the oracle terminal.
var widthDisagreements = []string{"1️⃣", "#️⃣", "ก\u0e33", "\u0915\u094d\u0937"}

func TestWidthDisagreements(t *testing.T) {
	for _, g := range clusterPool {
		if ours, theirs := render.StringWidth(g), oracleWidth(g); ours != theirs {
			t.Errorf("pool cluster %q: uniseg width %d, oracle width %d", g, ours, theirs)
		}
	}
	for _, g := range widthDisagreements {
		if ours, theirs := render.StringWidth(g), oracleWidth(g); ours == theirs {
			t.Logf("%q now agrees (width %d): it can join the pool", g, ours)
		}
	}
}

func oracleWidth(g string) int {
	g = render.Sanitize(g)
	w := 0
	for len(g) > 0 {
		c, cw := ansi.FirstGraphemeCluster(g, ansi.GraphemeWidth)
		w += cw
		g = g[len(c):]
	}
	return w
}

var urlPool = []string{"", "", "", "https://a.example/x", "file:///tmp/b.go", "https://c.example/\x1bevil\x07", "https://d.example/long/path/to/something"}

func genText(t *rapid.T, label string) string {
	n := rapid.IntRange(0, 12).Draw(t, label+"len")
	s := ""
	for range n {
		s += rapid.SampledFrom(clusterPool).Draw(t, label+"cluster")
	}
	return s
}

func genColor(t *rapid.T, label string) render.Color {
	switch rapid.IntRange(0, 4).Draw(t, label) {
	case 1:
		return render.ANSI(uint8(rapid.IntRange(0, 15).Draw(t, label+"ansi")))
	case 2:
		return render.Indexed(uint8(rapid.IntRange(0, 255).Draw(t, label+"idx")))
	case 3:
		return render.RGB(uint8(rapid.IntRange(0, 255).Draw(t, label+"r")), uint8(rapid.IntRange(0, 255).Draw(t, label+"g")), uint8(rapid.IntRange(0, 255).Draw(t, label+"b")))
	}
	return render.DefaultColor
}

func genStyle(t *rapid.T) render.Style {
	return render.Style{
		Fg:    genColor(t, "fg"),
		Bg:    genColor(t, "bg"),
		Attrs: render.Attr(rapid.IntRange(0, 63).Draw(t, "attrs")),
	}
}

// mutate applies one random drawing operation to b.
func mutate(t *rapid.T, b *render.Buffer) {
	w, h := b.Size()
	x := rapid.IntRange(-2, w).Draw(t, "x")
	y := rapid.IntRange(0, max(h-1, 0)).Draw(t, "y")
	switch rapid.IntRange(0, 7).Draw(t, "op") {
	case 6, 7:
		editRow(t, b, y)
		return
	case 0, 1, 2:
		b.SetString(x, y, genText(t, "text"), genStyle(t), rapid.SampledFrom(urlPool).Draw(t, "link"))
	case 3:
		b.Fill(x, y, rapid.IntRange(0, w).Draw(t, "fw"), rapid.IntRange(0, h).Draw(t, "fh"), genStyle(t))
	case 4:
		b.SetLine(x, y, render.Line{Spans: []render.Span{
			{Text: genText(t, "s1"), Style: genStyle(t), Link: rapid.SampledFrom(urlPool).Draw(t, "l1")},
			{Text: genText(t, "s2"), Style: genStyle(t)},
		}})
	case 5:
		b.Fill(0, y, w, 1, render.Style{})
	}
}

// editRow inserts or deletes a few cells in the middle of row y, the way
// typing in a prompt or a counter changing width does.
func editRow(t *rapid.T, b *render.Buffer, y int) {
	w, _ := b.Size()
	cells := make([]render.Cell, 0, w+8)
	for x := range w {
		cells = append(cells, b.Cell(x, y))
	}
	p := rapid.IntRange(0, w).Draw(t, "editAt")
	k := rapid.IntRange(1, 8).Draw(t, "editLen")
	if rapid.Bool().Draw(t, "insert") {
		fill := render.Cell{Grapheme: rapid.SampledFrom([]string{"", "x", "y"}).Draw(t, "editFill")}
		ins := make([]render.Cell, k)
		for i := range ins {
			ins[i] = fill
		}
		cells = append(cells[:p], append(ins, cells[p:]...)...)
	} else {
		cells = append(cells[:p], cells[min(p+k, len(cells)):]...)
	}
	b.Fill(0, y, w, 1, render.Style{})
	for x, c := range cells {
		if x >= w {
			break
		}
		if c.Width() == 0 {
			continue
		}
		b.SetString(x, y, c.String(), c.Style, c.Link)
	}
}

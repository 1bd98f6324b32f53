package scrollback

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

func bufferText(b *render.Buffer) []string {
	w, h := b.Size()
	out := make([]string, h)
	for y := range h {
		var s strings.Builder
		for x := 0; x < w; x++ {
			c := b.Cell(x, y)
			s.WriteString(c.String())
		}
		out[y] = strings.TrimRight(s.String(), " ")
	}
	return out
}

func TestDrawPaintsMatchesFocusAndClips(t *testing.T) {
	s := (&script{}).prompt("find the needle in the haystack")
	s.say("A needle, another needle, and a very long line that goes past the edge of the region")
	tr := newTranscript(20, 12, s.evs...)
	tr.BeginSearch(false)
	tr.SetSearchPattern("needle")
	tr.CommitSearch()
	tr.Focus(tr.At(1).ID())
	buf := render.NewBuffer(30, 14)
	buf.SetString(0, 1, strings.Repeat("#", 30), render.Style{}, "") // stale content to be overwritten
	f := tr.Draw(buf, 2, 1)

	got := bufferText(buf)
	for r, l := range screen(f) {
		if r == 0 {
			continue
		}
		if want := "  " + l; strings.TrimRight(want, " ") != got[r+1] && l != "" {
			t.Fatalf("row %d: buffer %q, frame %q", r, got[r+1], l)
		}
	}
	if got[1] != "##"+strings.Repeat(" ", 20)+"########" {
		t.Fatalf("row 0 of the region (and only it) should be blanked, got %q", got[1])
	}
	if len(f.Matches) < 3 {
		t.Fatalf("matches %+v", f.Matches)
	}
	th := DefaultTheme()
	for _, m := range f.Matches {
		c := buf.Cell(2+m.Col, 1+m.Row)
		want := th.Match.Attrs
		if m.Current {
			want = th.CurrentMatch.Attrs
			if c.Style.Bg != th.CurrentMatch.Bg {
				t.Fatalf("current match at row %d col %d not in CurrentMatch style: %+v", m.Row, m.Col, c.Style)
			}
		}
		if c.Style.Attrs&want != want {
			t.Fatalf("match at row %d col %d not highlighted: %+v", m.Row, m.Col, c.Style)
		}
		if before := buf.Cell(2+m.Col-1, 1+m.Row); m.Col > 0 && before.Style == c.Style && before.Grapheme != " " && before.Grapheme != "" {
			t.Fatalf("highlight leaked before the match at row %d", m.Row)
		}
	}
	if f.focusMargin < 0 || !strings.HasPrefix(got[1+f.focusMargin], "  ────") {
		t.Fatalf("focused block's margin should be a rule; rows:\n%s", strings.Join(got, "\n"))
	}
	for _, row := range got[2:] {
		if len([]rune(row)) > 22 {
			t.Fatalf("row %q drawn past the region's right edge", row)
		}
	}
}

// TestInlineViewWritesEachLineOnceToScrollback streams turns through the
// real inline viewport into a VT emulator: at the end the terminal's
// scrollback and screen hold every transcript line exactly once, in
// order.
func TestInlineViewWritesEachLineOnceToScrollback(t *testing.T) {
	const width, height = 40, 8
	s := &script{}
	for k := 0; k < 6; k++ {
		s.prompt("prompt number " + string(rune('A'+k)))
		text := strings.Repeat("streamed words wrap across lines ", 5) + "\n\nsecond paragraph\n"
		for i := 0; i < len(text); i += 9 {
			s.add(event.Event{Kind: event.AssistantDelta, Text: text[i:min(i+9, len(text))]})
		}
		s.add(event.Event{Kind: event.AssistantMessage, Text: text})
		s.call("c"+string(rune('A'+k)), "shell", "execute", "make")
		s.output("c"+string(rune('A'+k)), "building\n")
		s.result("c"+string(rune('A'+k)), event.ToolOK, "", 40)
		s.end(event.TurnCompleted)
	}
	tr := New(Options{Width: width, Height: height})
	term := rendertest.NewOracle(width, height)
	view := render.NewInline(term, width, height, 0, render.Options{Colors: render.ColorTrue, Hyperlinks: true})
	flush := func() {
		view.InsertAbove(tr.TakeFinished()...)
		live := tr.LiveLines()
		view.SetLiveHeight(min(len(live), height-1))
		for r, l := range live {
			if r < height-1 {
				view.Live().SetLine(0, r, l)
			}
		}
		if _, err := view.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range s.evs {
		tr.Apply(e)
		flush()
	}
	flush()
	got := append(term.ScrollbackText(), term.ScreenText()...)
	for len(got) > 0 && got[len(got)-1] == "" {
		got = got[:len(got)-1]
	}
	want := allLines(tr)
	for len(want) > 0 && want[len(want)-1] == "" {
		want = want[:len(want)-1]
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("terminal holds:\n%s\n---- want:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

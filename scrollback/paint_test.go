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

// TestFullScreenShowsTheFrame draws frames through the real full-screen
// surface into a VT emulator while an answer streams and the reader
// scrolls, and checks the terminal shows exactly the frame each time.
func TestFullScreenShowsTheFrame(t *testing.T) {
	const width, height = 36, 10
	tr := newTranscript(width, height, longTranscript(30).evs...)
	term := rendertest.NewOracle(width, height)
	scr := render.NewScreen(term, width, height, render.Options{Colors: render.ColorTrue, Hyperlinks: true})
	step := func(what string) {
		t.Helper()
		f := tr.Draw(scr.Back(), 0, 0)
		want := render.NewBuffer(width, height)
		PaintFrame(want, 0, 0, width, f, &tr.theme, nil)
		if _, err := scr.Flush(); err != nil {
			t.Fatal(err)
		}
		if d := term.Diff(want); d != "" {
			t.Fatalf("%s: terminal differs from the frame:\n%s", what, d)
		}
	}
	step("first frame")
	tr.Apply(event.Event{Kind: event.UserMessage, Text: "and now?"})
	for i := 0; i < 30; i++ {
		tr.Apply(event.Event{Kind: event.AssistantDelta, Text: "more words for the answer "})
		step("streaming")
	}
	tr.BeginSearch(true)
	tr.SetSearchPattern("file2\\d")
	tr.CommitSearch()
	step("search")
	for i := 0; i < 15; i++ {
		tr.ScrollLines(-3)
		step("scrolling up")
	}
	tr.PrevTurn()
	step("h")
}

// TestInlineResizeReprintsEachLineOnce resizes the inline view in the
// middle of a streamed answer: the purge-and-reprint policy, fed by
// ReflowEmitted, leaves the terminal holding the transcript at the new
// width exactly once.
func TestInlineResizeReprintsEachLineOnce(t *testing.T) {
	width, height := 40, 8
	tr := New(Options{Width: width, Height: height})
	term := rendertest.NewOracle(width, height)
	view := render.NewInline(term, width, height, 0, render.Options{Colors: render.ColorTrue, Hyperlinks: true})
	flush := func(above []render.Line) {
		view.InsertAbove(above...)
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
	s := (&script{}).prompt("tell me a long story about terminals and their scrollback")
	text := strings.Repeat("Once upon a time a terminal kept every line it was given. ", 12) + "\n\nThe end.\n"
	for i := 0; i < len(text); i += 11 {
		s.add(event.Event{Kind: event.AssistantDelta, Text: text[i:min(i+11, len(text))]})
	}
	s.add(event.Event{Kind: event.AssistantMessage, Text: text})
	s.end(event.TurnCompleted)
	for i, e := range s.evs {
		tr.Apply(e)
		if i == len(s.evs)/2 {
			width = 30
			tr.Resize(width, height)
			term.Resize(width, height)
			view.Resize(width, height)
			flush(tr.ReflowEmitted())
			continue
		}
		flush(tr.TakeFinished())
	}
	flush(tr.TakeFinished())
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

// TestPaintReusesRowsOnlyWhileTheirLinesStay draws frame after frame
// through the transcript's own scratch, whose row cache copies the cells
// of a row drawn from the same line before, into one reused buffer
// blanked between frames as the screen's back buffer is, and checks each
// against a painting from nothing: a row whose line, style, search
// highlight, focus rule or width changed is drawn anew, never copied
// stale.
func TestPaintReusesRowsOnlyWhileTheirLinesStay(t *testing.T) {
	const height = 12
	width := 40
	tr := newTranscript(width, height, longTranscript(6).evs...)
	back := render.NewBuffer(width, height)
	step := func(what string) {
		t.Helper()
		back.Clear()
		f := tr.Draw(back, 2, 0)
		want := render.NewBuffer(width+2, height)
		PaintFrame(want, 2, 0, width, f, &tr.theme, nil)
		if !back.Equal(want) {
			t.Fatalf("%s: the cached painting differs from a fresh one:\n%s\n---- fresh:\n%s",
				what, strings.Join(bufferText(back), "\n"), strings.Join(bufferText(want), "\n"))
		}
	}
	back.Resize(width+2, height)
	step("first frame")
	step("unchanged")
	tr.Apply(event.Event{Kind: event.UserMessage, Text: "and the lexer?"})
	for i := 0; i < 20; i++ {
		tr.Apply(event.Event{Kind: event.AssistantDelta, Text: "lexer words **bold** `code` "})
		step("streaming")
	}
	tr.BeginSearch(false)
	tr.SetSearchPattern("lexer")
	tr.CommitSearch()
	step("search highlights")
	tr.SearchNext(false)
	step("the current match moves")
	tr.ClearSearch()
	step("search cleared")
	tr.ScrollLines(-5)
	step("scrolled")
	tr.ScrollLines(-1)
	step("scrolled a line: rows found one row away")
	tr.ScrollLines(2)
	step("scrolled two lines back")
	tr.ScrollLines(1)
	step("and one more")
	tr.FocusNext(1)
	step("focus rule")
	tr.FocusNext(1)
	step("focus moved")
	tr.ToggleCollapse()
	step("folded")
	tr.Unfocus()
	step("unfocused")
	width = 30
	tr.Resize(width, height)
	back.Resize(width+2, height)
	step("narrower")
	tr.SetFilter("parser")
	step("filtered")
}

// TestPaintRowCacheKeysOnTheWidth paints the same lines, wider than the
// region, into narrower and wider regions with one scratch: each is
// clipped at its own width, not copied from the last.
func TestPaintRowCacheKeysOnTheWidth(t *testing.T) {
	long := render.Plain(strings.Repeat("0123456789", 4), render.Style{Fg: render.ANSI(3)})
	f := &Frame{Lines: []render.Line{long, render.Plain("short", render.Style{})}, focusMargin: -1}
	th := DefaultTheme()
	var scratch PaintScratch
	for _, w := range []int{20, 10, 35, 35, 5} {
		got := render.NewBuffer(40, 2)
		PaintFrame(got, 1, 0, w, f, &th, &scratch)
		want := render.NewBuffer(40, 2)
		PaintFrame(want, 1, 0, w, f, &th, nil)
		if !got.Equal(want) {
			t.Fatalf("width %d: got\n%s\nwant\n%s", w, strings.Join(bufferText(got), "\n"), strings.Join(bufferText(want), "\n"))
		}
	}
}

// TestPaintRowCacheKeysOnTheBufferWidth paints one frame into buffers
// whose right edge clips it differently: a wide cluster the edge cuts in
// one is not copied into the other.
func TestPaintRowCacheKeysOnTheBufferWidth(t *testing.T) {
	f := &Frame{Lines: []render.Line{render.Plain("字字字字字字", render.Style{Bg: render.ANSI(4)})}, focusMargin: -1}
	th := DefaultTheme()
	var scratch PaintScratch
	for _, bw := range []int{12, 11, 13, 11} {
		got := render.NewBuffer(bw, 1)
		PaintFrame(got, 0, 0, 12, f, &th, &scratch)
		want := render.NewBuffer(bw, 1)
		PaintFrame(want, 0, 0, 12, f, &th, nil)
		if !got.Equal(want) {
			t.Fatalf("buffer width %d: got %q, want %q", bw, bufferText(got), bufferText(want))
		}
	}
}

// countingBody counts how often a block's lines are asked for.
type countingBody struct {
	BodyRenderer
	lines *int
}

func (c countingBody) Lines() []render.Line {
	*c.lines++
	return c.BodyRenderer.Lines()
}

// The inline view asks a streaming block for its lines once per frame
// that follows a change, and not at all for a frame after none: the
// finished lines it takes and the live ones it draws come from one
// layout.
func TestInlineFrameLaysOutTheStreamOnce(t *testing.T) {
	var lines int
	plain := PlainFactory(render.Style{})
	tr := New(Options{Width: 40, Height: 10, Assistant: func(w int) BodyRenderer {
		return countingBody{BodyRenderer: plain(w), lines: &lines}
	}})
	frame := func() {
		tr.TakeFinished()
		tr.LiveLines()
	}
	s := &script{}
	s.prompt("question")
	tr.Apply(s.evs[0])
	frame()
	text := strings.Repeat("streamed words wrap across lines\n", 8)
	for i := 0; i < len(text); i += 7 {
		tr.Apply(event.Event{Kind: event.AssistantDelta, Text: text[i:min(i+7, len(text))]})
		before := lines
		frame()
		if n := lines - before; n > 1 {
			t.Fatalf("after a chunk, a frame asked the stream for its lines %d times", n)
		}
		before = lines
		frame()
		if n := lines - before; n != 0 {
			t.Fatalf("a frame after no change asked the stream for its lines %d times", n)
		}
	}
}

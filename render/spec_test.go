package render_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

// writes records every Write call separately.
type writes struct{ calls [][]byte }

func (w *writes) Write(p []byte) (int, error) {
	w.calls = append(w.calls, bytes.Clone(p))
	return len(p), nil
}

func (w *writes) last() string {
	if len(w.calls) == 0 {
		return ""
	}
	return string(w.calls[len(w.calls)-1])
}

var plainOpts = render.Options{Colors: render.ColorTrue, Hyperlinks: true}

// frameBody strips the synchronized-update bracket off one frame.
func frameBody(t *testing.T, frame string) string {
	t.Helper()
	if !strings.HasPrefix(frame, "\x1b[?2026h") || !strings.HasSuffix(frame, "\x1b[?2026l") {
		t.Fatalf("frame not wrapped in a synchronized-update bracket: %q", frame)
	}
	return strings.TrimSuffix(strings.TrimPrefix(frame, "\x1b[?2026h"), "\x1b[?2026l")
}

// newScreen returns a screen whose first frame (the alternate-screen
// entry and the clear) has already been flushed from draw.
func newScreen(t *testing.T, w, h int, opts render.Options, draw func(*render.Buffer)) (*render.Screen, *writes) {
	t.Helper()
	out := &writes{}
	s := render.NewScreen(out, w, h, opts)
	if draw != nil {
		draw(s.Back())
	}
	if _, err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	return s, out
}

func flush(t *testing.T, s *render.Screen) render.Stats {
	t.Helper()
	st, err := s.Flush()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// §25.1: an identical frame with the same cursor writes exactly 0 bytes.
func TestIdleFrameWritesNothing(t *testing.T) {
	draw := func(b *render.Buffer) { b.SetString(0, 0, "hello", render.Style{Fg: render.ANSI(1)}, "") }
	s, out := newScreen(t, 10, 3, plainOpts, draw)
	s.SetCursor(2, 1, true)
	draw(s.Back())
	flush(t, s)
	n := len(out.calls)
	for range 3 {
		draw(s.Back())
		if st := flush(t, s); st.Bytes != 0 || st.Writes != 0 {
			t.Fatalf("idle frame: %+v", st)
		}
	}
	if len(out.calls) != n {
		t.Fatalf("idle frames called Write: %q", out.calls[n:])
	}
}

// §25.2: after an idle frame the diff is against the last rendered frame,
// so the buffers were swapped on the idle path too.
func TestChangeAfterIdleFrameIsMinimal(t *testing.T) {
	draw := func(b *render.Buffer) { b.SetString(0, 0, "abcd", render.Style{}, "") }
	s, out := newScreen(t, 10, 2, plainOpts, draw)
	draw(s.Back())
	flush(t, s) // idle
	s.Back().SetString(0, 0, "abXd", render.Style{}, "")
	st := flush(t, s)
	// The hidden cursor was left after "abcd": two backspaces reach c.
	if body := frameBody(t, out.last()); body != "\b\bX" {
		t.Fatalf("frame body %q, want two backspaces and X", body)
	}
	if st.CellsChanged != 1 {
		t.Fatalf("CellsChanged = %d, want 1", st.CellsChanged)
	}
}

// §25.3: every non-idle frame is one Write inside the bracket.
func TestEveryFrameIsOneBracketedWrite(t *testing.T) {
	out := &writes{}
	s := render.NewScreen(out, 20, 5, plainOpts)
	for i := range 10 {
		s.Back().SetString(i, i%5, "x", render.Style{Attrs: render.Bold}, "")
		s.SetCursor(i, 0, i%2 == 0)
		before := len(out.calls)
		st := flush(t, s)
		if len(out.calls)-before != 1 || st.Writes != 1 {
			t.Fatalf("frame %d made %d writes", i, len(out.calls)-before)
		}
		frameBody(t, out.last())
		if st.Bytes != len(out.last()) {
			t.Fatalf("Stats.Bytes %d, wrote %d", st.Bytes, len(out.last()))
		}
	}
}

// §25.4: changing a→b at (3,0) writes one move, b, and the cursor
// reposition, nothing else.
func TestSingleCellChange(t *testing.T) {
	s, out := newScreen(t, 10, 3, plainOpts, func(b *render.Buffer) { b.SetString(0, 0, "aaaa", render.Style{}, "") })
	s.SetCursor(0, 1, true)
	s.Back().SetString(0, 0, "aaaa", render.Style{}, "")
	flush(t, s)
	s.Back().SetString(0, 0, "aaab", render.Style{}, "")
	flush(t, s)
	// CUP to row 1 col 4 (the row parameter omitted), b, then CR LF back
	// to (0,1).
	if body := frameBody(t, out.last()); body != "\x1b[;4Hb\r\n" {
		t.Fatalf("frame body %q", body)
	}
}

// §25.5: the cursor decision table.
func TestDecideCursor(t *testing.T) {
	at := func(x, y int, vis bool) render.CursorState { return render.CursorState{X: x, Y: y, Visible: vis} }
	for _, tc := range []struct {
		name       string
		term, want render.CursorState
		wrote      bool
		act        render.CursorAction
	}{
		{"same position, nothing written", at(1, 1, true), at(1, 1, true), false, render.CursorNone},
		{"same position, cells written", at(1, 1, true), at(1, 1, true), true, render.CursorReposition},
		{"moved", at(1, 1, true), at(2, 1, true), false, render.CursorReposition},
		{"visible to hidden", at(1, 1, true), at(1, 1, false), false, render.CursorHide},
		{"visible to hidden, written", at(1, 1, true), at(3, 1, false), true, render.CursorHide},
		{"hidden to visible", at(1, 1, false), at(1, 1, true), false, render.CursorShow},
		{"hidden to visible elsewhere", at(1, 1, false), at(0, 0, true), false, render.CursorShow | render.CursorReposition},
		{"hidden stays hidden, written", at(1, 1, false), at(0, 0, false), true, render.CursorNone},
	} {
		if got := render.DecideCursor(tc.term, tc.want, tc.wrote); got != tc.act {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.act)
		}
	}
}

// §25.6: a cursor move alone is a frame holding only the reposition.
func TestCursorOnlyFrame(t *testing.T) {
	s, out := newScreen(t, 10, 3, plainOpts, nil)
	s.SetCursor(0, 0, true)
	flush(t, s)
	s.SetCursor(4, 2, true)
	st := flush(t, s)
	if body := frameBody(t, out.last()); body != "\x1b[3;5H" {
		t.Fatalf("frame body %q", body)
	}
	if st.Moves != 1 || st.CellsChanged != 0 {
		t.Fatalf("stats %+v", st)
	}
}

// §25.7: raw bytes queued after the cells are not discarded when no cell
// changed.
func TestRawBytesFrame(t *testing.T) {
	s, out := newScreen(t, 10, 3, plainOpts, nil)
	s.AppendRaw([]byte("\x1b_Ga=p,i=1\x1b\\"))
	flush(t, s)
	if body := frameBody(t, out.last()); !strings.Contains(body, "\x1b_Ga=p,i=1\x1b\\") {
		t.Fatalf("frame body %q lacks the placement", body)
	}
}

// §25.8: wide characters; each case checks the written glyphs and the
// terminal's screen.
func TestWideCharacterDiff(t *testing.T) {
	for _, tc := range []struct{ before, after, glyphs string }{
		{"コ", "aa", "aa"},  // both halves rewritten
		{"a ", "コ", "コ"},   // one write covers both cells
		{"aaa", "aコ", "コ"}, // the unchanged a stays; the wide glyph covers 1 and 2
		{"コa", "bコ", "bコ"},
		{"aコ", "aaa", "aa"},
	} {
		o := rendertest.NewOracle(4, 1)
		out := &writes{}
		s := render.NewScreen(ioMulti(o, out), 4, 1, plainOpts)
		s.Back().SetString(0, 0, tc.before, render.Style{}, "")
		flush(t, s)
		want := render.NewBuffer(4, 1)
		want.SetString(0, 0, tc.after, render.Style{}, "")
		s.Back().CopyFrom(want)
		flush(t, s)
		if d := o.Diff(want); d != "" {
			t.Fatalf("%q→%q:\n%s", tc.before, tc.after, d)
		}
		if got := printable(frameBody(t, out.last())); got != tc.glyphs {
			t.Errorf("%q→%q wrote glyphs %q, want %q (frame %q)", tc.before, tc.after, got, tc.glyphs, out.last())
		}
	}
}

// printable drops escape sequences and control bytes, leaving the glyphs.
func printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			i += 2
			for i < len(s) && (s[i] < 0x40 || s[i] > 0x7e) {
				i++
			}
		case c == 0x1b && i+1 < len(s) && s[i+1] == ']':
			for i < len(s) && s[i] != 0x07 {
				i++
			}
		case c == 0x1b:
			i++
		case c < 0x20:
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

type multiWriter []interface{ Write([]byte) (int, error) }

func (m multiWriter) Write(p []byte) (int, error) {
	for _, w := range m {
		if _, err := w.Write(p); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func ioMulti(ws ...interface{ Write([]byte) (int, error) }) multiWriter { return multiWriter(ws) }

// §25.9: more than 65,535 cells; a change at the bottom-right is
// addressed at row 250, column 300.
func TestLargeScreenAddressing(t *testing.T) {
	s, out := newScreen(t, 300, 250, plainOpts, nil)
	s.Back().SetString(299, 249, "z", render.Style{}, "")
	flush(t, s)
	if body := frameBody(t, out.last()); body != "\x1b[250;300Hz" {
		t.Fatalf("frame body %q", body)
	}
}

// Sizes 1×1 and 300×250 (75,000 cells) render correctly.
func TestExtremeSizes(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {300, 250}, {1, 40}, {200, 1}} {
		o := rendertest.NewOracle(sz[0], sz[1])
		s := render.NewScreen(o, sz[0], sz[1], plainOpts)
		want := render.NewBuffer(sz[0], sz[1])
		for i := range 3 {
			want.SetString(sz[0]-1-i, sz[1]-1, "x", render.Style{Fg: render.ANSI(uint8(i))}, "")
			want.SetString(0, 0, "コ", render.Style{}, "")
			want.SetString(i, sz[1]/2, "漢字", render.Style{Bg: render.ANSI(2)}, "")
			s.Back().CopyFrom(want)
			s.SetCursor(sz[0]-1, sz[1]-1, true)
			flush(t, s)
			if d := o.Diff(want); d != "" {
				t.Fatalf("%dx%d frame %d:\n%s", sz[0], sz[1], i, d)
			}
		}
	}
}

// §25.10: a foreground change alone rewrites the cell with the new SGR.
func TestForegroundOnlyChange(t *testing.T) {
	s, out := newScreen(t, 10, 1, plainOpts, func(b *render.Buffer) { b.SetString(0, 0, "ab", render.Style{Fg: render.ANSI(1)}, "") })
	s.Back().SetString(0, 0, "ab", render.Style{Fg: render.ANSI(1)}, "")
	s.Back().SetString(1, 0, "b", render.Style{Fg: render.ANSI(2)}, "")
	flush(t, s)
	if body := frameBody(t, out.last()); body != "\b\x1b[32mb" {
		t.Fatalf("frame body %q", body)
	}
}

// §25.11: text that becomes a link is rewritten inside one OSC 8 wrapper
// (with an id=, so a link wrapped across rows stays one link).
func TestTextGainsLink(t *testing.T) {
	s, out := newScreen(t, 10, 1, plainOpts, func(b *render.Buffer) { b.SetString(0, 0, "docs", render.Style{}, "") })
	s.Back().SetString(0, 0, "docs", render.Style{}, "https://x")
	flush(t, s)
	if body := frameBody(t, out.last()); body != "\r\x1b]8;id=1;https://x\adocs\x1b]8;;\a" {
		t.Fatalf("frame body %q", body)
	}
}

// §25.12: a link swapped for another on the same text is rewritten.
func TestLinkSwap(t *testing.T) {
	s, out := newScreen(t, 10, 1, plainOpts, func(b *render.Buffer) { b.SetString(0, 0, "[A]", render.Style{}, "https://a") })
	s.Back().SetString(0, 0, "[A]", render.Style{}, "https://b")
	st := flush(t, s)
	if body := frameBody(t, out.last()); !strings.Contains(body, "https://b\a[A]\x1b]8;;\a") || st.CellsChanged != 3 {
		t.Fatalf("frame body %q, %d cells changed", body, st.CellsChanged)
	}
}

// §25.13: a removed link rewrites the cells with no OSC 8 opener.
func TestLinkRemoved(t *testing.T) {
	s, out := newScreen(t, 10, 1, plainOpts, func(b *render.Buffer) { b.SetString(0, 0, "docs", render.Style{}, "https://x") })
	s.Back().SetString(0, 0, "docs", render.Style{}, "")
	flush(t, s)
	if body := frameBody(t, out.last()); body != "\rdocs" {
		t.Fatalf("frame body %q", body)
	}
}

// §25.14: control characters in a URL are stripped.
func TestLinkControlsStripped(t *testing.T) {
	s, out := newScreen(t, 10, 1, plainOpts, nil)
	s.Back().SetString(0, 0, "x", render.Style{}, "https://e\x1b]8;;evil\x07vil\u009b.example")
	flush(t, s)
	body := frameBody(t, out.last())
	if !strings.Contains(body, ";https://e]8;;evilvil.example\a") {
		t.Fatalf("frame body %q", body)
	}
	if strings.Count(body, "\x1b") != 3 || strings.Count(body, "\a") != 2 {
		t.Fatalf("control bytes leaked: %q", body)
	}
}

// §25.15: without links in either frame, enabling hyperlinks changes no
// byte of the output.
func TestNoLinksNoOverhead(t *testing.T) {
	run := func(links bool) string {
		out := &writes{}
		s := render.NewScreen(out, 30, 5, render.Options{Colors: render.ColorTrue, Hyperlinks: links})
		for i := range 5 {
			s.Back().SetString(i, i, "frame text 漢字 👍🏽", render.Style{Fg: render.RGB(1, 2, uint8(i))}, "")
			s.SetCursor(i, 0, true)
			flush(t, s)
		}
		return string(bytes.Join(out.calls, nil))
	}
	if a, b := run(true), run(false); a != b {
		t.Fatalf("output differs:\n%q\n%q", a, b)
	}
}

// §25.16: an inline width change writes ED 2, ED 3 and home, then the
// history re-rendered at the new width, then the live region, in one
// bracketed write, and never RIS.
func TestInlineWidthChangePurges(t *testing.T) {
	o := rendertest.NewOracle(80, 10)
	out := &writes{}
	v := render.NewInline(ioMulti(o, out), 80, 10, 0, plainOpts)
	history := []string{strings.Repeat("a", 70), "short line"}
	for _, l := range history {
		v.InsertAbove(render.Plain(l, render.Style{}))
	}
	v.SetLiveHeight(1)
	v.Live().SetString(0, 0, "live>", render.Style{}, "")
	if _, err := v.Flush(); err != nil {
		t.Fatal(err)
	}

	o.Resize(60, 10)
	v.Resize(60, 10)
	// The caller re-wraps its history at 60 columns.
	v.InsertAbove(render.Plain(strings.Repeat("a", 60), render.Style{}), render.Plain(strings.Repeat("a", 10), render.Style{}), render.Plain("short line", render.Style{}))
	v.Live().SetString(0, 0, "live>", render.Style{}, "")
	before := len(out.calls)
	if _, err := v.Flush(); err != nil {
		t.Fatal(err)
	}
	if len(out.calls) != before+1 {
		t.Fatalf("resize frame made %d writes", len(out.calls)-before)
	}
	body := frameBody(t, out.last())
	purge := strings.Index(body, "\x1b[2J\x1b[3J\x1b[H")
	hist := strings.Index(body, "short line")
	live := strings.Index(body, "live>")
	if purge != 0 || hist < purge || live < hist {
		t.Fatalf("order purge %d, history %d, live %d in %q", purge, hist, live, body)
	}
	if strings.Contains(string(bytes.Join(out.calls, nil)), "\x1bc") {
		t.Fatal("RIS written")
	}
	if got := o.ScreenText()[:4]; strings.Join(got, "|") != strings.Repeat("a", 60)+"|aaaaaaaaaa|short line|live>" {
		t.Fatalf("screen after purge %q", got)
	}
	if n := len(o.ScrollbackText()); n != 0 {
		t.Fatalf("scrollback holds %d stale lines", n)
	}
}

// Every byte stream the renderer writes keeps erases inside brackets, and
// the scanner catches those that do not.
func TestScanSync(t *testing.T) {
	for _, tc := range []struct {
		stream string
		bad    int
	}{
		{"\x1b[?2026h\x1b[2J\x1b[?2026l", 0},
		{"\x1b[2J", 1},
		{"\x1b[?2026h\x1b[K\x1b[?2026lx\x1b[3J", 1},
		{"\x1b[?2026h\x1b[?2026h\x1b[?2026l", 1},
		{"\x1b[?2026h", 1},
		{"\x1bc", 1},
		{"\x1b]8;;http://x/\x1b[2J\a", 0}, // inside a string, not an erase
	} {
		if got := len(rendertest.ScanSync([]byte(tc.stream))); got != tc.bad {
			t.Errorf("%q: %d violations, want %d: %v", tc.stream, got, tc.bad, rendertest.ScanSync([]byte(tc.stream)))
		}
	}
}

// Without a hint, rows that moved are still found and scrolled: the frame
// costs about what the hinted one does, far less than a redraw.
func TestScrollDetectedWithoutHint(t *testing.T) {
	d := newFrameDrawer(80, 24)
	cost := func(hint bool) int {
		o := rendertest.NewOracle(80, 24)
		s := render.NewScreen(o, 80, 24, plainOpts)
		d.top = 0
		d.draw(s.Back())
		flush(t, s)
		want := render.NewBuffer(80, 24)
		d.top = 1
		d.draw(want)
		s.Back().CopyFrom(want)
		if hint {
			s.ScrollHint(1, 22, 1)
		}
		st := flush(t, s)
		if d := o.Diff(want); d != "" {
			t.Fatal(d)
		}
		if st.Scrolls != 1 {
			t.Fatalf("hint=%v: no scroll used: %+v", hint, st)
		}
		return st.Bytes
	}
	hinted, detected := cost(true), cost(false)
	if detected > hinted {
		t.Fatalf("detected scroll cost %d bytes, hinted %d", detected, hinted)
	}
}

// Typing in the middle of a line shifts the rest with ICH; deleting
// shifts it back with DCH; both cost a few bytes instead of the tail.
func TestInsertAndDeleteShiftTheRow(t *testing.T) {
	o := rendertest.NewOracle(40, 2)
	out := &writes{}
	s := render.NewScreen(ioMulti(o, out), 40, 2, plainOpts)
	prompt := func(text string) *render.Buffer {
		b := render.NewBuffer(40, 2)
		b.SetString(0, 0, "› ", render.Style{Fg: render.ANSI(6)}, "")
		b.SetString(2, 0, text, render.Style{}, "")
		return b
	}
	for i, tc := range []struct {
		text, shift string
	}{
		{"fix the renderer tests please", ""},
		{"fix the new renderer tests please", "\x1b[4@"},
		{"fix the renderer tests please", "\x1b[4P"},
	} {
		want := prompt(tc.text)
		s.Back().CopyFrom(want)
		st := flush(t, s)
		if d := o.Diff(want); d != "" {
			t.Fatalf("step %d:\n%s", i, d)
		}
		if tc.shift == "" {
			continue
		}
		body := frameBody(t, out.last())
		if !strings.Contains(body, tc.shift) || st.Shifts != 1 || len(body) > 16 {
			t.Fatalf("step %d: frame %q, want a shift %q", i, body, tc.shift)
		}
	}
}

// Without BCE, blanks in a colour are drawn, never erased; with it, a
// trailing run of them is one EL.
func TestEraseNeedsBCE(t *testing.T) {
	for _, noBCE := range []bool{false, true} {
		out := &writes{}
		s := render.NewScreen(out, 40, 1, render.Options{Colors: render.ColorTrue, NoBCE: noBCE})
		s.Back().Fill(0, 0, 40, 1, render.Style{Bg: render.ANSI(4)})
		s.Back().SetString(0, 0, "title", render.Style{Bg: render.ANSI(4)}, "")
		flush(t, s)
		body := frameBody(t, out.last())
		if erased := strings.Contains(body, "\x1b[K"); erased == noBCE {
			t.Errorf("NoBCE=%v: frame %q", noBCE, body)
		}
	}
}

// Blanks drawn before a shift point must not erase the cells the shift
// moves (an ECH reaching past the point would).
func TestShiftAfterBlankRun(t *testing.T) {
	o := rendertest.NewOracle(20, 1)
	s := render.NewScreen(o, 20, 1, plainOpts)
	for _, text := range []string{"abcdefghijQRSTUVWXYZ", "a           QRSTUVWX", "abcdefghijQRSTUVWXYZ"} {
		want := render.NewBuffer(20, 1)
		want.SetString(0, 0, text, render.Style{}, "")
		s.Back().CopyFrom(want)
		flush(t, s)
		if d := o.Diff(want); d != "" {
			t.Fatalf("%q:\n%s", text, d)
		}
	}
}

// Indentation on a coloured block that replaces text is erased with
// EL 1 from its last cell rather than drawn.
func TestLeadingBlanksUseEraseLeft(t *testing.T) {
	o := rendertest.NewOracle(30, 1)
	out := &writes{}
	s := render.NewScreen(ioMulti(o, out), 30, 1, plainOpts)
	code := render.Style{Bg: render.RGB(40, 44, 52)}
	s.Back().SetString(0, 0, "previous line of prose", render.Style{}, "")
	flush(t, s)
	want := render.NewBuffer(30, 1)
	want.Fill(0, 0, 30, 1, code)
	want.SetString(12, 0, "return x", code, "")
	s.Back().CopyFrom(want)
	flush(t, s)
	if d := o.Diff(want); d != "" {
		t.Fatal(d)
	}
	if body := frameBody(t, out.last()); !strings.Contains(body, "\x1b[1K") {
		t.Fatalf("frame %q does not erase the indentation", body)
	}
}

// A page scroll keeps no row, but the hint still lets the encoder blank
// the region in one scroll and draw the new page onto blank rows, which
// beats overwriting the old page's long lines; the screen is the same.
func TestPageScrollHintBlanksTheRegion(t *testing.T) {
	const w, h, top, bottom = 80, 24, 1, 23
	code := render.Style{Fg: render.RGB(171, 178, 191), Bg: render.RGB(40, 44, 52)}
	page := func(b *render.Buffer, n int) {
		b.Fill(0, 0, w, 1, headerStyle)
		b.SetString(1, 0, "quire · transcript", headerStyle, "")
		for y := top; y < bottom; y++ {
			if n == 0 {
				b.SetString(0, y, strings.Repeat("prose ", 12), render.Style{}, "")
			} else {
				b.SetString(0, y, fmt.Sprintf("  return frame%d, nil", y), code, "")
			}
		}
		b.SetString(0, h-1, fmt.Sprintf("page %d", n), dimStyle, "")
	}
	cost := func(hint bool) render.Stats {
		o := rendertest.NewOracle(w, h)
		s := render.NewScreen(o, w, h, plainOpts)
		page(s.Back(), 0)
		flush(t, s)
		want := render.NewBuffer(w, h)
		page(want, 1)
		s.Back().CopyFrom(want)
		if hint {
			s.ScrollHint(top, bottom, bottom-top)
		}
		st := flush(t, s)
		if d := o.Diff(want); d != "" {
			t.Fatalf("hint=%v: %s", hint, d)
		}
		return st
	}
	hinted, plain := cost(true), cost(false)
	if hinted.Scrolls != 1 || hinted.Bytes >= plain.Bytes {
		t.Fatalf("page hint: %d bytes, %d scrolls; without it %d bytes", hinted.Bytes, hinted.Scrolls, plain.Bytes)
	}
}

package render_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

// streamView plays what the app's inline view does while a reply
// streams: a tail of unfinished lines that grows row by row, shown
// (its last rows, at most maxTail) above three rows of chrome, and from
// time to time the tail's first lines becoming final and inserted above.
type streamView struct {
	w, h, maxTail int
	v             *render.Inline
	o             *rendertest.Oracle
	tail          []string
	history       []string // every line inserted, in order
	next          int
}

func newStreamView(w, h, row, maxTail int) *streamView {
	o := rendertest.NewOracle(w, h)
	s := &streamView{w: w, h: h, maxTail: maxTail, o: o}
	// Earlier shell output fills the rows above the starting row.
	for i := range row {
		s.history = append(s.history, fmt.Sprintf("$ earlier %d", i))
		fmt.Fprintf(o, "$ earlier %d\r\n", i)
	}
	s.v = render.NewInline(o, w, h, row, render.Options{Colors: render.ColorTrue})
	return s
}

var ruleStyle = render.Style{Fg: render.ANSI(8)}

// frame draws the region and flushes it, returning the bytes written.
func (s *streamView) frame(t interface {
	Fatalf(string, ...any)
	Fatal(...any)
}, status string) []byte {
	shown := s.tail[max(len(s.tail)-s.maxTail, 0):]
	s.v.SetLiveHeight(len(shown) + 3)
	b := s.v.Live()
	for i, l := range shown {
		b.SetString(0, i, l, render.Style{}, "")
	}
	b.SetString(0, len(shown), strings.Repeat("─", s.w), ruleStyle, "")
	b.SetString(0, len(shown)+1, "› ", render.Style{Fg: render.ANSI(6)}, "")
	b.SetString(0, len(shown)+2, status, render.Style{Fg: render.ANSI(7)}, "")
	want := render.NewBuffer(s.w, len(shown)+3)
	want.CopyFrom(b)
	s.v.SetCursor(2, len(shown)+1, true)
	before := len(s.o.Stream())
	if _, err := s.v.Flush(); err != nil {
		t.Fatal(err)
	}
	out := s.o.Stream()[before:]
	top, _ := s.v.Region()
	if d := s.o.DiffAt(top, want); d != "" {
		t.Fatalf("the live region at row %d differs:\n%s\nbytes: %q", top, d, out)
	}
	got := append(s.o.ScrollbackText(), s.o.ScreenText()[:top]...)
	if !slices.Equal(got, s.history) {
		t.Fatalf("the history is\n%q\nwant\n%q\nbytes: %q", got, s.history, out)
	}
	return out
}

func (s *streamView) grow() {
	s.tail = append(s.tail, fmt.Sprintf("line %d of the streamed reply", s.next))
	s.next++
}

// freeze makes the tail's first n lines final.
func (s *streamView) freeze(n int) {
	n = min(n, len(s.tail))
	for _, l := range s.tail[:n] {
		s.v.InsertAbove(render.Plain(l, render.Style{}))
		s.history = append(s.history, l)
	}
	s.tail = s.tail[n:]
}

// TestInlineStreamingTail checks, through the VT oracle, every frame of
// random streams: the region shows what was drawn, and the lines made
// final are in the history once each, in order, whether they were
// written out or taken as the region already showed them.
func TestInlineStreamingTail(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.IntRange(30, 50).Draw(t, "w")
		h := rapid.IntRange(5, 16).Draw(t, "h")
		s := newStreamView(w, h, rapid.IntRange(0, h-1).Draw(t, "row"), rapid.IntRange(1, h-4).Draw(t, "maxTail"))
		for f := range rapid.IntRange(1, 40).Draw(t, "frames") {
			for range rapid.IntRange(0, 2).Draw(t, "grow") {
				s.grow()
			}
			if rapid.IntRange(0, 3).Draw(t, "freeze?") == 0 {
				s.freeze(rapid.IntRange(1, 6).Draw(t, "freeze"))
			}
			s.frame(t, fmt.Sprintf("working %ds", f/10))
		}
	})
}

// TestInlineTakesShownLinesAsFinal: lines that become final while the
// live region shows them are not written again, and a row added to the
// tail moves the chrome down with a scroll instead of redrawing it.
func TestInlineTakesShownLinesAsFinal(t *testing.T) {
	s := newStreamView(60, 20, 19, 10)
	for range 3 {
		s.grow()
	}
	s.frame(t, "working")
	grown := s.frame(t, "working") // unchanged: nothing
	if len(grown) != 0 {
		t.Fatalf("an unchanged frame wrote %q", grown)
	}
	s.grow()
	grown = s.frame(t, "working")
	if bytes.Contains(grown, []byte("─")) {
		t.Fatalf("a row added above the chrome redrew the rule: %q", grown)
	}
	if len(grown) > 80 {
		t.Fatalf("a row added above the chrome took %d bytes: %q", len(grown), grown)
	}
	s.freeze(2)
	frozen := s.frame(t, "working")
	if bytes.Contains(frozen, []byte("line 0")) || bytes.Contains(frozen, []byte("line 1")) {
		t.Fatalf("lines the region showed were written again when they became final: %q", frozen)
	}
}

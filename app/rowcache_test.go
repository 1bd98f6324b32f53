package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
	"github.com/quire-sh/quire/term"
)

// TestRowCacheDrawsWhatItsStringsDraw draws rows through one cache, into
// one buffer reused as the screen reuses its back buffer, and checks each
// against the same strings drawn with SetString: a changed text, style,
// column or buffer width is drawn anew, never copied stale.
func TestRowCacheDrawsWhatItsStringsDraw(t *testing.T) {
	type part struct {
		x    int
		text string
		st   render.Style
	}
	bold := render.Style{Attrs: render.Bold}
	blue := render.Style{Bg: render.ANSI(4)}
	steps := []struct {
		width int
		parts []part
	}{
		{20, []part{{0, "⠋ working 1s", bold}, {14, "model", render.Style{}}}},
		{20, []part{{0, "⠋ working 1s", bold}, {14, "model", render.Style{}}}},
		{20, []part{{0, "⠙ working 1s", bold}, {14, "model", render.Style{}}}},
		{20, []part{{0, "⠙ working 1s", render.Style{}}, {14, "model", render.Style{}}}},
		{20, []part{{0, "⠙ working 1s", render.Style{}}, {15, "model", render.Style{}}}},
		{20, []part{{0, "⠙ working 1s", render.Style{}}}},
		{20, []part{{0, "字字字字字字字字字字字", blue}, {3, "ab", bold}}},
		{20, []part{{0, "字字字字字字字字字字字", blue}, {3, "ab", bold}}},
		{19, []part{{0, "字字字字字字字字字字字", blue}, {3, "ab", bold}}},
		{19, nil},
	}
	var c rowCache
	b := render.NewBuffer(0, 1)
	for i, s := range steps {
		b.Resize(s.width, 1)
		b.Clear()
		want := render.NewBuffer(s.width, 1)
		for _, p := range s.parts {
			c.add(p.x, p.text, p.st)
			want.SetString(p.x, 0, p.text, p.st, "")
		}
		c.draw(b, 0)
		if !b.Equal(want) {
			t.Errorf("step %d: the cache drew %q, SetString %q (or the same text in other styles)", i, rendertest.BufferRow(b, 0), rendertest.BufferRow(want, 0))
		}
	}
}

// TestChromeRedrawsWhatChanged draws the full-screen and inline views
// frame after frame while the status line, the prompt and the width
// change, and checks each frame against one drawn with the chrome caches
// emptied, and that the changes a user watches for show.
func TestChromeRedrawsWhatChanged(t *testing.T) {
	for _, minimal := range []bool{false, true} {
		m := newTestModel()
		w, h := 80, 24
		b := render.NewBuffer(w, h)
		now := t0
		draw := func(what string, shows string) {
			t.Helper()
			b.Resize(w, h)
			b.Clear()
			fresh := render.NewBuffer(w, h)
			if minimal {
				m.DrawLive(b, nil, now)
			} else {
				m.DrawFull(b, now)
			}
			kept := m.chrome
			m.chrome = chromeRows{}
			if minimal {
				m.DrawLive(fresh, nil, now)
			} else {
				m.DrawFull(fresh, now)
			}
			m.chrome = kept
			if !b.Equal(fresh) {
				t.Fatalf("minimal=%v, %s: the frame differs from one drawn afresh:\n%s\n---- afresh:\n%s",
					minimal, what, bufText(b), bufText(fresh))
			}
			if !strings.Contains(bufText(b), shows) {
				t.Fatalf("minimal=%v, %s: %q is not on screen:\n%s", minimal, what, shows, bufText(b))
			}
		}
		draw("idle", "Ask anything")
		draw("idle again", "Ask anything")
		startTurn(m)
		draw("turn started", "working 0s")
		now = now.Add(100 * time.Millisecond)
		draw("the spinner turns", "⠙ working 0s")
		now = now.Add(time.Second)
		draw("a second later", "working 1s")
		m.HandleEvent(event.Event{Kind: event.AssistantDelta, Turn: 1, Text: "one\n\ntwo\n\nthree"}, now)
		draw("streaming", "Esc cancels")
		typeText(m, "next")
		draw("typed ahead", "› next")
		m.HandleInput(named(term.KeyBackspace), now)
		draw("a character deleted", "› nex")
		for range 3 {
			m.HandleInput(named(term.KeyBackspace), now)
		}
		draw("the prompt emptied", "Esc cancels")
		m.HandleEvent(event.Event{Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnCompleted}}, now)
		draw("turn ended", "ready")
		m.HandleInput(ctrlKey('c'), now)
		draw("a notice", m.notice)
		typeText(m, "a prompt long enough to wrap onto a second row of the prompt at this width, and then some")
		draw("a wrapped prompt", "then some")
		w = 60
		m.SetSize(w, h)
		draw("narrower", "then some")
	}
}

func bufText(b *render.Buffer) string {
	_, h := b.Size()
	rows := make([]string, h)
	for y := range h {
		rows[y] = strings.TrimRight(rendertest.BufferRow(b, y), " ")
	}
	return strings.Join(rows, "\n")
}

// TestStatusFormatsReadAsPrintfDid pins the status line's numbers, built
// without fmt since they are made every frame, to the formats they had:
// elapsed time, token counts and costs over their ranges.
func TestStatusFormatsReadAsPrintfDid(t *testing.T) {
	for _, d := range []time.Duration{0, 400 * time.Millisecond, 500 * time.Millisecond, 9 * time.Second, 59*time.Second + 499*time.Millisecond, 59*time.Second + 500*time.Millisecond, 61 * time.Second, 69 * time.Second, 70 * time.Second, 10*time.Minute + 5*time.Second, 100*time.Hour + 59*time.Second, -3 * time.Second, -90 * time.Second} {
		r := d.Round(time.Second)
		want := fmt.Sprintf("%ds", int(r/time.Second))
		if r >= time.Minute {
			want = fmt.Sprintf("%dm%02ds", int(r/time.Minute), int(r%time.Minute/time.Second))
		}
		if got := formatElapsed(d); got != want {
			t.Errorf("formatElapsed(%v) = %q, want %q", d, got, want)
		}
	}
	for _, n := range []int{0, 1, 999, 1000, 1049, 1050, 1051, 12345, 999949, 999950, 123456789} {
		want := fmt.Sprint(n)
		if n >= 1000 {
			want = fmt.Sprintf("%.1fk", float64(n)/1000)
		}
		if got := formatTokens(n); got != want {
			t.Errorf("formatTokens(%d) = %q, want %q", n, got, want)
		}
	}
	for _, usd := range []float64{0, 0.0004, 0.0005, 0.00999, 0.01, 0.015, 0.125, 1.005, 12.3456, 1234.5} {
		for _, partial := range []bool{false, true} {
			want := fmt.Sprintf("$%.2f", usd)
			if usd < 0.01 {
				want = fmt.Sprintf("$%.3f", usd)
			}
			if partial {
				want += "+"
			}
			if got := formatCost(usd, partial); got != want {
				t.Errorf("formatCost(%v, %v) = %q, want %q", usd, partial, got, want)
			}
		}
	}
}

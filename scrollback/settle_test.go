package scrollback

import (
	"bytes"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

func TestSettledHoldsBackAClusterThatMayGrow(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"", ""},
		{"plain text", "plain text"},
		{"line\n", "line\n"},
		{"team 👩", "team "},
		{"team 👩\u200d", "team "},
		{"team 👩\u200d💻", "team "},
		{"team 👩\u200d💻 ", "team 👩\u200d💻 "},
		{"flag 🇫", "flag "},
		{"flag 🇫🇷", "flag "},
		{"thumb 👍🏽!", "thumb 👍🏽!"},
		{"日本", "日"},
		{"e\u0301", ""},
		{"a\r", "a"},
		{"a\r\n", "a\r\n"},
	} {
		if got := c.in[:settled(c.in)]; got != c.want {
			t.Errorf("settled(%q) shows %q, want %q", c.in, got, c.want)
		}
	}
}

// TestStreamedClusterIsNeverSentIncomplete streams an emoji ZWJ sequence
// split across chunks into every streamed lane and draws each state
// through the inline view into a VT emulator: no frame may end a cell
// with a zero-width joiner (tmux glues the next character it prints onto
// such a cell), and the finished text shows the sequence whole.
func TestStreamedClusterIsNeverSentIncomplete(t *testing.T) {
	chunks := []string{"Team: 👩", "\u200d", "💻 and 🇫", "🇷 done\n"}
	s := &script{}
	s.prompt("go")
	s.add(event.Event{Kind: event.ReasoningDelta, Text: chunks[0]})
	for _, c := range chunks[1:] {
		s.add(event.Event{Kind: event.ReasoningDelta, Text: c})
	}
	for _, c := range chunks {
		s.add(event.Event{Kind: event.AssistantDelta, Text: c})
	}
	s.add(event.Event{Kind: event.AssistantMessage, Text: strings.Join(chunks, "")})
	s.call("c1", "shell", "execute", "echo")
	for _, c := range chunks {
		s.output("c1", c)
	}
	s.result("c1", event.ToolOK, "", 5)
	s.end(event.TurnCompleted)

	const width, height = 60, 30
	tr := New(Options{Width: width, Height: height})
	term := rendertest.NewOracle(width, height)
	view := render.NewInline(term, width, height, 0, render.Options{Colors: render.ColorTrue})
	for _, e := range s.evs {
		tr.Apply(e)
		view.InsertAbove(tr.TakeFinished()...)
		live := tr.LiveLines()
		view.SetLiveHeight(min(len(live), height-1))
		for r, l := range live {
			if r < height-1 {
				view.Live().SetLine(0, r, l)
			}
		}
		before := len(term.Stream())
		if _, err := view.Flush(); err != nil {
			t.Fatal(err)
		}
		out := term.Stream()[before:]
		for i := 0; ; {
			j := bytes.Index(out[i:], []byte("\u200d"))
			if j < 0 {
				break
			}
			i += j + len("\u200d")
			if i == len(out) || out[i] == 0x1b || out[i] < 0x20 {
				t.Fatalf("after %s %q, a frame ends a cell with a zero-width joiner: %q", e.Kind, e.Text, out)
			}
		}
	}
	got := strings.Join(append(term.ScrollbackText(), term.ScreenText()...), "\n")
	// Finished reasoning folds away; the answer and the tool output stay.
	if n := strings.Count(got, "Team: 👩\u200d💻 and 🇫🇷 done"); n != 2 {
		t.Fatalf("the finished text shows the sequences whole %d times, want 2 (the answer, the tool output):\n%s", n, got)
	}
}

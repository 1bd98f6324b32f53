package scrollback

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/markdown"
)

// revisingStream is a markdown stream as a RevisingBody (the app wires
// its own the same way).
type revisingStream struct{ *markdown.Stream }

func (r revisingStream) RevisionsSince(n int) []Revision {
	var out []Revision
	for _, v := range r.Revisions()[min(n, len(r.Revisions())):] {
		out = append(out, Revision(v))
	}
	return out
}

// A link definition that arrives after the inline view wrote the lines
// that use it revises them (here: fewer lines, "[x]" becoming a link
// "x"). The terminal keeps the old lines; every line after them must
// still be written exactly once, neither repeated nor skipped.
func TestInlineFollowsRevisions(t *testing.T) {
	var b strings.Builder
	b.WriteString(strings.Repeat("[x] ", 40) + "\n\n")
	for i := range 30 {
		fmt.Fprintf(&b, "para %d\n\n", i)
	}
	b.WriteString("[x]: https://example.com/x\n\n")
	for i := 30; i < 40; i++ {
		fmt.Fprintf(&b, "para %d\n\n", i)
	}
	answer := b.String()
	for _, width := range []int{24, 40} {
		tr := New(Options{Width: width, Height: 10, Assistant: func(w int) BodyRenderer {
			return revisingStream{markdown.NewStream(markdown.Options{Width: w})}
		}})
		tr.Apply((&script{}).prompt("q").evs[0])
		var emitted []string
		for i := 0; i < len(answer); i += 9 {
			tr.Apply(event.Event{Kind: event.AssistantDelta, Text: answer[i:min(i+9, len(answer))]})
			emitted = append(emitted, texts(tr.TakeFinished())...)
		}
		tr.Apply(event.Event{Kind: event.AssistantMessage, Text: answer})
		emitted = append(emitted, texts(tr.TakeFinished())...)
		got := append(emitted, texts(tr.LiveLines())...)
		for i := range 40 {
			if n := lineIndex(got, fmt.Sprintf("para %d", i)); n < 0 || lineIndex(got[n+1:], fmt.Sprintf("para %d", i)) >= 0 {
				t.Fatalf("width %d: para %d is not written exactly once:\n%s", width, i, strings.Join(got, "\n"))
			}
		}
		// From the first paragraph after the revised lines on, the
		// terminal shows the transcript as it is.
		want := allLines(tr)
		g, w := lineIndex(got, "para 0"), lineIndex(want, "para 0")
		if !slices.Equal(got[g:], want[w:]) {
			t.Fatalf("width %d: after the revised lines:\n%s\n---- transcript:\n%s", width, strings.Join(got[g:], "\n"), strings.Join(want[w:], "\n"))
		}
		if len(got)-g == len(want)-w && g == w {
			t.Fatalf("width %d: the late definition revised nothing; the test no longer tests revisions", width)
		}
	}
}

// lineIndex is the index of the first line that is text, blanks around it
// aside, or -1.
func lineIndex(lines []string, text string) int {
	return slices.IndexFunc(lines, func(l string) bool { return strings.TrimSpace(l) == text })
}

package layout

import (
	"fmt"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/markdown"
	"github.com/quire-sh/quire/scrollback"
)

// The markdown stream is the renderer the app plugs in for answers.
var _ scrollback.BodyRenderer = (*markdown.Stream)(nil)

// BenchmarkLayoutStreamMarkdown is BenchmarkLayoutStreamBottom with the
// real markdown renderer laying out every answer: what the pager costs
// per streamed token in the app.
func BenchmarkLayoutStreamMarkdown(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := scrollback.New(scrollback.Options{Width: width, Height: height,
				Assistant: func(w int) scrollback.BodyRenderer { return markdown.NewStream(markdown.Options{Width: w}) }})
			for _, e := range history(n) {
				t.Apply(e)
			}
			t.Apply(event.Event{Kind: event.UserMessage, Text: "Explain it once more, slowly."})
			t.Apply(event.Event{Kind: event.TurnStarted})
			f := newFrame(t)
			f.draw(b)
			answer := markdown.GenerateAnswer(400, 1)
			f.bytes = 0
			stats := t.LayoutStats()
			cpu := startCPU()
			b.ReportAllocs()
			b.ResetTimer()
			pos := 0
			for b.Loop() {
				if pos >= len(answer) {
					// Start a new answer so the streamed block stays a
					// realistic size however long the benchmark runs.
					t.Apply(event.Event{Kind: event.AssistantMessage})
					t.Apply(event.Event{Kind: event.UserMessage, Text: "Again."})
					pos = 0
				}
				end := min(pos+16, len(answer))
				t.Apply(event.Event{Kind: event.AssistantDelta, Text: answer[pos:end]})
				pos = end
				f.draw(b)
			}
			b.ReportMetric(float64(f.bytes)/float64(b.N), "bytes/frame")
			cpu.report(b)
			reportWork(b, stats, t.LayoutStats())
		})
	}
}

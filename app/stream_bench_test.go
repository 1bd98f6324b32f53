package app

import (
	"io"
	"os"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/internal/cputime"
	"github.com/quire-sh/quire/render"
)

// BenchmarkStreamChunk is the app's share of bench/e2e's cost per chunk:
// the same answer reduced in 8-byte deltas at 120×40, a frame drawn and
// flushed every third chunk (what a 10 ms stream gets under the 33 ms
// frame interval). One op is the whole answer; ns/chunk is reported, and
// cpu-ns/chunk, the process's CPU time, which a busy machine distorts
// far less.
func BenchmarkStreamChunk(b *testing.B) {
	answer, err := os.ReadFile("../bench/e2e/testdata/answer.md")
	if err != nil {
		b.Fatal(err)
	}
	const w, h, size = 120, 40, 8
	var chunks []string
	for i := 0; i < len(answer); i += size {
		chunks = append(chunks, string(answer[i:min(i+size, len(answer))]))
	}
	for _, minimal := range []bool{false, true} {
		name := "fullscreen"
		if minimal {
			name = "inline"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0, cpuOK := cputime.Process()
			for b.Loop() {
				tr := NewTranscript("dark", "", w, h)
				m := NewModel(tr, nil, Status{Model: "m", Sandbox: "workspace", Approval: "ask"}, minimal)
				m.SetSize(w, h)
				now := t0
				var screen *render.Screen
				var inline *render.Inline
				if minimal {
					inline = render.NewInline(io.Discard, w, h, h-1, render.Options{})
					tr.Resize(w, h)
				} else {
					screen = render.NewScreen(io.Discard, w, h, render.Options{})
				}
				draw := func() {
					if screen != nil {
						c := m.DrawFull(screen.Back(), now)
						screen.SetCursor(c.X, c.Y, c.Visible)
						_, _ = screen.Flush()
						return
					}
					if lines := tr.TakeFinished(); len(lines) > 0 {
						inline.InsertAbove(lines...)
					}
					live := m.LiveContent(tr.LiveLines())
					inline.SetLiveHeight(m.LiveHeight(w, h, len(live)))
					c := m.DrawLive(inline.Live(), live, now)
					inline.SetCursor(c.X, c.Y, c.Visible)
					_, _ = inline.Flush()
				}
				seq := uint64(1)
				ev := func(e event.Event) {
					e.Seq, e.Time = seq, now
					seq++
					m.HandleEvent(e, now)
				}
				ev(event.Event{Kind: event.TurnStarted, Turn: 1})
				draw()
				for i, c := range chunks {
					now = now.Add(10 * time.Millisecond)
					ev(event.Event{Kind: event.AssistantDelta, Turn: 1, Text: c})
					if i%3 == 2 {
						draw()
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(chunks)), "ns/chunk")
			if cpu1, ok := cputime.Process(); ok && cpuOK {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N*len(chunks)), "cpu-ns/chunk")
			}
		})
	}
}

package layout

import (
	"fmt"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// BenchmarkLayoutSubagentProgress is a turn with three subagents running
// at the bottom of the transcript: each frame follows one progress
// update (a child's new tool call) or a tick of the live clock. Only the
// updated block is laid out again, whatever the length of the history.
func BenchmarkLayoutSubagentProgress(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := build(n)
			t.Apply(event.Event{Kind: event.UserMessage, Text: "Look at the three packages."})
			t.Apply(event.Event{Kind: event.TurnStarted})
			start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
			ids := []string{"t1", "t2", "t3"}
			for _, id := range ids {
				t.Apply(event.Event{Kind: event.ToolCallRequested, Call: &event.ToolCall{ID: id, Name: "task", ToolKind: "other", Target: "Review package " + id}})
				t.Apply(event.Event{Kind: event.SubagentUpdate, CallID: id, Time: start, Subagent: &event.Subagent{
					Agent: "reviewer", Description: "Review package " + id, State: event.SubagentStarted}})
			}
			f := newFrame(t)
			f.draw(b)
			f.bytes = 0
			stats := t.LayoutStats()
			cpu := startCPU()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				now := start.Add(time.Duration(i) * 100 * time.Millisecond)
				if i%3 == 0 {
					t.SetNow(now)
				} else {
					id := ids[i%len(ids)]
					t.Apply(event.Event{Kind: event.SubagentUpdate, CallID: id, Time: now, Subagent: &event.Subagent{
						Agent: "reviewer", Description: "Review package " + id, State: event.SubagentRunning,
						Tool: "grep", Target: fmt.Sprintf("func Parse%d", i), Calls: i}})
				}
				f.draw(b)
			}
			b.ReportMetric(float64(f.bytes)/float64(b.N), "bytes/frame")
			cpu.report(b)
			reportWork(b, stats, t.LayoutStats())
		})
	}
}

package engine

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/internal/queue"
)

func TestOutboxMergesOnlyTextOfOneStream(t *testing.T) {
	o := &outbox{q: queue.NewUnbounded[pending](), out: make(chan event.Event)}
	in := []event.Event{
		{Seq: 1, Kind: event.AssistantDelta, Turn: 1, Text: "a"},
		{Seq: 2, Kind: event.AssistantDelta, Turn: 1, Text: "b"},
		{Seq: 3, Kind: event.ReasoningDelta, Turn: 1, Text: "r"},
		{Seq: 4, Kind: event.ToolOutputDelta, Turn: 1, CallID: "x", Text: "1"},
		{Seq: 5, Kind: event.ToolOutputDelta, Turn: 1, CallID: "y", Text: "2"},
		{Seq: 6, Kind: event.ToolOutputDelta, Turn: 1, CallID: "y", Text: "3"},
		{Seq: 7, Kind: event.Notice, Text: "n1"},
		{Seq: 8, Kind: event.Notice, Text: "n2"},
		{Seq: 9, Kind: event.AssistantDelta, Turn: 2, Text: "c"},
	}
	for _, e := range in {
		o.push(e)
	}
	o.close()
	go o.pump()
	var got []string
	for e := range o.out {
		got = append(got, string(e.Kind)+":"+e.Text+":"+string(rune('0'+e.Seq)))
	}
	want := "assistant_delta:ab:2 reasoning_delta:r:3 tool_output:1:4 tool_output:23:6 notice:n1:7 notice:n2:8 assistant_delta:c:9"
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

// A stalled consumer: every delta after the first merges into one queued
// event, at constant cost per delta.
func BenchmarkOutboxStalledDeltas(b *testing.B) {
	o := &outbox{q: queue.NewUnbounded[pending](), out: make(chan event.Event)}
	e := event.Event{Kind: event.AssistantDelta, Turn: 1, Text: "token "}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		e.Seq = uint64(i + 1)
		o.push(e)
	}
}

// The per-token path with a consumer that keeps up: an event is queued,
// the pump is woken, takes it and hands it over on the channel.
func BenchmarkOutboxDelivered(b *testing.B) {
	o := newOutbox()
	defer o.close()
	e := event.Event{Kind: event.AssistantDelta, Turn: 1, Text: "token "}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		e.Seq = uint64(i + 1)
		o.push(e)
		if got := <-o.out; got.Seq != e.Seq {
			b.Fatalf("got seq %d, want %d", got.Seq, e.Seq)
		}
	}
}

package engine

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

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

// The per-token path with a consumer that keeps up: push hands the
// event over itself when the consumer waits, or queues it for the pump.
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

// A consumer blocked receiving gets an event from push itself: the pump
// goroutine (not started here) is not needed. When the pushes to the
// queue may give and when they must queue is the queue's own test.
func TestOutboxHandsOverToAWaitingConsumer(t *testing.T) {
	o := &outbox{q: queue.NewUnbounded[pending](), out: make(chan event.Event)}
	got := make(chan event.Event, 1)
	go func() {
		for e := range o.out {
			got <- e
		}
	}()
	for i := uint64(1); i <= 50; i++ {
		e := event.Event{Seq: i, Kind: event.AssistantDelta, Turn: 1, Text: "x"}
		// The consumer may not be receiving yet: try until it is.
		for !o.handOver(pending{e: e}) {
			runtime.Gosched()
		}
		if e := <-got; e.Seq != i || e.Text != "x" {
			t.Fatalf("received %+v, want seq %d", e, i)
		}
	}
	close(o.out)
}

// Pushes from the actor while the consumer stalls now and then arrive in
// order, every byte of text once, however they were handed over.
func TestOutboxOrderUnderAnUnevenConsumer(t *testing.T) {
	o := newOutbox()
	const n = 20000
	go func() {
		for i := uint64(1); i <= n; i++ {
			e := event.Event{Seq: i, Kind: event.AssistantDelta, Turn: 1, Text: fmt.Sprintf("%d,", i)}
			if i%97 == 0 {
				e.Kind, e.Text = event.Notice, fmt.Sprintf("n%d,", i)
			}
			o.push(e)
			if i%1000 == 0 {
				time.Sleep(time.Millisecond)
			}
		}
		o.close()
	}()
	var text strings.Builder
	var last uint64
	k := 0
	for e := range o.out {
		if e.Seq <= last {
			t.Fatalf("seq %d after %d", e.Seq, last)
		}
		last = e.Seq
		text.WriteString(e.Text)
		if k++; k%50 == 0 {
			time.Sleep(100 * time.Microsecond)
		}
	}
	var want strings.Builder
	for i := 1; i <= n; i++ {
		if i%97 == 0 {
			fmt.Fprintf(&want, "n%d,", i)
		} else {
			fmt.Fprintf(&want, "%d,", i)
		}
	}
	if last != n || text.String() != want.String() {
		t.Fatalf("last seq %d; text differs: %d bytes, want %d", last, text.Len(), want.Len())
	}
}

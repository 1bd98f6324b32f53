package storebench

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
)

const cwd = "/home/user/src/project"

func openStore(b *testing.B) *store.Store {
	b.Helper()
	st, err := store.Open(b.TempDir(), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// turnEvents is one realistic turn starting at seq: an acknowledged
// prompt, deltas, a tool call with a 20 KiB output, the turn's end.
func turnEvents(seq uint64, turn, deltas int) []event.Event {
	var out []event.Event
	add := func(e event.Event) {
		seq++
		e.V, e.Seq, e.Time = event.SchemaVersion, seq, time.Unix(1_800_000_000, int64(seq))
		out = append(out, e)
	}
	add(event.Event{Kind: event.UserMessage, Turn: turn, Text: fmt.Sprintf("prompt %d: please fix the failing test", turn)})
	add(event.Event{Kind: event.TurnStarted, Turn: turn})
	for i := 0; i < deltas; i++ {
		add(event.Event{Kind: event.AssistantDelta, Turn: turn, Text: "some streamed words "})
	}
	call := event.ToolCall{ID: fmt.Sprintf("call_%d", turn), Name: "read", Arguments: []byte(`{"path":"main.go"}`)}
	add(event.Event{Kind: event.AssistantMessage, Turn: turn, Text: strings.Repeat("some streamed words ", deltas), Calls: []event.ToolCall{call}})
	add(event.Event{Kind: event.ToolFinished, Turn: turn, Result: &event.ToolResult{CallID: call.ID, Status: event.ToolOK, Output: strings.Repeat(fmt.Sprintf("line of main.go %d\n", turn%7), 1000)}})
	add(event.Event{Kind: event.TurnEnded, Turn: turn, End: &event.TurnEnd{State: event.TurnCompleted, Usage: event.Usage{TotalTokens: 1500}}})
	return out
}

// BenchmarkStoreAppendDeltas records a stream of text deltas with
// durable=false: the group commit turns them into few transactions. One
// op is one event; the writer is closed (everything committed) inside the
// timing.
func BenchmarkStoreAppendDeltas(b *testing.B) {
	b.Run("quire", func(b *testing.B) {
		st := openStore(b)
		w, err := st.Create("", cwd)
		if err != nil {
			b.Fatal(err)
		}
		e := event.Event{V: event.SchemaVersion, Kind: event.AssistantDelta, Turn: 1, Text: "some streamed words "}
		b.ReportAllocs()
		b.ResetTimer()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			e.Seq = uint64(i + 1)
			if err := w.Record(e, false); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
	})
}

// BenchmarkStoreAppendAcked acknowledges every event (durable=true), the
// path of a user message: one op is one acknowledged prompt, and ns/op is
// the latency a prompt waits before its turn may start sampling.
func BenchmarkStoreAppendAcked(b *testing.B) {
	b.Run("quire", func(b *testing.B) {
		st := openStore(b)
		w, err := st.Create("", cwd)
		if err != nil {
			b.Fatal(err)
		}
		defer w.Close()
		e := event.Event{V: event.SchemaVersion, Kind: event.UserMessage, Text: "please fix the failing test"}
		b.ResetTimer()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			e.Seq = uint64(i + 1)
			if err := w.Record(e, true); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "acks/s")
	})
}

// BenchmarkStoreAppendTurns records whole turns as the engine does: an
// acknowledged prompt, 200 deltas, a tool call with a 20 KiB output (a
// blob) and the turn's end. One op is one turn.
func BenchmarkStoreAppendTurns(b *testing.B) {
	b.Run("quire", func(b *testing.B) {
		st := openStore(b)
		w, err := st.Create("", cwd)
		if err != nil {
			b.Fatal(err)
		}
		var seq uint64
		events := 0
		b.ReportAllocs()
		b.ResetTimer()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			for _, e := range turnEvents(seq, i+1, 200) {
				if err := w.Record(e, e.Kind == event.UserMessage); err != nil {
					b.Fatal(err)
				}
				seq = e.Seq
				events++
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(events)/time.Since(start).Seconds(), "events/s")
	})
}

// BenchmarkStoreResumeFirstScreen opens a closed 100,000-event session the
// way `quire resume` does and reads what its first screen needs: the
// summary and the last 200 events. One op is one resume from a fresh
// Store.
func BenchmarkStoreResumeFirstScreen(b *testing.B) {
	const total, screen = 100_000, 200
	root, id, last, stored := bigSession(b, total)
	b.Run("quire", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			st, err := store.Open(root, store.Options{})
			if err != nil {
				b.Fatal(err)
			}
			latest, err := st.Latest(context.Background(), cwd)
			if err != nil || latest.ID != id {
				b.Fatalf("latest = %v, %v", latest.ID, err)
			}
			r, err := st.OpenReader(id)
			if err != nil {
				b.Fatal(err)
			}
			tail, err := r.Tail(screen)
			if err != nil || len(tail) != screen || tail[screen-1].Seq != last {
				b.Fatalf("tail: %d events, %v", len(tail), err)
			}
			r.Close()
		}
		b.ReportMetric(float64(stored), "events")
	})
}

// BenchmarkStoreReadAll reads every event of a closed 100,000-event
// session, what rebuilding the model's history on resume costs. One op is
// one whole read.
func BenchmarkStoreReadAll(b *testing.B) {
	root, id, _, total := bigSession(b, 100_000)
	st, err := store.Open(root, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("quire", func(b *testing.B) {
		b.ReportAllocs()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			r, err := st.OpenReader(id)
			if err != nil {
				b.Fatal(err)
			}
			all, err := r.ReadAll()
			if err != nil || len(all) != total {
				b.Fatalf("read %d events, %v", len(all), err)
			}
			r.Close()
		}
		b.ReportMetric(float64(total*b.N)/time.Since(start).Seconds(), "events/s")
	})
}

// bigSession stores a closed session whose log holds about total events
// of realistic turns, and returns the store's root, the session's id,
// the last event's Seq and how many events the log holds. Streamed text
// fragments recorded in a row are stored as one event, so far more
// events are recorded than the log keeps; a commit may split a run, so
// the log can hold a few more than counted here.
func bigSession(b *testing.B, total int) (root, id string, last uint64, stored int) {
	b.Helper()
	root = b.TempDir()
	st, err := store.Open(root, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w, err := st.Create("", cwd)
	if err != nil {
		b.Fatal(err)
	}
	var seq uint64
	var prev event.Event
	counted := 0
fill:
	for turn := 1; ; turn++ {
		for _, e := range turnEvents(seq, turn, 200) {
			if counted == 0 || !event.Mergeable(prev, e) {
				if counted == total {
					break fill
				}
				counted++
			}
			if err := w.Record(e, false); err != nil {
				b.Fatal(err)
			}
			prev, seq = e, e.Seq
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	r, err := st.OpenReader(w.ID())
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	all, err := r.ReadAll()
	if err != nil || len(all) < total {
		b.Fatalf("the log holds %d events, %v; want at least %d", len(all), err, total)
	}
	return root, w.ID(), all[len(all)-1].Seq, len(all)
}

// BenchmarkStoreSessions lists 1,000 sessions as `quire sessions` does
// (every closed session's database checked) and prints the table. One op
// is one listing.
func BenchmarkStoreSessions(b *testing.B) {
	benchList(b, true)
}

// BenchmarkStoreSessionsNoVerify is the same listing from the summaries
// alone, without opening any database.
func BenchmarkStoreSessionsNoVerify(b *testing.B) {
	benchList(b, false)
}

func benchList(b *testing.B, verify bool) {
	const n = 1000
	root := b.TempDir()
	st, err := store.Open(root, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		w, err := st.Create("", fmt.Sprintf("/home/user/src/project%d", i%25))
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range turnEvents(0, 1, 3) {
			if err := w.Record(e, false); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("quire", func(b *testing.B) {
		b.ReportAllocs()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			l, err := st.List(context.Background(), store.ListOptions{Verify: verify})
			if err != nil || len(l.Sessions) != n {
				b.Fatalf("listed %d sessions, %v", len(l.Sessions), err)
			}
			if err := store.WriteTable(io.Discard, l.Sessions, time.Now(), "/home/user"); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n*b.N)/time.Since(start).Seconds(), "sessions/s")
	})
}

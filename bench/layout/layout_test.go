package layout

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/internal/cputime"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/scrollback"
)

const (
	width  = 100
	height = 40
)

var sizes = []int{100, 100000}

// history returns the events of a session with about n blocks: turns of
// a prompt, a three-line answer and a tool call with four lines of output.
func history(n int) []event.Event {
	var evs []event.Event
	seq := uint64(0)
	add := func(e event.Event) {
		seq++
		e.V, e.Seq = event.SchemaVersion, seq
		evs = append(evs, e)
	}
	blocks := 0
	for turn := 1; blocks < n; turn++ {
		add(event.Event{Kind: event.UserMessage, Turn: turn, Text: fmt.Sprintf("Question %d: why does the parser reject this input?", turn)})
		add(event.Event{Kind: event.TurnStarted, Turn: turn})
		answer := fmt.Sprintf("In turn %d the lexer splits the input into tokens and the parser builds a tree.\nThe error comes from an unexpected token.\nLet me read the file.", turn)
		add(event.Event{Kind: event.AssistantDelta, Turn: turn, Text: answer})
		add(event.Event{Kind: event.AssistantMessage, Turn: turn, Text: answer})
		blocks += 2
		if blocks >= n {
			break
		}
		id := fmt.Sprintf("call-%d", turn)
		add(event.Event{Kind: event.ToolCallRequested, Turn: turn, Call: &event.ToolCall{ID: id, Name: "read", ToolKind: "read", Target: fmt.Sprintf("parser/file%d.go", turn)}})
		add(event.Event{Kind: event.ToolOutputDelta, Turn: turn, CallID: id, Text: "package parser\n\nfunc Parse(src string) (*Tree, error) {\n\treturn nil, nil\n}\n"})
		add(event.Event{Kind: event.ToolFinished, Turn: turn, Result: &event.ToolResult{CallID: id, Status: event.ToolOK, DurationMS: 3}})
		add(event.Event{Kind: event.TurnEnded, Turn: turn, End: &event.TurnEnd{State: event.TurnCompleted}})
		blocks++
	}
	return evs
}

func build(n int) *scrollback.Transcript {
	t := scrollback.New(scrollback.Options{Width: width, Height: height, Cwd: "/src/project"})
	for _, e := range history(n) {
		t.Apply(e)
	}
	return t
}

// frame is one full frame: layout, lines, paint, diff and encode.
type frame struct {
	t      *scrollback.Transcript
	screen *render.Screen
	bytes  int
}

func newFrame(t *scrollback.Transcript) *frame {
	return &frame{t: t, screen: render.NewScreen(io.Discard, width, height, render.Options{Colors: render.ColorTrue, Hyperlinks: true})}
}

func (f *frame) draw(b *testing.B) {
	f.t.Draw(f.screen.Back(), 0, 0)
	st, err := f.screen.Flush()
	if err != nil {
		b.Fatal(err)
	}
	f.bytes += st.Bytes
}

// BenchmarkLayoutStreamBottom streams an answer word by word into the
// last block, following the bottom, one frame per delta.
func BenchmarkLayoutStreamBottom(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := build(n)
			t.Apply(event.Event{Kind: event.UserMessage, Text: "Explain it once more, slowly."})
			t.Apply(event.Event{Kind: event.TurnStarted})
			f := newFrame(t)
			f.draw(b)
			words := strings.Fields("the parser reads one token at a time and decides from the grammar which rule applies next")
			f.bytes = 0
			stats := t.LayoutStats()
			cpu := startCPU()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				w := words[i%len(words)] + " "
				if i%14 == 13 {
					w += "\n"
				}
				t.Apply(event.Event{Kind: event.AssistantDelta, Text: w})
				f.draw(b)
			}
			b.ReportMetric(float64(f.bytes)/float64(b.N), "bytes/frame")
			cpu.report(b)
			reportWork(b, stats, t.LayoutStats())
		})
	}
}

// BenchmarkLayoutScrollMiddle scrolls line by line through 400 lines in
// the middle of the transcript and back, one frame per step.
func BenchmarkLayoutScrollMiddle(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := build(n)
			f := newFrame(t)
			f.draw(b)
			total := t.Frame().Position.Total
			start := total/2 - 200
			t.GotoLine(start)
			f.draw(b)
			// One pass to lay out the region, as a reader scrolling back
			// and forth would have.
			for range 400 {
				t.ScrollLines(1)
				f.draw(b)
			}
			f.bytes = 0
			stats := t.LayoutStats()
			cpu := startCPU()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if (i/400)%2 == 0 {
					t.ScrollLines(-1)
				} else {
					t.ScrollLines(1)
				}
				f.draw(b)
			}
			b.ReportMetric(float64(f.bytes)/float64(b.N), "bytes/frame")
			cpu.report(b)
			reportWork(b, stats, t.LayoutStats())
		})
	}
}

// cpuClock measures the CPU time of a benchmark loop.
type cpuClock struct {
	start time.Duration
	ok    bool
}

func startCPU() cpuClock {
	t, ok := cputime.Process()
	return cpuClock{start: t, ok: ok}
}

// report adds cpu-ns/op: process CPU time per iteration, which a busy
// machine distorts much less than ns/op.
func (c cpuClock) report(b *testing.B) {
	if end, ok := cputime.Process(); ok && c.ok && b.N > 0 {
		b.ReportMetric(float64(end-c.start)/float64(b.N), "cpu-ns/op")
	}
}

// reportWork reports the layout work per frame, a machine-independent
// check of the cost model: blocks laid out again and O(n) prefix-sum
// rebuilds (which must stay at zero on these paths).
func reportWork(b *testing.B, before, after scrollback.LayoutStats) {
	b.ReportMetric(float64(after.Measures-before.Measures)/float64(b.N), "relayouts/frame")
	b.ReportMetric(float64(after.Rebuilds-before.Rebuilds), "rebuilds")
}

// BenchmarkLayoutFirstFrame is the first frame over a transcript whose
// heights are all estimates, as after loading a session or a width
// change: only what is on and near the screen is laid out. Each op
// alternates the width, which invalidates every height in O(1); the
// frame of a freshly reduced transcript is timed once and reported as
// cold-ns.
func BenchmarkLayoutFirstFrame(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := build(n)
			before := t.LayoutStats().Measures
			start := time.Now()
			t.Frame()
			cold := time.Since(start)
			coldMeasured := t.LayoutStats().Measures - before

			buf := render.NewBuffer(width, height)
			measured := 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				t.Resize(width-i%2, height)
				before := t.LayoutStats().Measures
				t.Draw(buf, 0, 0)
				measured = t.LayoutStats().Measures - before
			}
			b.ReportMetric(float64(measured), "measured-blocks")
			b.ReportMetric(float64(coldMeasured), "cold-measured-blocks")
			b.ReportMetric(float64(cold.Nanoseconds()), "cold-ns")
		})
	}
}

// BenchmarkLayoutHeap reduces a whole session into a transcript and
// reports the heap it holds after its first frame.
func BenchmarkLayoutHeap(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var heap uint64
			for b.Loop() {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				t := build(n)
				newFrame(t).draw(b)
				runtime.GC()
				runtime.ReadMemStats(&after)
				heap = after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc)
				runtime.KeepAlive(t)
			}
			b.ReportMetric(float64(heap), "heap-bytes")
			b.ReportMetric(float64(heap)/float64(n), "heap-bytes/block")
		})
	}
}

// BenchmarkLayoutFilterScroll scrolls through a transcript filtered down
// to one turn in ten (less's &), one frame per line: the blocks the
// filter hides are skipped through the prefix sums, not walked. It runs
// at 100,000 blocks only (compare it with ScrollMiddle/100000): filtered
// to a tenth, 100 blocks fit on one screen and there is nothing to
// scroll.
func BenchmarkLayoutFilterScroll(b *testing.B) {
	for _, n := range sizes[1:] {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := build(n)
			t.SetFilter(`file\d*7\.go`)
			f := newFrame(t)
			t.ScrollTop()
			f.draw(b)
			total := t.Frame().Position.Total
			span := min(400, max(total-height, 1))
			f.bytes = 0
			stats := t.LayoutStats()
			cpu := startCPU()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if (i/span)%2 == 0 {
					t.ScrollLines(1)
				} else {
					t.ScrollLines(-1)
				}
				f.draw(b)
			}
			b.ReportMetric(float64(f.bytes)/float64(b.N), "bytes/frame")
			cpu.report(b)
			reportWork(b, stats, t.LayoutStats())
		})
	}
}

// BenchmarkLayoutSearch is one committed / search and its complete match
// count over the whole transcript (search is the one pager operation that
// reads everything: it lays out blocks it has not shown yet, without
// keeping their lines). The app spreads the count over frames; this
// times all of it. Its cost grows with the transcript by design.
func BenchmarkLayoutSearch(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := build(n)
			t.Frame()
			count := 0
			for i := 0; b.Loop(); i++ {
				t.ScrollTop()
				t.BeginSearch(false)
				t.SetSearchPattern(fmt.Sprintf("file%d\\.go", (i%7)*3+1))
				t.CommitSearch()
				st := t.Search()
				for st.Counting {
					st = t.Search()
				}
				count = st.Count
			}
			b.ReportMetric(float64(count), "matches")
		})
	}
}

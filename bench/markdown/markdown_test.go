package markdownbench

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"charm.land/glamour/v2"

	"github.com/quire-sh/quire/internal/cputime"
	"github.com/quire-sh/quire/markdown"
	"github.com/quire-sh/quire/render"
)

const (
	chunkSize = 16
	width     = 80
	// glamourSamples is how many prefixes a glamour stream op renders.
	glamourSamples = 24
	// glamourMaxLines is the largest answer glamour is run on: beyond it
	// even the sampled re-renders take minutes.
	glamourMaxLines = 5000
	// stressDocSize is the StressDocs size the figures use:
	// 2,000 rows, items or paragraphs, a 100 KB paragraph line.
	stressDocSize = 2000
)

// Each workload's stream runs right before its one-shot render, size
// after size, so that the two sides of a ratio, and the sizes a growth
// ratio compares, are timed seconds apart rather than minutes: on a
// machine whose other load comes and goes, the one-shot side of a ratio
// timed minutes after the stream moved it by up to 2× between runs of
// the same tree. glamour, whose re-rendering takes far longer, runs
// after quire's.

// BenchmarkMarkdownAnswer streams and renders the generated answer
// (markdown.GenerateAnswer): rows Stream<N> and OneShot<N>.
func BenchmarkMarkdownAnswer(b *testing.B) {
	sizes := []int{500, 5000, 50000}
	for _, n := range sizes {
		d := markdown.GenerateAnswer(n, 1)
		b.Run(fmt.Sprintf("Stream%d/quire", n), func(b *testing.B) { streamQuire(b, d) })
		b.Run(fmt.Sprintf("OneShot%d/quire", n), func(b *testing.B) { oneShotQuire(b, d) })
	}
	for _, n := range sizes {
		if n > glamourMaxLines {
			continue
		}
		d := markdown.GenerateAnswer(n, 1)
		b.Run(fmt.Sprintf("Stream%d/glamour", n), func(b *testing.B) { streamGlamour(b, d) })
		b.Run(fmt.Sprintf("OneShot%d/glamour", n), func(b *testing.B) { oneShotGlamour(b, d) })
	}
}

// BenchmarkMarkdownStress streams and renders the stress answer
// (markdown.GenerateStressAnswer): rows Stream<N> and OneShot<N>.
func BenchmarkMarkdownStress(b *testing.B) {
	for _, n := range []int{500, 5000, 50000} {
		d := markdown.GenerateStressAnswer(n, 1)
		b.Run(fmt.Sprintf("Stream%d/quire", n), func(b *testing.B) { streamQuire(b, d) })
		b.Run(fmt.Sprintf("OneShot%d/quire", n), func(b *testing.B) { oneShotQuire(b, d) })
	}
}

// BenchmarkMarkdownStressDoc streams and renders each StressDocs
// document: rows Stream/<doc> and OneShot/<doc>.
func BenchmarkMarkdownStressDoc(b *testing.B) {
	for _, d := range markdown.StressDocs(stressDocSize) {
		b.Run("Stream/"+d.Name+"/quire", func(b *testing.B) { streamQuire(b, d.Text) })
		b.Run("OneShot/"+d.Name+"/quire", func(b *testing.B) { oneShotQuire(b, d.Text) })
	}
}

func chunks(src string) []string {
	var out []string
	for p := 0; p < len(src); p += chunkSize {
		out = append(out, src[p:min(p+chunkSize, len(src))])
	}
	return out
}

func streamQuire(b *testing.B, src string) {
	cs := chunks(src)
	opts := markdown.Options{Width: width}
	var s *markdown.Stream
	settle()
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		s = markdown.NewStream(opts)
		for _, c := range cs {
			s.Append(c)
			// Look after every chunk: the worst case, as if a frame
			// were drawn per chunk (a Stream renders lazily).
			_ = s.Lines()
		}
		s.Finish()
		_ = s.Lines()
	}
	b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cs)), "ns/chunk")
	b.ReportMetric(float64(len(cs)), "chunks")
	bad := 0.0
	if !reflect.DeepEqual(nonEmpty(s.Lines()), nonEmpty(markdown.Render(src, opts))) {
		b.Log("oracle: streamed lines differ from the one-shot render")
		bad = 1
	}
	b.ReportMetric(bad, "oracle-bad")
	// Per-chunk costs come from one more stream, untimed: reading the
	// clocks around every chunk costs system calls the totals above
	// should not carry.
	cpuP99, wallP99 := chunkP99(cs, opts)
	if cpuP99 > 0 {
		b.ReportMetric(float64(cpuP99.Nanoseconds()), "p99-cpu-ns/chunk")
	}
	b.ReportMetric(float64(wallP99.Nanoseconds()), "p99-ns/chunk")
}

func streamGlamour(b *testing.B, src string) {
	cs := chunks(src)
	r := newGlamour(b)
	// Evenly spaced chunk counts 1..len(cs).
	var prefixes []string
	for i := range glamourSamples {
		n := (i + 1) * len(cs) / glamourSamples
		prefixes = append(prefixes, src[:min(n*chunkSize, len(src))])
	}
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		for _, p := range prefixes {
			if _, err := r.Render(p); err != nil {
				b.Fatal(err)
			}
		}
	}
	perChunkCPU := float64((processCPU() - cpu).Nanoseconds()) / float64(b.N*len(prefixes))
	b.ReportMetric(perChunkCPU*float64(len(cs)), "cpu-ns/op")
	perChunk := float64(b.Elapsed().Nanoseconds()) / float64(b.N*len(prefixes))
	b.ReportMetric(perChunk, "ns/chunk")
	b.ReportMetric(perChunk*float64(len(cs)), "ns/op")
	b.ReportMetric(float64(len(cs)), "chunks")
	b.Logf("glamour: %d sampled prefixes of %d chunks, ns/op extrapolated to every chunk", len(prefixes), len(cs))
}

func oneShotQuire(b *testing.B, src string) {
	settle()
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		markdown.Render(src, markdown.Options{Width: width})
	}
	b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func oneShotGlamour(b *testing.B, src string) {
	r := newGlamour(b)
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if _, err := r.Render(src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// chunkP99 streams the chunks once and returns the 99th percentile of
// one chunk's cost (Append and Lines; the last one is Finish and Lines):
// the CPU time of the calling thread, which other processes do not
// consume, and wall time.
func chunkP99(cs []string, opts markdown.Options) (cpu, wall time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpus := make([]time.Duration, 0, len(cs)+1)
	walls := make([]time.Duration, 0, len(cs)+1)
	s := markdown.NewStream(opts)
	for i := 0; i <= len(cs); i++ {
		t0, w0 := threadCPU(), time.Now()
		if i < len(cs) {
			s.Append(cs[i])
		} else {
			s.Finish()
		}
		_ = s.Lines()
		cpus = append(cpus, threadCPU()-t0)
		walls = append(walls, time.Since(w0))
	}
	return percentile(cpus, 0.99), percentile(walls, 0.99)
}

// percentile returns the p-th quantile of ds (which it sorts).
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(p*float64(len(ds))))]
}

func newGlamour(b *testing.B) *glamour.TermRenderer {
	r, err := glamour.NewTermRenderer(
		glamour.WithStandardStyle("dark"),
		glamour.WithWordWrap(width),
		glamour.WithChromaFormatter("terminal16m"),
	)
	if err != nil {
		b.Fatal(fmt.Errorf("start glamour: %w", err))
	}
	return r
}

func nonEmpty(ls []render.Line) []render.Line {
	out := make([]render.Line, len(ls))
	for i, l := range ls {
		if len(l.Spans) == 0 {
			l.Spans = nil
		}
		out[i] = l
	}
	return out
}

// settle hands the memory earlier benchmarks left behind back to the
// system before a timed loop starts. The runtime does that in the
// background, on the process's CPU time, for seconds after a heap of
// hundreds of megabytes (the 50,000-line streams, glamour) is gone: left
// to it, that work lands in the cpu-ns/op of whatever runs next.
func settle() { debug.FreeOSMemory() }

// processCPU is the process's CPU time; cpu-ns metrics read 0 where it
// cannot be read.
func processCPU() time.Duration {
	d, _ := cputime.Process()
	return d
}

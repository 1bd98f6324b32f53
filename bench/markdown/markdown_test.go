package markdownbench

import (
	"fmt"
	"reflect"
	"runtime"
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

func BenchmarkMarkdownStream500(b *testing.B)   { benchStream(b, answer(500), true) }
func BenchmarkMarkdownStream5000(b *testing.B)  { benchStream(b, answer(5000), true) }
func BenchmarkMarkdownStream50000(b *testing.B) { benchStream(b, answer(50000), true) }
func BenchmarkMarkdownOneShot500(b *testing.B)  { benchOneShot(b, answer(500), true) }
func BenchmarkMarkdownOneShot5000(b *testing.B) { benchOneShot(b, answer(5000), true) }
func BenchmarkMarkdownOneShot50000(b *testing.B) {
	benchOneShot(b, answer(50000), true)
}

func BenchmarkMarkdownStressStream500(b *testing.B)   { benchStream(b, stressAnswer(500), false) }
func BenchmarkMarkdownStressStream5000(b *testing.B)  { benchStream(b, stressAnswer(5000), false) }
func BenchmarkMarkdownStressStream50000(b *testing.B) { benchStream(b, stressAnswer(50000), false) }
func BenchmarkMarkdownStressOneShot500(b *testing.B)  { benchOneShot(b, stressAnswer(500), false) }
func BenchmarkMarkdownStressOneShot5000(b *testing.B) { benchOneShot(b, stressAnswer(5000), false) }
func BenchmarkMarkdownStressOneShot50000(b *testing.B) {
	benchOneShot(b, stressAnswer(50000), false)
}

// BenchmarkMarkdownStressDocStream streams each StressDocs document; its
// rows pair with BenchmarkMarkdownStressDocOneShot's.
func BenchmarkMarkdownStressDocStream(b *testing.B) {
	for _, d := range markdown.StressDocs(stressDocSize) {
		b.Run(d.Name, func(b *testing.B) { benchStream(b, doc{d.Text, 0}, false) })
	}
}

func BenchmarkMarkdownStressDocOneShot(b *testing.B) {
	for _, d := range markdown.StressDocs(stressDocSize) {
		b.Run(d.Name, func(b *testing.B) { benchOneShot(b, doc{d.Text, 0}, false) })
	}
}

// doc is a benchmark's text and, for generated answers, its line count.
type doc struct {
	text  string
	lines int
}

func answer(lines int) doc       { return doc{markdown.GenerateAnswer(lines, 1), lines} }
func stressAnswer(lines int) doc { return doc{markdown.GenerateStressAnswer(lines, 1), lines} }

func chunks(src string) []string {
	var out []string
	for p := 0; p < len(src); p += chunkSize {
		out = append(out, src[p:min(p+chunkSize, len(src))])
	}
	return out
}

func benchStream(b *testing.B, d doc, withGlamour bool) {
	src := d.text
	cs := chunks(src)
	opts := markdown.Options{Width: width}
	b.Run("quire", func(b *testing.B) {
		var s *markdown.Stream
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
	})
	if !withGlamour || d.lines > glamourMaxLines {
		return
	}
	b.Run("glamour", func(b *testing.B) {
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
	})
}

func benchOneShot(b *testing.B, d doc, withGlamour bool) {
	src := d.text
	b.Run("quire", func(b *testing.B) {
		b.ReportAllocs()
		cpu := processCPU()
		for b.Loop() {
			markdown.Render(src, markdown.Options{Width: width})
		}
		b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
	if !withGlamour || d.lines > glamourMaxLines {
		return
	}
	b.Run("glamour", func(b *testing.B) {
		r := newGlamour(b)
		b.ReportAllocs()
		cpu := processCPU()
		for b.Loop() {
			if _, err := r.Render(src); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
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

// processCPU is the process's CPU time; cpu-ns metrics read 0 where it
// cannot be read.
func processCPU() time.Duration {
	d, _ := cputime.Process()
	return d
}

package markdownbench

import (
	"fmt"
	"reflect"
	"testing"

	"charm.land/glamour/v2"

	"github.com/quire-sh/quire/markdown"
	"github.com/quire-sh/quire/render"
)

const (
	chunkSize = 16
	width     = 80
	// glamourSamples is how many prefixes a glamour stream op renders.
	glamourSamples = 24
)

func BenchmarkMarkdownStream500(b *testing.B)   { benchStream(b, 500) }
func BenchmarkMarkdownStream5000(b *testing.B)  { benchStream(b, 5000) }
func BenchmarkMarkdownOneShot500(b *testing.B)  { benchOneShot(b, 500) }
func BenchmarkMarkdownOneShot5000(b *testing.B) { benchOneShot(b, 5000) }

func chunks(src string) []string {
	var out []string
	for p := 0; p < len(src); p += chunkSize {
		out = append(out, src[p:min(p+chunkSize, len(src))])
	}
	return out
}

func benchStream(b *testing.B, lines int) {
	src := markdown.GenerateAnswer(lines, 1)
	cs := chunks(src)
	opts := markdown.Options{Width: width}
	b.Run("quire", func(b *testing.B) {
		var s *markdown.Stream
		b.ReportAllocs()
		cpu := cpuTime()
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
		b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cs)), "ns/chunk")
		b.ReportMetric(float64(len(cs)), "chunks")
		if !reflect.DeepEqual(nonEmpty(s.Lines()), nonEmpty(markdown.Render(src, opts))) {
			b.Log("oracle: streamed lines differ from the one-shot render")
			b.ReportMetric(1, "oracle-bad")
		}
	})
	b.Run("glamour", func(b *testing.B) {
		r := newGlamour(b)
		// Evenly spaced chunk counts 1..len(cs).
		var prefixes []string
		for i := range glamourSamples {
			n := (i + 1) * len(cs) / glamourSamples
			prefixes = append(prefixes, src[:min(n*chunkSize, len(src))])
		}
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			for _, p := range prefixes {
				if _, err := r.Render(p); err != nil {
					b.Fatal(err)
				}
			}
		}
		perChunkCPU := float64((cpuTime() - cpu).Nanoseconds()) / float64(b.N*len(prefixes))
		b.ReportMetric(perChunkCPU*float64(len(cs)), "cpu-ns/op")
		perChunk := float64(b.Elapsed().Nanoseconds()) / float64(b.N*len(prefixes))
		b.ReportMetric(perChunk, "ns/chunk")
		b.ReportMetric(perChunk*float64(len(cs)), "ns/op")
		b.ReportMetric(float64(len(cs)), "chunks")
		b.Logf("glamour: %d sampled prefixes of %d chunks, ns/op extrapolated to every chunk", len(prefixes), len(cs))
	})
}

func benchOneShot(b *testing.B, lines int) {
	src := markdown.GenerateAnswer(lines, 1)
	b.Run("quire", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			markdown.Render(src, markdown.Options{Width: width})
		}
		b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
	b.Run("glamour", func(b *testing.B) {
		r := newGlamour(b)
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			if _, err := r.Render(src); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
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

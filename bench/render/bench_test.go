package renderbench

import (
	"os"
	"strings"
	"testing"
)

// TestMain pins the environment tcell reads, so that results do not
// depend on the user's shell: a UTF-8 locale (otherwise tcell draws
// non-ASCII as '?'), and none of the variables that make it drop colour
// (NO_COLOR, TCELL_TRUECOLOR=disable) or the alternate screen.
func TestMain(m *testing.M) {
	os.Setenv("LC_ALL", "C.UTF-8")
	for _, v := range []string{"NO_COLOR", "TCELL_TRUECOLOR", "TCELL_ALTSCREEN", "LINES", "COLUMNS"} {
		os.Unsetenv(v)
	}
	os.Exit(m.Run())
}

func BenchmarkW1StreamAppend(b *testing.B) {
	for _, s := range Sizes {
		benchWorkload(b, StreamAppend(s, false))
		benchWorkload(b, StreamInline(s))
	}
}

func BenchmarkW2IdleTick(b *testing.B) {
	for _, s := range Sizes {
		benchWorkload(b, IdleTick(s))
		benchWorkload(b, Unchanged(s))
	}
}

func BenchmarkW3Scroll(b *testing.B) {
	for _, s := range Sizes {
		benchWorkload(b, Scroll(s, 1))
		benchWorkload(b, Scroll(s, 3))
		benchWorkload(b, Scroll(s, 0))
	}
}

func BenchmarkW4InsertHistory(b *testing.B) {
	for _, s := range Sizes {
		benchWorkload(b, InsertHistory(s, 200))
		benchWorkload(b, InsertHistory(s, 10))
	}
}

func BenchmarkW5Resize(b *testing.B) {
	for _, s := range Sizes {
		benchWorkload(b, Resize(s))
	}
}

func BenchmarkW6Wide(b *testing.B) {
	for _, s := range Sizes {
		benchWorkload(b, StreamAppend(s, true))
		benchWorkload(b, WideScroll(s))
	}
}

func BenchmarkW7Links(b *testing.B) {
	for _, s := range Sizes {
		benchWorkload(b, LinkList(s))
	}
}

// benchWorkload runs w against every renderer as sub-benchmarks named
// "<params>/<impl>". One op is one frame. Before timing, the renderer is
// checked with the oracle (a separate instance) and then warmed up with
// the prologue and one pass over the loop, so the timed frames are steady
// state.
func benchWorkload(b *testing.B, w *Workload) {
	_, params, _ := strings.Cut(w.Name, "/")
	b.Run(params, func(b *testing.B) {
		for _, impl := range Impls() {
			var verdict *Verdict
			b.Run(impl.Name, func(b *testing.B) {
				if why := impl.Skip(w); why != "" {
					b.Skip(why)
				}
				if verdict == nil {
					v, err := Verify(impl, w, 1)
					if err != nil {
						b.Fatal(err)
					}
					verdict = &v
				}
				var out Counter
				d, err := impl.New(w, &out)
				if err != nil {
					b.Fatal(err)
				}
				defer d.Close()
				for _, frames := range [][]Frame{w.Prologue, w.Frames} {
					for i := range frames {
						if err := d.Draw(&frames[i]); err != nil {
							b.Fatal(err)
						}
					}
				}
				out.Reset()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := d.Draw(&w.Frames[i%len(w.Frames)]); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				n := float64(b.N)
				b.ReportMetric(float64(out.Bytes)/n, "bytes/frame")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/frame")
				b.ReportMetric(float64(out.Writes)/n, "writes/frame")
				b.ReportMetric(float64(verdict.Frames), "oracle-frames")
				b.ReportMetric(float64(verdict.Bad), "oracle-bad")
				b.ReportMetric(float64(verdict.Unsynced), "oracle-unsynced")
				reportEscapes(b, verdict)
				if verdict.Bad > 0 {
					b.Logf("oracle: %d of %d frames wrong; first: %s", verdict.Bad, verdict.Frames, verdict.First)
				}
				if verdict.Unsynced > 0 {
					b.Logf("sync: %d of %d frames not written as one synchronized update; first: %s", verdict.Unsynced, verdict.Frames, verdict.FirstUnsynced)
				}
			})
		}
	})
}

// reportEscapes reports, per frame of the oracle's pass, how many control
// sequences of each kind the renderer wrote.
func reportEscapes(b *testing.B, v *Verdict) {
	n := float64(max(v.Frames, 1))
	e := v.Escapes
	for _, m := range []struct {
		count int
		unit  string
	}{
		{e.Moves, "moves/frame"}, {e.SGR, "sgr/frame"}, {e.Erases, "erases/frame"}, {e.Clears, "clears/frame"},
		{e.Scrolls, "scrolls/frame"}, {e.Edits, "edits/frame"}, {e.Links, "links/frame"},
	} {
		b.ReportMetric(float64(m.count)/n, m.unit)
	}
}

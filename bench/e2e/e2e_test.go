package e2e

import (
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

//go:embed testdata/answer.md
var answer string

// workload is the issue's: an 8 KB markdown answer in 932 chunks of 8
// bytes, 10 ms apart (E2E_PACE_MS, for an experiment with a faster or
// slower server), on a 120×40 terminal.
func workload() Workload {
	pace := 10 * time.Millisecond
	if ms, err := strconv.Atoi(os.Getenv("E2E_PACE_MS")); err == nil && ms > 0 {
		pace = time.Duration(ms) * time.Millisecond
	}
	return Workload{
		Answer: strings.TrimSuffix(answer, "\n"),
		Chunk:  8, Pace: pace,
		Width: 120, Height: 40,
		// Its last words: Claude Code moves the cursor over a line's
		// spaces rather than writing them, and the emulator shows
		// earlier text in some of those cells.
		Last: "whole answer.",
	}
}

// buildQuire builds the binary under test into dir, unless E2E_QUIRE_BIN
// names one already built (another branch's, or one kept for a profile).
func buildQuire(tb testing.TB, dir string) string {
	tb.Helper()
	if bin := os.Getenv("E2E_QUIRE_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(dir, "quire")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/quire").CombinedOutput()
	if err != nil {
		tb.Fatalf("building quire: %v\n%s", err, out)
	}
	return bin
}

// rounds is how many times each program runs; the median is reported.
func rounds() int {
	if n, err := strconv.Atoi(os.Getenv("E2E_ROUNDS")); err == nil && n > 0 {
		return n
	}
	return 3
}

// BenchmarkStream runs every program through the workload, the programs
// interleaved round by round so that a burst of load on the machine
// falls on all of them, and reports each one's medians as
// Stream/<mode>/<program>. Run it with -benchtime 1x (make bench-e2e):
// one op is the whole measurement. Peers run only when E2E_PEERS is set
// (make bench-peers).
func BenchmarkStream(b *testing.B) {
	w := workload()
	bin := buildQuire(b, b.TempDir())
	progs := QuirePrograms(bin)
	if spec := os.Getenv("E2E_VARIANTS"); spec != "" {
		vs, err := Variants(spec, bin)
		if err != nil {
			b.Fatal(err)
		}
		progs = append(progs, vs...)
	}
	if os.Getenv("E2E_PEERS") != "" {
		progs = append(progs, PeerPrograms(b.TempDir())...)
	}
	// E2E_ONLY keeps the programs whose mode/name contains it ("inline",
	// "quire"): -bench cannot, since every program runs before the rows
	// are reported.
	if only := os.Getenv("E2E_ONLY"); only != "" {
		progs = slices.DeleteFunc(progs, func(p Program) bool { return !strings.Contains(p.Mode+"/"+p.Name, only) })
	}
	results := make([][]Result, len(progs))
	errs := make([]error, len(progs))
	for r := 0; r < rounds(); r++ {
		for i, p := range progs {
			if p.Skip != "" || errs[i] != nil {
				continue
			}
			res, err := Run(p, w)
			if err != nil {
				errs[i] = err
				continue
			}
			results[i] = append(results[i], res)
		}
	}
	for i, p := range progs {
		b.Run(p.Mode+"/"+p.Name, func(b *testing.B) {
			switch {
			case p.Skip != "":
				b.Skip(p.Skip)
			case errs[i] != nil:
				b.Skip("could not run: " + oneLine(errs[i].Error()))
			}
			report(b, results[i])
		})
	}
}

// report reports the medians of rs.
func report(b *testing.B, rs []Result) {
	med := func(f func(Result) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	b.ReportMetric(med(func(r Result) float64 { return float64(r.Bytes) / float64(r.Chunks) }), "bytes/chunk")
	b.ReportMetric(med(func(r Result) float64 { return r.CPU.Seconds() * 1e3 / float64(r.Chunks) }), "cpu-ms/chunk")
	b.ReportMetric(med(func(r Result) float64 { return r.CPU.Seconds() }), "cpu-s/answer")
	b.ReportMetric(med(func(r Result) float64 { return float64(r.PeakRSS) / 1e6 }), "peak-RSS-MB")
	b.ReportMetric(med(func(r Result) float64 { return r.Ready.Seconds() * 1e3 }), "ready-ms")
	b.ReportMetric(med(func(r Result) float64 { return r.Tail.Seconds() * 1e3 }), "last-frame-ms")
	for i, r := range rs {
		b.Logf("run %d: %d bytes, %v CPU (%v total), %.1f MB peak RSS, ready %v, last frame %v after the stream",
			i+1, r.Bytes, r.CPU, r.TotalCPU, float64(r.PeakRSS)/1e6, r.Ready.Round(time.Millisecond), r.Tail.Round(time.Millisecond))
	}
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// TestHarness runs quire through a short answer in both modes, so the
// harness cannot rot between benchmark runs.
func TestHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the real binary")
	}
	w := workload()
	w.Answer = w.Answer[:800] + "\n\n" + w.Answer[strings.LastIndexByte(w.Answer, '\n')+1:]
	bin := buildQuire(t, t.TempDir())
	for _, p := range QuirePrograms(bin) {
		t.Run(p.Mode, func(t *testing.T) {
			r, err := Run(p, w)
			if err != nil {
				t.Fatal(err)
			}
			if r.Bytes <= 0 || r.Chunks != w.Chunks() || r.Ready <= 0 || r.PeakRSS <= 0 {
				t.Fatalf("implausible measurement: %+v", r)
			}
			t.Logf("%s: %+v", p.Mode, r)
		})
	}
}

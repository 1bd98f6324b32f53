package main

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     map[string]Result // by name; Metrics compared only for listed units
		problems int
	}{
		{
			name: "plain result line with custom metrics and GOMAXPROCS suffix",
			in:   "BenchmarkW1StreamAppend/200x50/quire-8   \t 1000\t 1234 ns/op\t 64.50 bytes/frame\t 0 B/op\t 0 allocs/op\n",
			want: map[string]Result{"W1StreamAppend/200x50/quire": {Runs: 1, Metrics: map[string]float64{"ns/op": 1234, "bytes/frame": 64.5, "B/op": 0, "allocs/op": 0}}},
		},
		{
			name: "GOMAXPROCS=1 has no suffix and a numeric last element survives",
			in:   "BenchmarkLayoutHeap/100000 \t 10\t 99 ns/op\nBenchmarkLayoutHeap/100-4 \t 10\t 11 ns/op\n",
			want: map[string]Result{
				"LayoutHeap/100000": {Runs: 1, Metrics: map[string]float64{"ns/op": 99}},
				"LayoutHeap/100":    {Runs: 1, Metrics: map[string]float64{"ns/op": 11}},
			},
		},
		{
			name: "repeated runs (-count): the median of two timings is their mean, as of counts",
			in:   "BenchmarkX/a-2 10 100 ns/op 4 bytes/frame\nBenchmarkX/a-2 10 300 ns/op 6 bytes/frame\n",
			want: map[string]Result{"X/a": {Runs: 2, Metrics: map[string]float64{"ns/op": 200, "bytes/frame": 5}}},
		},
		{
			name: "repeated runs (-count): a disturbed run moves a timing's median not at all, a count's mean as much as it differs",
			in: "BenchmarkX/a-2 10 100 ns/op 110 cpu-ns/op 7 p99-ms 0 oracle-bad 2 events/s\n" +
				"BenchmarkX/a-2 10 400 ns/op 500 cpu-ns/op 30 p99-ms 3 oracle-bad 8 events/s\n" +
				"BenchmarkX/a-2 10 120 ns/op 100 cpu-ns/op 9 p99-ms 0 oracle-bad 5 events/s\n",
			want: map[string]Result{"X/a": {Runs: 3, Metrics: map[string]float64{
				"ns/op": 120, "cpu-ns/op": 110, "p99-ms": 9, "oracle-bad": 1, "events/s": 5}}},
		},
		{
			name: "skip without -v: header then reason",
			in:   "--- SKIP: BenchmarkW4/10/tcell\n    bench_test.go:74: tcell has no inline mode\n",
			want: map[string]Result{"W4/10/tcell": {Skipped: "tcell has no inline mode", Logs: []string{"tcell has no inline mode"}}},
		},
		{
			name: "skip with -v: bare name, reason, then header",
			in:   "BenchmarkW4/10/quire\n    bench_test.go:74: not landed\n--- SKIP: BenchmarkW4/10/quire (0.00s)\n",
			want: map[string]Result{"W4/10/quire": {Skipped: "not landed", Logs: []string{"not landed"}}},
		},
		{
			name: "logs without -v follow the BENCH header and are kept once",
			in:   "BenchmarkW4/10/uv-2 10 5 ns/op 1 oracle-bad\n--- BENCH: BenchmarkW4/10/uv-2\n    bench_test.go:110: oracle: wrong\n    bench_test.go:110: oracle: wrong\n",
			want: map[string]Result{"W4/10/uv": {Runs: 1, Metrics: map[string]float64{"oracle-bad": 1}, Logs: []string{"oracle: wrong"}}},
		},
		{
			name: "logs with -v come before the result line",
			in:   "BenchmarkW4/10/uv\n    bench_test.go:110: oracle: wrong\nBenchmarkW4/10/uv-2 10 5 ns/op\n",
			want: map[string]Result{"W4/10/uv": {Runs: 1, Metrics: map[string]float64{"ns/op": 5}, Logs: []string{"oracle: wrong"}}},
		},
		{
			name:     "failed benchmark and package failure",
			in:       "--- FAIL: BenchmarkX/quire\n    x_test.go:9: boom\nFAIL\tgithub.com/quire-sh/quire/bench/x\t0.1s\n",
			want:     map[string]Result{"X/quire": {Failed: true, Logs: []string{"boom"}}},
			problems: 1,
		},
		{
			name: "header lines, malformed result lines and noise are ignored",
			in:   "goos: linux\nBenchmarkBroken-2 ten 5 ns/op\nBenchmarkOdd-2 10 5\nPASS\nok  \tpkg\t1s\n",
			want: map[string]Result{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Parse(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Results) != len(tt.want) {
				var names []string
				for _, r := range out.Results {
					names = append(names, r.Name)
				}
				t.Fatalf("got results %q, want %d", names, len(tt.want))
			}
			for name, want := range tt.want {
				got := out.Result(name)
				if got == nil {
					t.Fatalf("no result %q", name)
				}
				if got.Runs != want.Runs || got.Skipped != want.Skipped || got.Failed != want.Failed || !reflect.DeepEqual(got.Logs, want.Logs) {
					t.Errorf("%s: got runs %d skipped %q failed %v logs %q; want runs %d skipped %q failed %v logs %q",
						name, got.Runs, got.Skipped, got.Failed, got.Logs, want.Runs, want.Skipped, want.Failed, want.Logs)
				}
				for unit, v := range want.Metrics {
					if got.Metrics[unit] != v {
						t.Errorf("%s %s = %v, want %v", name, unit, got.Metrics[unit], v)
					}
				}
			}
			if len(out.Problems) != tt.problems {
				t.Errorf("problems %q, want %d", out.Problems, tt.problems)
			}
		})
	}
}

func TestParseRealRun(t *testing.T) {
	f, err := os.Open("testdata/render.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 13 {
		t.Fatalf("got %d results, want 13", len(out.Results))
	}
	if r := out.Result("W3Scroll/by1/80x24/quire"); r.Runs != 2 || r.Metrics["ns/op"] != 110000 {
		t.Errorf("averaged run: %+v", r)
	}
	if len(out.Problems) != 0 {
		t.Errorf("problems: %q", out.Problems)
	}
}

func FuzzParse(f *testing.F) {
	seed, _ := os.ReadFile("testdata/render.txt")
	f.Add(string(seed))
	f.Add("BenchmarkX-2 1 1 ns/op\n--- SKIP: BenchmarkY\n    a.go:1: why\n")
	f.Fuzz(func(t *testing.T, in string) {
		out, err := Parse(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, s := range Suites() {
			_ = Write(&strings.Builder{}, Build(s, out))
		}
	})
}

func TestIsTiming(t *testing.T) {
	for unit, want := range map[string]bool{
		"ns/op": true, "cpu-ns/op": true, "ns/chunk": true, "p99-cpu-ns/chunk": true, "cold-ns": true,
		"ready-ms": true, "p50-ms": true, "cpu-ms/chunk": true, "cpu-s/answer": true,
		"events/s": false, "acks/s": false, "bytes/frame": false, "B/op": false, "allocs/op": false,
		"oracle-bad": false, "heap-bytes": false, "chunks": false, "matches": false, "measured-blocks": false,
	} {
		if got := isTiming(unit); got != want {
			t.Errorf("isTiming(%q) = %t, want %t", unit, got, want)
		}
	}
}

package main

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func parseString(t *testing.T, s string) *Output {
	t.Helper()
	out, err := Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBuildColumns(t *testing.T) {
	tests := []struct {
		suite, in  string
		rows, cols []string
	}{
		{"render", "BenchmarkA/1/uv-2 1 1 ns/op\nBenchmarkA/1/quire-2 1 1 ns/op\nBenchmarkA/1/tcell-2 1 1 ns/op\nBenchmarkB/2/quire-2 1 1 ns/op\n",
			[]string{"A/1", "B/2"}, []string{"quire", "tcell", "uv"}},
		{"render", "BenchmarkA/1/uv-2 1 1 ns/op\nBenchmarkA/1/other-2 1 1 ns/op\n",
			[]string{"A/1"}, []string{"uv", "other"}},
		{"layout", "BenchmarkLayoutHeap/100000-2 1 1 ns/op\nBenchmarkLayoutHeap/100-2 1 1 ns/op\nBenchmarkLayoutFirst/1000-2 1 1 ns/op\n",
			[]string{"LayoutHeap", "LayoutFirst"}, []string{"100", "1000", "100000"}},
		{"store", "BenchmarkStoreAppend/quire-2 1 1 ns/op\nBenchmarkNoSub-2 1 1 ns/op\n",
			[]string{"StoreAppend"}, []string{"quire"}},
	}
	for _, tt := range tests {
		tb := Build(SuiteNamed(tt.suite), parseString(t, tt.in))
		if strings.Join(tb.Rows, ",") != strings.Join(tt.rows, ",") || strings.Join(tb.Cols, ",") != strings.Join(tt.cols, ",") {
			t.Errorf("%s: rows %q cols %q, want %q %q", tt.suite, tb.Rows, tb.Cols, tt.rows, tt.cols)
		}
	}
}

func TestRatioColumns(t *testing.T) {
	tests := []struct {
		suite, in string
		want      string
	}{
		{"render", "BenchmarkA/1/quire-2 1 1 ns/op\nBenchmarkA/1/tcell-2 1 1 ns/op\nBenchmarkA/1/uv-2 1 1 ns/op\n", "quire/tcell quire/uv"},
		{"render", "BenchmarkA/1/tcell-2 1 1 ns/op\nBenchmarkA/1/uv-2 1 1 ns/op\n", ""}, // no subject, no ratios
		{"layout", "BenchmarkL/100-2 1 1 ns/op\nBenchmarkL/100000-2 1 1 ns/op\n", "100000/100"},
		{"app", "BenchmarkAppInputLatency/fullscreen-2 1 1 ns/op\nBenchmarkAppInputLatency/inline-2 1 1 ns/op\n", ""},
		{"store", "BenchmarkStoreAppend/quire-2 1 1 ns/op\n", ""},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range Build(SuiteNamed(tt.suite), parseString(t, tt.in)).ratioCols() {
			got = append(got, r[0]+"/"+r[1])
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%s: ratio columns %q, want %q", tt.suite, got, tt.want)
		}
	}
}

func TestRatioAndGeoMean(t *testing.T) {
	in := `BenchmarkA/x/quire-2 1 1 ns/op 50 bytes/frame
BenchmarkA/x/uv-2 1 1 ns/op 100 bytes/frame
BenchmarkB/x/quire-2 1 1 ns/op 200 bytes/frame
BenchmarkB/x/uv-2 1 1 ns/op 100 bytes/frame
BenchmarkC/x/quire-2 1 1 ns/op 0 bytes/frame
BenchmarkC/x/uv-2 1 1 ns/op 0 bytes/frame
BenchmarkD/x/quire-2 1 1 ns/op 5 bytes/frame
BenchmarkD/x/uv-2 1 1 ns/op 0 bytes/frame
--- SKIP: BenchmarkE/x/uv
    a_test.go:1: no inline mode
BenchmarkE/x/quire-2 1 1 ns/op 7 bytes/frame
`
	tb := Build(SuiteNamed("render"), parseString(t, in))
	tests := []struct {
		row  string
		want float64
		ok   bool
	}{
		{"A/x", 0.5, true},
		{"B/x", 2, true},
		{"C/x", 0, true},           // nothing beats writing nothing
		{"D/x", math.Inf(1), true}, // the peer wrote nothing, quire did not
		{"E/x", 0, false},          // the peer skipped
		{"missing", 0, false},
	}
	for _, tt := range tests {
		got, ok := tb.Ratio(tt.row, "quire", "uv", "bytes/frame")
		if ok != tt.ok || got != tt.want {
			t.Errorf("Ratio(%s) = %v, %v; want %v, %v", tt.row, got, ok, tt.want, tt.ok)
		}
	}
	g, n := tb.GeoMean("quire", "uv", "bytes/frame")
	if n != 2 || math.Abs(g-1) > 1e-12 { // sqrt(0.5 × 2); C and D have a zero side and are left out
		t.Errorf("GeoMean = %v over %d rows, want 1 over 2", g, n)
	}
}

func TestTargets(t *testing.T) {
	row := func(w, impl string, bytes, ns, allocs, wrong float64) string {
		return "Benchmark" + w + "/" + impl + "-2 1 " + ftoa(ns) + " ns/op " + ftoa(bytes) + " bytes/frame " + ftoa(ns) + " ns/frame " +
			ftoa(wrong) + " oracle-bad " + ftoa(wrong) + " oracle-unsynced " + ftoa(allocs) + " allocs/op\n"
	}
	good := row("W1/80x24", "quire", 40, 10, 0, 0) + row("W1/80x24", "tcell", 100, 50, 9, 0) + row("W1/80x24", "uv", 60, 20, 3, 0) +
		row("W2IdleTick/unchanged/80x24", "quire", 0, 5, 0, 0) + row("W2IdleTick/unchanged/80x24", "tcell", 28, 9, 1, 0) + row("W2IdleTick/unchanged/80x24", "uv", 0, 8, 1, 0)
	bad := row("W1/80x24", "quire", 90, 30, 2, 3) + row("W1/80x24", "tcell", 100, 50, 9, 0) + row("W1/80x24", "uv", 60, 20, 3, 0) +
		row("W2IdleTick/unchanged/80x24", "quire", 16, 5, 0, 0) + row("W2IdleTick/unchanged/80x24", "tcell", 28, 9, 1, 0) + row("W2IdleTick/unchanged/80x24", "uv", 0, 8, 1, 0)
	tests := []struct {
		name string
		in   string
		want []string // PASS / FAIL / n/a per render target, in order
	}{
		{"all met", good, []string{"PASS", "PASS", "PASS", "PASS", "PASS", "PASS", "PASS", "PASS"}},
		{"all missed", bad, []string{"FAIL", "FAIL", "FAIL", "FAIL", "FAIL", "FAIL", "FAIL", "FAIL"}},
		{"nothing to judge", row("W9/80x24", "tcell", 1, 1, 1, 0), []string{"n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := Build(SuiteNamed("render"), parseString(t, tt.in))
			for i, tg := range tb.Suite.Targets {
				v := tg.Eval(tb)
				got := "FAIL"
				switch {
				case !v.Judged:
					got = "n/a"
				case v.Pass:
					got = "PASS"
				}
				if got != tt.want[i] {
					t.Errorf("%s: %s (%s), want %s", tg.Desc, got, v.Detail, tt.want[i])
				}
			}
		})
	}
}

func ftoa(v float64) string { return formatValue(v) }

func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		v          float64
		value, rat string
	}{
		{0, "0", "0"}, {0.0004, "0.000", "<0.001"}, {0.05, "0.050", "0.050"}, {0.5, "0.500", "0.50"},
		{3.14159, "3.14", "3.14"}, {64.44, "64.4", "64.44"}, {12345.6, "12346", "12346"}, {math.Inf(1), "+Inf", "inf"},
	} {
		if got := formatValue(tt.v); got != tt.value {
			t.Errorf("formatValue(%v) = %q, want %q", tt.v, got, tt.value)
		}
		if got := formatRatio(tt.v); got != tt.rat {
			t.Errorf("formatRatio(%v) = %q, want %q", tt.v, got, tt.rat)
		}
	}
}

// TestWriteGolden prints the table for a canned run of the render suite.
func TestWriteGolden(t *testing.T) {
	in, err := os.ReadFile("testdata/render.txt")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, Build(SuiteNamed("render"), parseString(t, string(in)))); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "render.golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("table differs from %s (run with -update if the change is intended):\n%s", golden, buf.String())
	}
}

func TestWriteSingleColumn(t *testing.T) {
	in := "BenchmarkStoreAppend/quire-2 10 5000 ns/op 2000 events/s 64 B/op 1 allocs/op\n" +
		"BenchmarkStoreSessions/quire-2 10 9000 ns/op 300 sessions/s 128 B/op 2 allocs/op\n"
	var buf bytes.Buffer
	if err := Write(&buf, Build(SuiteNamed("store"), parseString(t, in))); err != nil {
		t.Fatal(err)
	}
	want := `store · quire
workload       ns/op  events/s  sessions/s  B/op  allocs/op
StoreAppend     5000      2000           —  64.0       1.00
StoreSessions   9000         —         300   128       2.00

`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestRunMissingSuiteFolder(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-suite", "app"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "app: no suite yet") {
		t.Errorf("stdout %q does not say the suite is missing", stdout.String())
	}
	if code := run([]string{"-suite", "nope"}, &stdout, &stderr); code != 2 {
		t.Errorf("unknown suite: exit %d, want 2", code)
	}
}

// TestPairedRatio: the markdown suite's stream/one-shot target pairs each
// stream row with the one-shot row of the same document.
func TestPairedRatio(t *testing.T) {
	in := "BenchmarkMarkdownStressDoc/Stream/table/quire-2 1 400 ns/op 400 cpu-ns/op\n" +
		"BenchmarkMarkdownStressDoc/OneShot/table/quire-2 1 100 ns/op 100 cpu-ns/op\n" +
		"BenchmarkMarkdownStressDoc/Stream/list/quire-2 1 500 ns/op 500 cpu-ns/op\n" +
		"BenchmarkMarkdownStressDoc/OneShot/list/quire-2 1 100 ns/op 100 cpu-ns/op\n" +
		"BenchmarkMarkdownAnswer/Stream500/quire-2 1 300 ns/op 300 cpu-ns/op\n" +
		"BenchmarkMarkdownAnswer/OneShot500/quire-2 1 100 ns/op 100 cpu-ns/op\n"
	tb := Build(SuiteNamed("markdown"), parseString(t, in))
	var tg *Target
	for i := range tb.Suite.Targets {
		if strings.Contains(tb.Suite.Targets[i].Desc, "on every document") {
			tg = &tb.Suite.Targets[i]
		}
	}
	if tg == nil {
		t.Fatal("no per-document target")
	}
	v := tg.Eval(tb)
	if !v.Judged || v.Pass || v.Detail != "1 of 3 rows fail: MarkdownStressDoc/Stream/list 5.00" {
		t.Fatalf("verdict %+v", v)
	}
}

// The sse suite's columns are read sizes: the ratio column is the one it
// names, and its targets judge every event size.
func TestSSESuite(t *testing.T) {
	line := func(event, read string, cpu, allocs float64) string {
		return "BenchmarkSSERead/" + event + "/" + read + "-2 10 1 ns/op " + ftoa(cpu) + " cpu-ns/byte " + ftoa(cpu) + " ns/byte " + ftoa(allocs) + " allocs/op\n"
	}
	in := line("4KiB", "1B", 6, 1) + line("4KiB", "7B", 2, 1) + line("4KiB", "4KiB", 1, 1) +
		line("1MiB", "1B", 8, 1) + line("1MiB", "7B", 2, 1) + line("1MiB", "4KiB", 0.5, 2) +
		"BenchmarkSSESource/64KiB/1B-2 10 1 ns/op 3 cpu-ns/byte 3 ns/byte 0 allocs/op\n" +
		"BenchmarkSSESource/64KiB/7B-2 10 1 ns/op 0.5 cpu-ns/byte 0.5 ns/byte 0 allocs/op\n" +
		"BenchmarkSSESource/64KiB/4KiB-2 10 1 ns/op 0.01 cpu-ns/byte 0.01 ns/byte 0 allocs/op\n"
	var buf bytes.Buffer
	if err := Write(&buf, Build(SuiteNamed("sse"), parseString(t, in))); err != nil {
		t.Fatal(err)
	}
	want := `sse · cpu-ns/byte
workload           1B     7B   4KiB  1B/4KiB
SSERead/4KiB     6.00   2.00   1.00     6.00
SSERead/1MiB     8.00   2.00  0.500    16.00
SSESource/64KiB  3.00  0.500  0.010      300

sse · ns/byte
workload           1B     7B   4KiB  1B/4KiB
SSERead/4KiB     6.00   2.00   1.00     6.00
SSERead/1MiB     8.00   2.00  0.500    16.00
SSESource/64KiB  3.00  0.500  0.010      300

sse · allocs/event
workload           1B    7B  4KiB  1B/4KiB
SSERead/4KiB     1.00  1.00  1.00     1.00
SSERead/1MiB     1.00  1.00  2.00     0.50
SSESource/64KiB     0     0     0      0/0

sse targets
  FAIL  1-byte reads within 3× of 4 KiB reads per byte, every event size (cpu-ns/byte, 1B/4KiB ≤ 3) — 2 of 2 fail: SSERead/4KiB 6.00, SSERead/1MiB 16.00
  PASS  (added) linear in the event's size: per byte, a 1 MiB event ≤ 2× a 4 KiB one, every read size (cpu-ns/byte) — 1B 1.33, 7B 1.00, 4KiB 0.50
  FAIL  (added) allocations per event ≤ 1 — 1 of 6 rows fail: SSERead/1MiB/4KiB 2.00

`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// A suite that names its package and pattern runs go test there with it,
// unless -bench says otherwise.
func TestRunSuitePackage(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	if err := os.MkdirAll(filepath.Join("engine", "llm"), 0o755); err != nil {
		t.Fatal(err)
	}
	fakeGo := filepath.Join(dir, "fakego")
	script := "#!/bin/sh\necho \"$@\" > args.txt\necho 'BenchmarkSSERead/4KiB/1B-2 10 1 ns/op 2 cpu-ns/byte'\n"
	if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "-bench ^BenchmarkSSE "},
		{[]string{"-bench", "SSERead/1MiB"}, "-bench SSERead/1MiB "},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"-suite", "sse", "-go", fakeGo}, tt.args...), &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d, stderr %s", code, stderr.String())
		}
		args, _ := os.ReadFile("args.txt")
		if !strings.Contains(string(args), tt.want) || !strings.HasSuffix(strings.TrimSpace(string(args)), "./engine/llm/") {
			t.Errorf("go was run with %q, want %q and ./engine/llm/", args, tt.want)
		}
		if !strings.Contains(stdout.String(), "SSERead/4KiB") {
			t.Errorf("stdout: %s", stdout.String())
		}
	}
}

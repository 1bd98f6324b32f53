package main

import (
	"fmt"
	"math"
	"strings"
)

// Suite says how the results of one bench/<name> package become a table.
//
// Benchmarks are named Benchmark<Workload>/<params...>/<last>. The last
// element is the column: an implementation (quire, tcell, uv, glamour)
// when the suite has a Subject, otherwise a parameter such as a size.
// Everything before it is the row.
type Suite struct {
	Name string
	// Subject is the implementation the ratios describe; empty when the
	// columns are parameters rather than implementations.
	Subject string
	// Peers are the implementations Subject is divided by, in order.
	Peers []string
	// Metrics are the units to show, in order; nil shows every unit found.
	Metrics []Metric
	// GeoMean lists the units whose sections end with a geometric-mean
	// row under each ratio column.
	GeoMean []string
	// Targets are the suite's goals, each judged PASS or FAIL.
	Targets []Target
	// Dir is the package the benchmarks live in when it is not
	// bench/<Name>: a benchmark of unexported code sits beside it.
	Dir string
	// Bench is the -bench pattern used when none is given; empty runs
	// every benchmark of the package.
	Bench string
	// RatioCols are the (numerator, denominator) column pairs shown as
	// ratio columns when the columns are parameters; nil shows the largest
	// over the smallest of numeric columns.
	RatioCols [][2]string
}

// PackageDir is the folder whose benchmarks make up the suite.
func (s *Suite) PackageDir() string {
	if s.Dir != "" {
		return s.Dir
	}
	return "bench/" + s.Name
}

// Metric is a unit as the benchmark reports it and as the table labels it.
type Metric struct {
	Unit, Label string
}

// Target is one goal of a suite.
type Target struct {
	// Desc says the goal in words, as the table prints it.
	Desc string
	Eval func(t *Table) Verdict
}

// Verdict is a target's outcome on one table.
type Verdict struct {
	// Judged is false when the table holds no row the target applies to.
	Judged bool
	Pass   bool
	// Detail lists the rows that failed, or how many passed.
	Detail string
}

// Suites is the table of suites benchtable knows, one per bench/ folder.
//
// render (issue 2 §5): quire against tcell v2 and ultraviolet on the same
// logical frames. Its targets: bytes/frame at most 0.5× tcell and at most
// 1.0× ultraviolet on every workload, with the geometric mean at most
// 0.8× ultraviolet; ns/frame at most ultraviolet's; 0 allocs/frame in
// steady state for W1–W3; an unchanged frame writes 0 bytes. Two more
// hold the numbers to account: quire's output is what the VT oracle
// expects on every frame, and every frame is one synchronized update.
//
// markdown (issue 3 §5, issue 16): quire against glamour; streaming
// within 3× of a one-shot render, at least 100× cheaper per chunk than
// glamour re-rendering the whole answer, one-shot no slower than
// glamour's; and, on the generated answer, the stress answer and every
// document of the stress corpus, streaming within 4× of one-shot, growth
// of at most 12× per tenfold step from 500 to 50,000 lines, a p99 chunk
// under 1 ms (CPU time) at 50,000 lines, and the stream equal to the
// one-shot render after Finish. layout (issue 4 §5): columns
// are transcript sizes; frame cost at 100,000 blocks within 1.3× of 100.
// store: absolute numbers only. app (issue 8 §5): columns are the modes;
// p99 key-to-frame latency under 16 ms. sse (issue 15 §4): the SSE
// reader's cost per byte by event size (rows) and read size (columns);
// 1-byte reads within 3× of 4 KiB reads per byte, and (added) a cost
// linear in the event's size and one allocation per event. e2e (issue
// 17): the real binary in a pty beside the peer agent UIs that are
// installed; inline writes no more per chunk than full-screen and at most
// 0.7× Claude Code's 92 bytes, and either mode spends at most 0.4 ms of
// CPU per chunk.
func Suites() []*Suite {
	frameMetrics := []Metric{{"bytes/frame", "bytes/frame"}, {"ns/frame", "ns/frame"}, {"allocs/op", "allocs/frame"}}
	return []*Suite{
		{
			Name:    "render",
			Subject: "quire",
			Peers:   []string{"tcell", "uv"},
			Metrics: frameMetrics,
			GeoMean: []string{"bytes/frame", "ns/frame"},
			Targets: []Target{
				ratioAtMost("bytes/frame", "tcell", 0.5, nil),
				ratioAtMost("bytes/frame", "uv", 1.0, nil),
				geoMeanAtMost("bytes/frame", "uv", 0.8),
				ratioAtMost("ns/frame", "uv", 1.0, nil),
				valueAtMost("allocs/op", "allocs/frame", "quire", 0, rowPrefixes("W1", "W2", "W3"), "W1–W3"),
				valueAtMost("bytes/frame", "bytes/frame", "quire", 0, rowContains("/unchanged/"), "an unchanged frame"),
				valueAtMost(oracleBad, "frames the VT oracle found wrong", "quire", 0, nil, "every workload"),
				valueAtMost(oracleUnsynced, "frames not one synchronized update", "quire", 0, nil, "every workload"),
			},
		},
		{
			Name: "markdown", Subject: "quire", Peers: []string{"glamour"}, GeoMean: []string{"ns/op"},
			Metrics: []Metric{{"ns/op", "ns/op"}, {"cpu-ns/op", "cpu-ns/op"}, {"ns/chunk", "ns/chunk"},
				{"p99-cpu-ns/chunk", "p99-cpu-ns/chunk"}, {"chunks", "chunks"}, {"B/op", "B/op"}, {"allocs/op", "allocs/op"}},
			Targets: []Target{
				cellRatioAtMost("streaming total ≤ 3× one-shot (5,000 lines)", "cpu-ns/op",
					"MarkdownAnswer/Stream5000", "quire", "MarkdownAnswer/OneShot5000", "quire", 3),
				cellRatioAtMost("streaming total ≤ 3× one-shot (500 lines)", "cpu-ns/op",
					"MarkdownAnswer/Stream500", "quire", "MarkdownAnswer/OneShot500", "quire", 3),
				cellRatioAtMost("per chunk at least 100× faster than glamour re-rendering (5,000 lines)", "ns/chunk",
					"MarkdownAnswer/Stream5000", "quire", "MarkdownAnswer/Stream5000", "glamour", 0.01),
				ratioAtMost("cpu-ns/op", "glamour", 1.0, rowPrefixes("MarkdownAnswer/OneShot")),
				pairedRatioAtMost("streaming total ≤ 4× one-shot on every document", "cpu-ns/op", "quire", 4,
					[2]string{"MarkdownAnswer/Stream", "MarkdownAnswer/OneShot"},
					[2]string{"MarkdownStress/Stream", "MarkdownStress/OneShot"},
					[2]string{"MarkdownStressDoc/Stream/", "MarkdownStressDoc/OneShot/"}),
				cellRatioAtMost("growth from 500 to 5,000 lines ≤ 12×", "cpu-ns/op",
					"MarkdownAnswer/Stream5000", "quire", "MarkdownAnswer/Stream500", "quire", 12),
				cellRatioAtMost("growth from 5,000 to 50,000 lines ≤ 12×", "cpu-ns/op",
					"MarkdownAnswer/Stream50000", "quire", "MarkdownAnswer/Stream5000", "quire", 12),
				cellRatioAtMost("stress answer: growth from 500 to 5,000 lines ≤ 12×", "cpu-ns/op",
					"MarkdownStress/Stream5000", "quire", "MarkdownStress/Stream500", "quire", 12),
				cellRatioAtMost("stress answer: growth from 5,000 to 50,000 lines ≤ 12×", "cpu-ns/op",
					"MarkdownStress/Stream50000", "quire", "MarkdownStress/Stream5000", "quire", 12),
				valueAtMost("p99-cpu-ns/chunk", "p99 CPU ns per chunk", "quire", 1e6,
					rowPrefixes("MarkdownAnswer/Stream50000", "MarkdownStress/Stream50000"), "50,000 lines"),
				valueAtMost(oracleBad, "streams that differ from one-shot after Finish", "quire", 0, nil, "every stream"),
			},
		},
		{
			Name: "layout",
			Targets: []Target{
				cellRatioAtMost("frame cost streaming at the bottom: 100,000 blocks ≤ 1.3× 100 blocks", "cpu-ns/op",
					"LayoutStreamBottom", "100000", "LayoutStreamBottom", "100", 1.3),
				cellRatioAtMost("frame cost scrolling in the middle: 100,000 blocks ≤ 1.3× 100 blocks", "cpu-ns/op",
					"LayoutScrollMiddle", "100000", "LayoutScrollMiddle", "100", 1.3),
				cellRatioAtMost("(added) frame cost of subagent progress: 100,000 blocks ≤ 1.3× 100 blocks", "cpu-ns/op",
					"LayoutSubagentProgress", "100000", "LayoutSubagentProgress", "100", 1.3),
			},
		},
		{Name: "store", Subject: "quire"},
		{
			Name: "e2e", Subject: "quire", Peers: []string{"claude", "codex", "opencode", "qwen", "crush"},
			Metrics: []Metric{
				{"bytes/chunk", "bytes/chunk"}, {"cpu-ms/chunk", "CPU ms/chunk"}, {"cpu-s/answer", "CPU s/answer"},
				{"peak-RSS-MB", "peak RSS MB"}, {"ready-ms", "start to prompt ms"}, {"last-frame-ms", "last chunk to last frame ms"},
			},
			Targets: []Target{
				cellRatioAtMost("inline bytes/chunk ≤ full-screen's", "bytes/chunk",
					"Stream/inline", "quire", "Stream/fullscreen", "quire", 1),
				valueAtMost("bytes/chunk", "inline bytes/chunk ≤ 0.7× Claude Code's 92 measured in issue 17", "quire", 0.7*92, rowContains("/inline/"), "inline"),
				ratioAtMost("bytes/chunk", "claude", 0.7, rowContains("/inline/")),
				valueAtMost("cpu-ms/chunk", "CPU ms per chunk", "quire", 0.4, nil, "both modes"),
			},
		},
		{
			Name: "app",
			Targets: []Target{
				valueAtMost("p99-ms", "p99 key-to-frame ms under a 2,000 token/s stream", "fullscreen", 16, nil, "full-screen"),
				valueAtMost("p99-ms", "p99 key-to-frame ms under a 2,000 token/s stream", "inline", 16, nil, "inline"),
			},
		},
		{
			Name: "sse", Dir: "engine/llm", Bench: "^BenchmarkSSE",
			Metrics:   []Metric{{"cpu-ns/byte", "cpu-ns/byte"}, {"ns/byte", "ns/byte"}, {"allocs/op", "allocs/event"}},
			RatioCols: [][2]string{{"1B", "4KiB"}},
			Targets: []Target{
				colRatioAtMost("1-byte reads within 3× of 4 KiB reads per byte, every event size", "cpu-ns/byte",
					"1B", "4KiB", 3, rowPrefixes("SSERead/")),
				rowRatioAtMost("(added) linear in the event's size: per byte, a 1 MiB event ≤ 2× a 4 KiB one, every read size", "cpu-ns/byte",
					"SSERead/1MiB", "SSERead/4KiB", 2),
				everyValueAtMost("allocs/op", "(added) allocations per event", 1, rowPrefixes("SSERead/")),
			},
		},
	}
}

// SuiteNamed returns the suite called name, or nil.
func SuiteNamed(name string) *Suite {
	for _, s := range Suites() {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// cellRatioAtMost: the value of unit at (numRow, numCol) divided by the
// value at (denRow, denCol) is at most max; for targets that compare one
// workload with another (streaming with one-shot, a large transcript with a
// small one).
func cellRatioAtMost(desc, unit, numRow, numCol, denRow, denCol string, max float64) Target {
	return Target{
		Desc: fmt.Sprintf("%s (%s)", desc, unit),
		Eval: func(t *Table) Verdict {
			a, ok1 := t.Value(numRow, numCol, unit)
			b, ok2 := t.Value(denRow, denCol, unit)
			if !ok1 || !ok2 || b == 0 {
				return Verdict{}
			}
			r := a / b
			return Verdict{Judged: true, Pass: r <= max, Detail: fmt.Sprintf("%s %s ÷ %s %s = %s", numRow, numCol, denRow, denCol, formatRatio(r))}
		},
	}
}

// pairedRatioAtMost: for every row that starts with one of the pairs'
// first prefixes, the value of unit in column col divided by the value in
// the row named with the second prefix instead (the stream of a document
// over its one-shot render) is at most max.
func pairedRatioAtMost(desc, unit, col string, max float64, pairs ...[2]string) Target {
	return Target{
		Desc: fmt.Sprintf("%s (%s)", desc, unit),
		Eval: func(t *Table) Verdict {
			var failed []string
			judged := 0
			for _, row := range t.Rows {
				for _, p := range pairs {
					rest, ok := strings.CutPrefix(row, p[0])
					if !ok {
						continue
					}
					a, ok1 := t.Value(row, col, unit)
					b, ok2 := t.Value(p[1]+rest, col, unit)
					if !ok1 || !ok2 || b == 0 {
						continue
					}
					judged++
					if r := a / b; r > max {
						failed = append(failed, fmt.Sprintf("%s %s", row, formatRatio(r)))
					}
				}
			}
			return verdict(judged, failed)
		},
	}
}

// rowFilter selects the rows a target applies to; nil selects all.
type rowFilter func(row string) bool

func rowPrefixes(ps ...string) rowFilter {
	return func(row string) bool {
		for _, p := range ps {
			if strings.HasPrefix(row, p) {
				return true
			}
		}
		return false
	}
}

func rowContains(s string) rowFilter {
	return func(row string) bool { return strings.Contains(row+"/", s) }
}

// ratioAtMost: on every row where both have a value, subject/peer ≤ max.
func ratioAtMost(unit, peer string, max float64, rows rowFilter) Target {
	return Target{
		Desc: fmt.Sprintf("%s: quire ≤ %.1f× %s on every workload", unit, max, peer),
		Eval: func(t *Table) Verdict {
			var failed []string
			judged := 0
			for _, row := range t.Rows {
				if rows != nil && !rows(row) {
					continue
				}
				r, ok := t.Ratio(row, t.Suite.Subject, peer, unit)
				if !ok {
					continue
				}
				judged++
				if r > max {
					failed = append(failed, fmt.Sprintf("%s %s%s", row, formatRatio(r), cond(t.Wrong(row, peer), " (peer output wrong)", "")))
				}
			}
			return verdict(judged, failed)
		},
	}
}

// geoMeanAtMost: the geometric mean of subject/peer over all rows ≤ max.
func geoMeanAtMost(unit, peer string, max float64) Target {
	return Target{
		Desc: fmt.Sprintf("%s: geometric mean of quire/%s ≤ %.1f", unit, peer, max),
		Eval: func(t *Table) Verdict {
			g, n := t.GeoMean(t.Suite.Subject, peer, unit)
			if n == 0 {
				return Verdict{}
			}
			v := Verdict{Judged: true, Pass: g <= max, Detail: fmt.Sprintf("%s over %d rows", formatRatio(g), n)}
			return v
		},
	}
}

// valueAtMost: impl's value of unit ≤ max on every selected row.
func valueAtMost(unit, label, impl string, max float64, rows rowFilter, which string) Target {
	return Target{
		Desc: fmt.Sprintf("%s: %s ≤ %g on %s", label, impl, max, which),
		Eval: func(t *Table) Verdict {
			var failed []string
			judged := 0
			for _, row := range t.Rows {
				if rows != nil && !rows(row) {
					continue
				}
				v, ok := t.Value(row, impl, unit)
				if !ok {
					continue
				}
				judged++
				if v > max {
					failed = append(failed, fmt.Sprintf("%s %s", row, formatValue(v)))
				}
			}
			return verdict(judged, failed)
		},
	}
}

func verdict(judged int, failed []string) Verdict {
	if judged == 0 {
		return Verdict{}
	}
	if len(failed) == 0 {
		return Verdict{Judged: true, Pass: true, Detail: fmt.Sprintf("%d of %d rows", judged, judged)}
	}
	return Verdict{Judged: true, Detail: fmt.Sprintf("%d of %d rows fail: %s", len(failed), judged, strings.Join(failed, ", "))}
}

// geoMean is the geometric mean of xs (all > 0).
func geoMean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}

// colRatioAtMost: on every selected row, the value of unit in column num
// over its value in column den is at most max; for suites whose columns
// are parameters (a 1-byte read against a 4 KiB read).
func colRatioAtMost(desc, unit, num, den string, max float64, rows rowFilter) Target {
	return Target{
		Desc: fmt.Sprintf("%s (%s, %s/%s ≤ %g)", desc, unit, num, den, max),
		Eval: func(t *Table) Verdict {
			var failed, passed []string
			for _, row := range t.Rows {
				if rows != nil && !rows(row) {
					continue
				}
				r, ok := t.Ratio(row, num, den, unit)
				if !ok {
					continue
				}
				s := fmt.Sprintf("%s %s", row, formatRatio(r))
				if r > max {
					failed = append(failed, s)
				} else {
					passed = append(passed, s)
				}
			}
			return listVerdict(failed, passed)
		},
	}
}

// rowRatioAtMost: in every column, the value of unit on row num over its
// value on row den is at most max; for growth from one size to another.
func rowRatioAtMost(desc, unit, num, den string, max float64) Target {
	return Target{
		Desc: fmt.Sprintf("%s (%s)", desc, unit),
		Eval: func(t *Table) Verdict {
			var failed, passed []string
			for _, col := range t.Cols {
				a, ok1 := t.Value(num, col, unit)
				b, ok2 := t.Value(den, col, unit)
				if !ok1 || !ok2 || b == 0 {
					continue
				}
				s := fmt.Sprintf("%s %s", col, formatRatio(a/b))
				if a/b > max {
					failed = append(failed, s)
				} else {
					passed = append(passed, s)
				}
			}
			return listVerdict(failed, passed)
		},
	}
}

// everyValueAtMost: every cell of the selected rows has unit ≤ max.
func everyValueAtMost(unit, label string, max float64, rows rowFilter) Target {
	return Target{
		Desc: fmt.Sprintf("%s ≤ %g", label, max),
		Eval: func(t *Table) Verdict {
			var failed []string
			judged := 0
			for _, row := range t.Rows {
				if rows != nil && !rows(row) {
					continue
				}
				for _, col := range t.Cols {
					v, ok := t.Value(row, col, unit)
					if !ok {
						continue
					}
					judged++
					if v > max {
						failed = append(failed, fmt.Sprintf("%s/%s %s", row, col, formatValue(v)))
					}
				}
			}
			return verdict(judged, failed)
		},
	}
}

// listVerdict judges a target whose detail names every value it judged.
func listVerdict(failed, passed []string) Verdict {
	switch {
	case len(failed)+len(passed) == 0:
		return Verdict{}
	case len(failed) == 0:
		return Verdict{Judged: true, Pass: true, Detail: strings.Join(passed, ", ")}
	}
	return Verdict{Judged: true, Detail: fmt.Sprintf("%d of %d fail: %s", len(failed), len(failed)+len(passed), strings.Join(failed, ", "))}
}

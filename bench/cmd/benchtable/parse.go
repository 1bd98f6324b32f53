package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Result is one benchmark's measurements over its runs (go test -count):
// a timing is the median of its runs, anything else their mean. A run on
// a machine that something else disturbed only takes longer, so one such
// run moves a mean of three by a third of its excess and a median not at
// all (benchstat reports medians for the same reason); a count, such as
// the lines a stream got wrong, stays above zero in the mean when any
// run's was.
type Result struct {
	// Name is the benchmark's full name without the "Benchmark" prefix
	// and the GOMAXPROCS suffix, e.g. "W1StreamAppend/200x50/quire".
	Name string
	// Metrics maps a unit ("ns/op", "B/op", "allocs/op", or any unit
	// reported with b.ReportMetric, like "bytes/frame") to its value.
	Metrics map[string]float64
	// Runs is how many result lines were combined (go test -count).
	Runs int
	// Skipped is the reason the benchmark skipped itself, if it did.
	Skipped string
	// Logs are the lines the benchmark logged (b.Log), in order, once.
	Logs []string
	// Failed is set when go test reported the benchmark as failed.
	Failed bool
}

// Output is everything parsed from one go test run.
type Output struct {
	// Results in the order they first appeared.
	Results []*Result
	// Problems are lines that say the run went wrong: build failures,
	// panics, FAIL lines for packages.
	Problems []string
}

// Result returns the result named name, or nil.
func (o *Output) Result(name string) *Result {
	for _, r := range o.Results {
		if r.Name == name {
			return r
		}
	}
	return nil
}

func (o *Output) result(name string) *Result {
	if r := o.Result(name); r != nil {
		return r
	}
	r := &Result{Name: name, Metrics: map[string]float64{}}
	o.Results = append(o.Results, r)
	return r
}

// Parse reads the text `go test -bench` prints, with or without -v. It
// understands result lines ("BenchmarkX/y-8  100  123 ns/op  4.5
// bytes/frame ..."), the "--- SKIP/BENCH/FAIL: BenchmarkX" headers, and
// the indented log lines that follow a header (or, with -v, precede it,
// after the bare "BenchmarkX" line). Anything else is ignored, except for
// signs of a failed run, which are collected in Problems.
func Parse(r io.Reader) (*Output, error) {
	out := &Output{}
	runs := map[*Result]map[string][]float64{}
	var current *Result // the benchmark whose log lines follow its header
	var pending string  // with -v: the benchmark that just started
	var pendingLogs []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "Benchmark") && len(strings.Fields(line)) == 1:
			current, pending, pendingLogs = nil, benchName(trimmed), nil
		case strings.HasPrefix(line, "Benchmark"):
			current = nil
			name, metrics, ok := parseResultLine(line)
			if !ok {
				continue
			}
			r := out.result(name)
			if name == pending {
				r.addLogs(pendingLogs)
				pending, pendingLogs = "", nil
			}
			if runs[r] == nil {
				runs[r] = map[string][]float64{}
			}
			for unit, v := range metrics {
				runs[r][unit] = append(runs[r][unit], v)
			}
			r.Runs++
		case strings.HasPrefix(trimmed, "--- "):
			current = nil
			kind, rest, ok := strings.Cut(strings.TrimPrefix(trimmed, "--- "), ": ")
			if !ok || !strings.HasPrefix(rest, "Benchmark") {
				continue
			}
			name := benchName(strings.Fields(rest)[0])
			var logs []string
			if name == pending {
				logs = pendingLogs
				pending, pendingLogs = "", nil
			}
			switch kind {
			case "SKIP":
				current = out.result(name)
				current.Skipped = "skipped"
				if len(logs) > 0 {
					current.Skipped = logs[0]
				}
			case "BENCH":
				current = out.result(name)
			case "FAIL":
				current = out.result(name)
				current.Failed = true
			default:
				continue
			}
			current.addLogs(logs)
		case strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t"):
			msg := logMessage(trimmed)
			switch {
			case current != nil:
				if current.Skipped == "skipped" {
					current.Skipped = msg
				}
				current.addLogs([]string{msg})
			case pending != "":
				pendingLogs = append(pendingLogs, msg)
			}
		default:
			current = nil
			if isProblem(line) {
				out.Problems = append(out.Problems, line)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading benchmark output: %w", err)
	}
	for r, m := range runs {
		for unit, vs := range m {
			if isTiming(unit) {
				r.Metrics[unit] = median(vs)
			} else {
				r.Metrics[unit] = mean(vs)
			}
		}
	}
	return out, nil
}

// isTiming reports whether a unit measures time: its name has ns, ms or
// s as a word before a '/' or at its end ("ns/op", "cpu-ns/op",
// "p99-ms", "cpu-s/answer"), not after one ("events/s" is a rate).
func isTiming(unit string) bool {
	for _, w := range []string{"ns", "ms", "s"} {
		for i := 0; i+len(w) <= len(unit); i++ {
			if unit[i:i+len(w)] == w && (i == 0 || unit[i-1] == '-') &&
				(i+len(w) == len(unit) || unit[i+len(w)] == '/') {
				return true
			}
		}
	}
	return false
}

func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func mean(vs []float64) float64 {
	sum := 0.0
	for _, v := range vs {
		sum += v
	}
	return sum / float64(len(vs))
}

// addLogs appends the messages r has not logged yet; a benchmark function
// runs several times and logs the same lines each time.
func (r *Result) addLogs(msgs []string) {
	for _, m := range msgs {
		if !slices.Contains(r.Logs, m) {
			r.Logs = append(r.Logs, m)
		}
	}
}

// parseResultLine splits a result line into the benchmark's name and its
// value/unit pairs.
func parseResultLine(line string) (string, map[string]float64, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 {
		return "", nil, false
	}
	if _, err := strconv.ParseInt(f[1], 10, 64); err != nil {
		return "", nil, false
	}
	metrics := make(map[string]float64, (len(f)-2)/2)
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return "", nil, false
		}
		metrics[f[i+1]] = v
	}
	return benchName(f[0]), metrics, true
}

// benchName drops the "Benchmark" prefix and the "-N" GOMAXPROCS suffix
// that go test appends to the last element of a result line's name.
func benchName(s string) string {
	s = strings.TrimPrefix(s, "Benchmark")
	if i := strings.LastIndexByte(s, '-'); i > strings.LastIndexByte(s, '/') && i+1 < len(s) {
		if _, err := strconv.Atoi(s[i+1:]); err == nil {
			s = s[:i]
		}
	}
	return s
}

// logMessage drops the "file_test.go:123: " prefix of a b.Log line.
func logMessage(s string) string {
	if file, msg, ok := strings.Cut(s, ": "); ok && strings.Contains(file, ".go:") && !strings.Contains(file, " ") {
		return msg
	}
	return s
}

func isProblem(line string) bool {
	for _, p := range []string{"FAIL", "panic:", "# ", "--- FAIL", "build failed", "cannot find package", "no Go files"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Metrics bench/render reports about correctness rather than cost: how
// many frames the VT oracle checked, found wrong, and found not written
// as one synchronized update.
const (
	oracleFrames   = "oracle-frames"
	oracleBad      = "oracle-bad"
	oracleUnsynced = "oracle-unsynced"
)

// Table is a suite's results arranged as rows (workloads) by columns
// (implementations or parameters).
type Table struct {
	Suite *Suite
	Rows  []string
	Cols  []string
	cells map[[2]string]*Result
}

// Build arranges out's results for suite s.
func Build(s *Suite, out *Output) *Table {
	t := &Table{Suite: s, cells: map[[2]string]*Result{}}
	var found []string
	for _, r := range out.Results {
		i := strings.LastIndexByte(r.Name, '/')
		if i < 0 {
			continue // a benchmark without sub-benchmarks is not a row of this table
		}
		row, col := r.Name[:i], r.Name[i+1:]
		if !slices.Contains(t.Rows, row) {
			t.Rows = append(t.Rows, row)
		}
		if !slices.Contains(found, col) {
			found = append(found, col)
		}
		t.cells[[2]string{row, col}] = r
	}
	if s.Subject != "" {
		for _, c := range append([]string{s.Subject}, s.Peers...) {
			if slices.Contains(found, c) {
				t.Cols = append(t.Cols, c)
			}
		}
		for _, c := range found {
			if !slices.Contains(t.Cols, c) {
				t.Cols = append(t.Cols, c)
			}
		}
		return t
	}
	t.Cols = found
	if allNumeric(found) {
		slices.SortFunc(t.Cols, func(a, b string) int {
			x, _ := strconv.ParseFloat(a, 64)
			y, _ := strconv.ParseFloat(b, 64)
			return cmp.Compare(x, y)
		})
	}
	return t
}

func allNumeric(cols []string) bool {
	for _, c := range cols {
		if _, err := strconv.ParseFloat(c, 64); err != nil {
			return false
		}
	}
	return len(cols) > 0
}

// Result returns the result at (row, col), or nil.
func (t *Table) Result(row, col string) *Result { return t.cells[[2]string{row, col}] }

// Value is col's measurement of unit on row, if it ran and reported it.
func (t *Table) Value(row, col, unit string) (float64, bool) {
	r := t.Result(row, col)
	if r == nil || r.Skipped != "" || r.Failed || r.Runs == 0 {
		return 0, false
	}
	v, ok := r.Metrics[unit]
	return v, ok
}

// Wrong reports whether the oracle found col's output on row wrong.
func (t *Table) Wrong(row, col string) bool {
	v, ok := t.Value(row, col, oracleBad)
	return ok && v > 0
}

// Ratio is num's value over den's on row. A zero numerator is a ratio of
// 0 whatever the denominator (nothing beats writing nothing); a zero
// denominator under a non-zero numerator is +Inf.
func (t *Table) Ratio(row, num, den, unit string) (float64, bool) {
	a, ok1 := t.Value(row, num, unit)
	b, ok2 := t.Value(row, den, unit)
	if !ok1 || !ok2 {
		return 0, false
	}
	switch {
	case a == 0:
		return 0, true
	case b == 0:
		return math.Inf(1), true
	}
	return a / b, true
}

// GeoMean is the geometric mean of num/den over the rows where both are
// positive, and the number of those rows. Rows where either is zero (an
// unchanged frame) have no meaningful ratio and are left out.
func (t *Table) GeoMean(num, den, unit string) (float64, int) {
	var rs []float64
	for _, row := range t.Rows {
		a, ok1 := t.Value(row, num, unit)
		b, ok2 := t.Value(row, den, unit)
		if ok1 && ok2 && a > 0 && b > 0 {
			rs = append(rs, a/b)
		}
	}
	if len(rs) == 0 {
		return 0, 0
	}
	return geoMean(rs), len(rs)
}

// ratioCols are the (numerator, denominator) pairs shown as ratio
// columns: subject over each peer, the suite's RatioCols, or, when the
// columns are sizes, the largest over the smallest.
func (t *Table) ratioCols() [][2]string {
	var rc [][2]string
	if t.Suite.Subject != "" {
		if !slices.Contains(t.Cols, t.Suite.Subject) {
			return nil
		}
		for _, p := range t.Cols {
			if p != t.Suite.Subject {
				rc = append(rc, [2]string{t.Suite.Subject, p})
			}
		}
		return rc
	}
	if t.Suite.RatioCols != nil {
		for _, r := range t.Suite.RatioCols {
			if slices.Contains(t.Cols, r[0]) && slices.Contains(t.Cols, r[1]) {
				rc = append(rc, r)
			}
		}
		return rc
	}
	if len(t.Cols) >= 2 && allNumeric(t.Cols) {
		rc = append(rc, [2]string{t.Cols[len(t.Cols)-1], t.Cols[0]})
	}
	return rc
}

// metrics are the units shown: the suite's list, or every unit found in
// a stable order (ns/op, then custom units, then B/op and allocs/op).
func (t *Table) metrics() []Metric {
	if t.Suite.Metrics != nil {
		return t.Suite.Metrics
	}
	seen := map[string]bool{}
	for _, r := range t.cells {
		for u := range r.Metrics {
			seen[u] = true
		}
	}
	delete(seen, oracleBad)
	delete(seen, oracleFrames)
	delete(seen, oracleUnsynced)
	var custom []string
	for u := range seen {
		if u != "ns/op" && u != "B/op" && u != "allocs/op" {
			custom = append(custom, u)
		}
	}
	slices.Sort(custom)
	var ms []Metric
	for _, u := range append(append([]string{"ns/op"}, custom...), "B/op", "allocs/op") {
		if seen[u] {
			ms = append(ms, Metric{u, u})
		}
	}
	return ms
}

// Write prints the table: one section per metric, then the oracle's
// findings, the skipped cells, and the targets with PASS or FAIL.
func Write(w io.Writer, t *Table) error {
	p := &printer{w: w}
	if len(t.Rows) == 0 {
		p.linef("%s: no benchmark results", t.Suite.Name)
		return p.err
	}
	if len(t.Cols) == 1 {
		t.writeSingle(p)
	}
	rc := t.ratioCols()
	for _, m := range t.metrics() {
		if len(t.Cols) == 1 {
			break
		}
		p.linef("%s · %s", t.Suite.Name, m.Label)
		head := append([]string{"workload"}, t.Cols...)
		for _, r := range rc {
			head = append(head, r[0]+"/"+r[1])
		}
		grid := [][]string{head}
		for _, row := range t.Rows {
			line := []string{row}
			for _, c := range t.Cols {
				line = append(line, t.cellText(row, c, m.Unit))
			}
			for _, r := range rc {
				line = append(line, t.ratioText(row, r, m.Unit))
			}
			grid = append(grid, line)
		}
		if slices.Contains(t.Suite.GeoMean, m.Unit) && len(rc) > 0 {
			line := []string{"geometric mean"}
			for range t.Cols {
				line = append(line, "")
			}
			for _, r := range rc {
				g, n := t.GeoMean(r[0], r[1], m.Unit)
				line = append(line, cond(n > 0, formatRatio(g), "—"))
			}
			grid = append(grid, line)
		}
		p.grid(grid)
		p.linef("")
	}
	t.writeNotes(p)
	t.writeTargets(p)
	return p.err
}

// writeSingle prints a table with one column (one implementation, no
// peers) as one grid: a row per workload, a column per metric.
func (t *Table) writeSingle(p *printer) {
	col := t.Cols[0]
	ms := t.metrics()
	p.linef("%s · %s", t.Suite.Name, col)
	head := []string{"workload"}
	for _, m := range ms {
		head = append(head, m.Label)
	}
	grid := [][]string{head}
	for _, row := range t.Rows {
		line := []string{row}
		for _, m := range ms {
			line = append(line, t.cellText(row, col, m.Unit))
		}
		grid = append(grid, line)
	}
	p.grid(grid)
	p.linef("")
}

func (t *Table) cellText(row, col, unit string) string {
	r := t.Result(row, col)
	switch {
	case r == nil:
		return "—"
	case r.Skipped != "":
		return "n/a"
	case r.Failed:
		return "FAIL"
	}
	v, ok := r.Metrics[unit]
	if !ok {
		return "—"
	}
	return formatValue(v) + cond(t.Wrong(row, col), "!", "")
}

func (t *Table) ratioText(row string, r [2]string, unit string) string {
	a, ok1 := t.Value(row, r[0], unit)
	b, ok2 := t.Value(row, r[1], unit)
	switch {
	case !ok1 || !ok2:
		return "—"
	case a == 0 && b == 0:
		return "0/0"
	}
	x, _ := t.Ratio(row, r[0], r[1], unit)
	return formatRatio(x)
}

func (t *Table) writeNotes(p *printer) {
	var wrong, unsynced, skipped, failed []string
	skipReasons := map[string][]string{} // "col: reason" -> rows
	for _, row := range t.Rows {
		for _, c := range t.Cols {
			r := t.Result(row, c)
			switch {
			case r == nil:
			case r.Skipped != "":
				k := c + ": " + r.Skipped
				if skipReasons[k] == nil {
					skipped = append(skipped, k)
				}
				skipReasons[k] = append(skipReasons[k], row)
			case r.Failed:
				failed = append(failed, fmt.Sprintf("%s on %s: %s", c, row, strings.Join(r.Logs, "; ")))
			default:
				if t.Wrong(row, c) {
					wrong = append(wrong, fmt.Sprintf("%s on %s: %s", c, row, firstWith(r.Logs, "oracle:")))
				}
				if n, ok := t.Value(row, c, oracleUnsynced); ok && n > 0 {
					unsynced = append(unsynced, fmt.Sprintf("%s on %s: %s", c, row, firstWith(r.Logs, "sync:")))
				}
			}
		}
	}
	if len(wrong) > 0 {
		p.linef("! the VT oracle found this output wrong:")
		for _, s := range wrong {
			p.linef("  %s", truncate(s, 240))
		}
	}
	if len(unsynced) > 0 {
		p.linef("frames not written as one synchronized update:")
		for _, s := range unsynced {
			p.linef("  %s", truncate(s, 240))
		}
	}
	for _, k := range skipped {
		n := len(skipReasons[k])
		p.linef("n/a %s (%d %s)", k, n, cond(n == 1, "row", "rows"))
	}
	for _, s := range failed {
		p.linef("FAIL %s", truncate(s, 240))
	}
	if len(wrong)+len(unsynced)+len(skipped)+len(failed) > 0 {
		p.linef("")
	}
}

func (t *Table) writeTargets(p *printer) {
	if len(t.Suite.Targets) == 0 {
		return
	}
	p.linef("%s targets", t.Suite.Name)
	for _, tg := range t.Suite.Targets {
		v := tg.Eval(t)
		mark := "FAIL"
		switch {
		case !v.Judged:
			mark, v.Detail = "n/a ", "no rows to judge"
		case v.Pass:
			mark = "PASS"
		}
		p.linef("  %s  %s — %s", mark, tg.Desc, v.Detail)
	}
	p.linef("")
}

func firstWith(lines []string, substr string) string {
	for _, l := range lines {
		if strings.Contains(l, substr) {
			return l
		}
	}
	return strings.Join(lines, "; ")
}

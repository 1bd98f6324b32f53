package tools

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

// maxDiffEdits bounds the Myers search; larger rewrites are shown as one
// replacement hunk, which is still a correct diff, just not a minimal one.
const maxDiffEdits = 1000

// unifiedDiff renders the change from old to new as a unified diff with
// a/ and b/ headers; oldName or newName "" means the file did not exist
// (or no longer does). Equal inputs give "".
func unifiedDiff(oldName, newName, old, new string) string {
	if old == new && oldName != "" && newName != "" {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	ops := diffLines(a, b)
	var out strings.Builder
	from, to := "/dev/null", "/dev/null"
	if oldName != "" {
		from = "a/" + oldName
	}
	if newName != "" {
		to = "b/" + newName
	}
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	writeHunks(&out, ops, a, b)
	return out.String()
}

// splitLines splits s into lines, each keeping its "\n" (the last may
// lack one).
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type opKind byte

const (
	opEqual opKind = ' '
	opDel   opKind = '-'
	opIns   opKind = '+'
)

// diffOp is one line of the edit script: a line of a (equal or deleted)
// at ai, or of b (inserted) at bi.
type diffOp struct {
	kind   opKind
	ai, bi int
}

// diffLines computes an edit script from a to b: common prefix and
// suffix, then Myers' O(ND) algorithm on the middle.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for i := 0; i < pre; i++ {
		ops = append(ops, diffOp{opEqual, i, i})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for i := 0; i < suf; i++ {
		ops = append(ops, diffOp{opEqual, len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

func myers(a, b []string, aOff, bOff int) []diffOp {
	n, m := len(a), len(b)
	replaceAll := func() []diffOp {
		ops := make([]diffOp, 0, n+m)
		for i := range a {
			ops = append(ops, diffOp{opDel, aOff + i, bOff})
		}
		for j := range b {
			ops = append(ops, diffOp{opIns, aOff + n, bOff + j})
		}
		return ops
	}
	if n == 0 || m == 0 {
		return replaceAll()
	}
	maxD := min(n+m, maxDiffEdits)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
	}
	if found < 0 {
		return replaceAll()
	}
	// Walk the trace backwards from (n, m) to (0, 0).
	var rev []diffOp
	x, y := n, m
	for d := found; d > 0; d-- {
		vd := trace[d]
		k := x - y
		var prevK int
		if k == -d || k != d && vd[off+k-1] < vd[off+k+1] {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := vd[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, diffOp{opEqual, aOff + x, bOff + y})
		}
		if x == prevX {
			y--
			rev = append(rev, diffOp{opIns, aOff + x, bOff + y})
		} else {
			x--
			rev = append(rev, diffOp{opDel, aOff + x, bOff + y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, diffOp{opEqual, aOff + x, bOff + y})
	}
	ops := make([]diffOp, len(rev))
	for i, op := range rev {
		ops[len(rev)-1-i] = op
	}
	return ops
}

// writeHunks groups the edit script into hunks with diffContext lines of
// context and writes them.
func writeHunks(out *strings.Builder, ops []diffOp, a, b []string) {
	for i := 0; i < len(ops); {
		if ops[i].kind == opEqual {
			i++
			continue
		}
		start := max(0, i-diffContext)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != opEqual {
				end = j + 1
				continue
			}
			if j-end >= 2*diffContext {
				break
			}
		}
		end = min(len(ops), end+diffContext)
		writeHunk(out, ops[start:end], a, b)
		i = end
	}
}

func writeHunk(out *strings.Builder, ops []diffOp, a, b []string) {
	aStart, bStart := ops[0].ai, ops[0].bi
	aLen, bLen := 0, 0
	for _, op := range ops {
		if op.kind != opIns {
			aLen++
		}
		if op.kind != opDel {
			bLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, op := range ops {
		line := ""
		switch op.kind {
		case opIns:
			line = b[op.bi]
		default:
			line = a[op.ai]
		}
		out.WriteByte(byte(op.kind))
		out.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

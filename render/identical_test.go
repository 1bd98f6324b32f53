package render

import (
	"strings"
	"testing"
)

// identicalCells is only a shortcut: true means every cell is the same,
// and false (equal text at other addresses) leaves the row to the diff,
// which still finds nothing to write.
func TestIdenticalCellsIsAShortcutOnly(t *testing.T) {
	row := func(text string) []Cell {
		b := NewBuffer(8, 1)
		b.SetString(0, 0, text, Style{Fg: ANSI(2)}, "")
		return append([]Cell(nil), b.row(0)...)
	}
	a := row("ab é")
	if !identicalCells(a, append([]Cell(nil), a...)) {
		t.Fatal("a copy of a row is not identical")
	}
	// The same text built again: its graphemes live elsewhere.
	other := row(strings.Clone("ab é"))
	if !sameCells(a, other) {
		t.Fatal("the rows differ")
	}
	var e encoder
	e.width, e.height = 8, 1
	if n := e.encodeRow(0, a, other); n != 0 || len(e.buf) != 0 {
		t.Fatalf("equal rows at other addresses: %d cells, %q written", n, e.buf)
	}
	changed := row("ab è")
	if identicalCells(a, changed) || sameCells(a, changed) {
		t.Fatal("a changed row counts as identical")
	}
}

func sameCells(a, b []Cell) bool {
	for i := range a {
		if !a[i].same(&b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

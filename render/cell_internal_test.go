package render

import (
	"reflect"
	"testing"
)

// Cell.same stands in for == on the diff's hot path; a field added to
// Cell must be added to it too.
func TestCellSameComparesEveryField(t *testing.T) {
	if n := reflect.TypeFor[Cell]().NumField(); n != 4 {
		t.Fatalf("Cell has %d fields; Cell.same compares 4", n)
	}
	a := Cell{Grapheme: "a", Link: "l", Style: Style{Fg: ANSI(1), Bg: ANSI(2), Attrs: Bold}, kind: wideCell}
	for _, b := range []Cell{
		{Grapheme: "b", Link: "l", Style: a.Style, kind: wideCell},
		{Grapheme: "a", Link: "m", Style: a.Style, kind: wideCell},
		{Grapheme: "a", Link: "l", Style: Style{Fg: ANSI(1), Bg: ANSI(2)}, kind: wideCell},
		{Grapheme: "a", Link: "l", Style: a.Style, kind: narrowCell},
	} {
		if a.same(&b) != (a == b) {
			t.Errorf("same(%+v, %+v) = %v, == says %v", a, b, a.same(&b), a == b)
		}
	}
	if b := a; !a.same(&b) {
		t.Error("a cell is not the same as its copy")
	}
}

package render

import (
	"bytes"
	"unsafe"
)

// identicalCells reports whether a and b (of one length) hold the same
// bytes. A row a frame did not change is nearly always such a copy of the
// row before it (its graphemes are slices of the same cached strings), and
// one memory comparison settles it several times faster than comparing
// cell by cell. Equal bytes mean equal cells (the same string headers, the
// same style); unequal bytes prove nothing (equal strings at different
// addresses, padding), so false only sends the row to the cell-by-cell
// diff.
func identicalCells(a, b []Cell) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	n := len(a) * int(unsafe.Sizeof(Cell{}))
	return bytes.Equal(
		unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), n),
		unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), n),
	)
}

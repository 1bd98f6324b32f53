package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Number formatting and aligned printing for the tables.

func truncate(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func cond[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// formatValue prints a measurement with about three significant digits,
// never in exponent form.
func formatValue(v float64) string {
	switch a := math.Abs(v); {
	case v == 0:
		return "0"
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
}

func formatRatio(r float64) string {
	switch {
	case math.IsInf(r, 1):
		return "inf"
	case r == 0:
		return "0"
	case r < 0.001:
		return "<0.001"
	case r < 0.1:
		return strconv.FormatFloat(r, 'f', 3, 64)
	case r >= 100:
		return strconv.FormatFloat(r, 'f', 0, 64)
	}
	return strconv.FormatFloat(r, 'f', 2, 64)
}

// printer writes lines and aligned grids, keeping the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) linef(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
	}
}

// grid prints rows with the first column left-aligned and the rest
// right-aligned, two spaces apart.
func (p *printer) grid(rows [][]string) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("  " + pad + c)
			}
		}
		p.linef("%s", strings.TrimRight(b.String(), " "))
	}
}

package render

import "strconv"

// SGR is written as a transition from the terminal's current pen: only
// the attributes and colours that differ are sent, unless a reset
// followed by the whole new style is shorter.

// appendSGR appends the cheapest sequence that turns pen from into to.
func appendSGR(dst []byte, from, to Style) []byte {
	if from == to {
		return dst
	}
	var delta, reset [64]byte
	d := sgrDelta(delta[:0], from, to)
	r := sgrReset(reset[:0], to)
	p := d
	if len(r) < len(d) {
		p = r
	}
	dst = append(dst, '\x1b', '[')
	dst = append(dst, p...)
	return append(dst, 'm')
}

// sgrLen is len(appendSGR(nil, from, to)).
func sgrLen(from, to Style) int {
	if from == to {
		return 0
	}
	var delta, reset [64]byte
	return 3 + min(len(sgrDelta(delta[:0], from, to)), len(sgrReset(reset[:0], to)))
}

// sgrReset is the parameter list "reset, then set everything in to". The
// reset is an empty first parameter (it defaults to 0), so a plain reset
// is CSI m.
func sgrReset(p []byte, to Style) []byte {
	p = appendAttrsOn(p, to.Attrs)
	if to.Fg != DefaultColor {
		p = appendColor(p, to.Fg, true)
	}
	if to.Bg != DefaultColor {
		p = appendColor(p, to.Bg, false)
	}
	// Unless empty, p starts with ';': the separator after the empty
	// reset parameter.
	return p
}

// sgrDelta is the parameter list that changes only what differs.
func sgrDelta(p []byte, from, to Style) []byte {
	off := from.Attrs &^ to.Attrs
	on := to.Attrs &^ from.Attrs
	if off&(Bold|Dim) != 0 {
		p = appendParam(p, "22")
		on |= to.Attrs & (Bold | Dim) // 22 clears both; restore the survivor
	}
	if off&Italic != 0 {
		p = appendParam(p, "23")
	}
	if off&Underline != 0 {
		p = appendParam(p, "24")
	}
	if off&Reverse != 0 {
		p = appendParam(p, "27")
	}
	if off&Strikethrough != 0 {
		p = appendParam(p, "29")
	}
	p = appendAttrsOn(p, on)
	if from.Fg != to.Fg {
		p = appendColor(p, to.Fg, true)
	}
	if from.Bg != to.Bg {
		p = appendColor(p, to.Bg, false)
	}
	if len(p) > 0 && p[0] == ';' {
		p = p[1:]
	}
	return p
}

// appendParam appends ";"+v. Callers drop the leading ';' of a delta; in
// a reset list it separates the parameters from the empty reset.
func appendParam(p []byte, v string) []byte {
	p = append(p, ';')
	return append(p, v...)
}

func appendAttrsOn(p []byte, a Attr) []byte {
	if a&Bold != 0 {
		p = appendParam(p, "1")
	}
	if a&Dim != 0 {
		p = appendParam(p, "2")
	}
	if a&Italic != 0 {
		p = appendParam(p, "3")
	}
	if a&Underline != 0 {
		p = appendParam(p, "4")
	}
	if a&Reverse != 0 {
		p = appendParam(p, "7")
	}
	if a&Strikethrough != 0 {
		p = appendParam(p, "9")
	}
	return p
}

// appendColor appends ";" and the parameters selecting c as foreground
// (fg) or background.
func appendColor(p []byte, c Color, fg bool) []byte {
	base := 30
	if !fg {
		base = 40
	}
	p = append(p, ';')
	switch c.Kind() {
	case KindDefault:
		return strconv.AppendInt(p, int64(base+9), 10)
	case KindANSI:
		i := int(c.Index())
		if i < 8 {
			return strconv.AppendInt(p, int64(base+i), 10)
		}
		return strconv.AppendInt(p, int64(base+60+i-8), 10)
	case KindIndexed:
		p = strconv.AppendInt(p, int64(base+8), 10)
		p = append(p, ";5;"...)
		return strconv.AppendInt(p, int64(c.Index()), 10)
	}
	r, g, b := c.RGB()
	p = strconv.AppendInt(p, int64(base+8), 10)
	p = append(p, ";2;"...)
	p = strconv.AppendInt(p, int64(r), 10)
	p = append(p, ';')
	p = strconv.AppendInt(p, int64(g), 10)
	p = append(p, ';')
	return strconv.AppendInt(p, int64(b), 10)
}

package render

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

// sgrLen is len(appendSGR(nil, from, to)), counted without writing:
// the encoder prices many more transitions than it writes. The counting
// functions mirror the writing ones on purpose: one walk that writes or
// counts cost a W3 page scroll 17% more time. TestSGRLenMatchesWhatIsWritten
// keeps the two in step.
func sgrLen(from, to Style) int {
	if from == to {
		return 0
	}
	return 3 + min(sgrDeltaLen(from, to), sgrResetLen(to))
}

// sgrResetLen is len(sgrReset(nil, to)).
func sgrResetLen(to Style) int {
	n := attrsOnLen(to.Attrs)
	if to.Fg != DefaultColor {
		n += colorLen(to.Fg, true)
	}
	if to.Bg != DefaultColor {
		n += colorLen(to.Bg, false)
	}
	return n
}

// sgrDeltaLen is len(sgrDelta(nil, from, to)).
func sgrDeltaLen(from, to Style) int {
	off := from.Attrs &^ to.Attrs
	on := to.Attrs &^ from.Attrs
	n := 0
	if off&(Bold|Dim) != 0 {
		n += 3
		on |= to.Attrs & (Bold | Dim)
	}
	for _, c := range attrCodes {
		if off&c.attr != 0 && c.off != "" {
			n += 1 + len(c.off)
		}
	}
	n += attrsOnLen(on)
	if from.Fg != to.Fg {
		n += colorLen(to.Fg, true)
	}
	if from.Bg != to.Bg {
		n += colorLen(to.Bg, false)
	}
	if n > 0 {
		n-- // the leading ';'
	}
	return n
}

// attrsOnLen is len(appendAttrsOn(nil, a)): every code that sets an
// attribute is one digit, so it is ";N" per attribute set.
func attrsOnLen(a Attr) int {
	n := 0
	for a &= Bold | Dim | Italic | Underline | Reverse | Strikethrough; a != 0; a &= a - 1 {
		n += 2
	}
	return n
}

// colorLen is len(appendColor(nil, c, fg)).
func colorLen(c Color, fg bool) int {
	switch c.Kind() {
	case KindDefault:
		return 3
	case KindANSI:
		if c.Index() < 8 || fg {
			return 3 // 30–37, 90–97, 40–47
		}
		return 4 // 100–107
	case KindIndexed:
		return 6 + digits(int(c.Index()))
	}
	r, g, b := c.RGB()
	return 8 + digits(int(r)) + digits(int(g)) + digits(int(b))
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
	for _, c := range attrCodes {
		if off&c.attr != 0 && c.off != "" {
			p = appendParam(p, c.off)
		}
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
	for _, c := range attrCodes {
		if a&c.attr != 0 {
			p = appendParam(p, c.on)
		}
	}
	return p
}

// attrCodes are the SGR parameters that set each attribute and clear it
// alone; bold and dim have no clear of their own (22 clears both).
var attrCodes = [...]struct {
	attr    Attr
	on, off string
}{
	{Bold, "1", ""},
	{Dim, "2", ""},
	{Italic, "3", "23"},
	{Underline, "4", "24"},
	{Reverse, "7", "27"},
	{Strikethrough, "9", "29"},
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
		return appendSmall(p, base+9)
	case KindANSI:
		i := int(c.Index())
		if i < 8 {
			return appendSmall(p, base+i)
		}
		return appendSmall(p, base+60+i-8)
	case KindIndexed:
		p = appendSmall(p, base+8)
		p = append(p, ";5;"...)
		return appendSmall(p, int(c.Index()))
	}
	r, g, b := c.RGB()
	p = appendSmall(p, base+8)
	p = append(p, ";2;"...)
	p = appendSmall(p, int(r))
	p = append(p, ';')
	p = appendSmall(p, int(g))
	p = append(p, ';')
	return appendSmall(p, int(b))
}

// appendSmall appends n, which is below 1000, in decimal: every SGR
// parameter is, and this is the encoder's hottest number formatting.
func appendSmall(p []byte, n int) []byte {
	switch {
	case n >= 100:
		return append(p, byte('0'+n/100), byte('0'+n/10%10), byte('0'+n%10))
	case n >= 10:
		return append(p, byte('0'+n/10), byte('0'+n%10))
	}
	return append(p, byte('0'+n))
}

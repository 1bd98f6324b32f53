package render

// Styles carry colours at full fidelity; the encoder degrades them to the
// terminal's level only as it writes SGR, so one Line serves every
// terminal and a level change needs no re-render upstream.

// AdaptColor returns c as the terminal at level l can show it: RGB becomes
// the nearest 256-palette entry, palette entries above 15 the nearest of
// the 16 basic colours, and at ColorNone every colour is the default.
// Palette entries 0–15 are returned as basic colours at every level, since
// they are the same colours and the basic form is shorter on the wire.
func AdaptColor(c Color, l ColorLevel) Color {
	switch c.Kind() {
	case KindDefault:
		return c
	case KindANSI:
		if l == ColorNone {
			return DefaultColor
		}
		return c
	case KindIndexed:
		i := c.Index()
		switch {
		case l == ColorNone:
			return DefaultColor
		case i < 16:
			return ANSI(i)
		case l == Color16:
			r, g, b := paletteRGB(i)
			return ANSI(nearest16(r, g, b))
		}
		return c
	case KindRGB:
		r, g, b := c.RGB()
		switch l {
		case ColorNone:
			return DefaultColor
		case Color16:
			return ANSI(nearest16(r, g, b))
		case Color256:
			i := nearest256(r, g, b)
			if i < 16 {
				return ANSI(i)
			}
			return Indexed(i)
		}
		return c
	}
	return DefaultColor
}

// adaptStyle degrades both colours of st to level l.
func adaptStyle(st Style, l ColorLevel) Style {
	if l == ColorTrue && st.Fg.Kind() != KindIndexed && st.Bg.Kind() != KindIndexed {
		return st
	}
	st.Fg = AdaptColor(st.Fg, l)
	st.Bg = AdaptColor(st.Bg, l)
	return st
}

// basic16 is xterm's default rendering of the 16 basic colours.
var basic16 = [16][3]uint8{
	{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0},
	{0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
	{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0},
	{92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}

var cubeLevels = [6]uint8{0, 95, 135, 175, 215, 255}

// paletteRGB is the xterm default RGB of palette entry i.
func paletteRGB(i uint8) (r, g, b uint8) {
	switch {
	case i < 16:
		c := basic16[i]
		return c[0], c[1], c[2]
	case i < 232:
		i -= 16
		return cubeLevels[i/36], cubeLevels[i/6%6], cubeLevels[i%6]
	}
	v := 8 + 10*(i-232)
	return v, v, v
}

func dist(r1, g1, b1, r2, g2, b2 uint8) int {
	dr, dg, db := int(r1)-int(r2), int(g1)-int(g2), int(b1)-int(b2)
	// Weighted towards green the way the eye is (a cheap "redmean").
	return 2*dr*dr + 4*dg*dg + 3*db*db
}

func nearest16(r, g, b uint8) uint8 {
	best, bestD := uint8(0), int(^uint(0)>>1)
	for i, c := range basic16 {
		if d := dist(r, g, b, c[0], c[1], c[2]); d < bestD {
			best, bestD = uint8(i), d
		}
	}
	return best
}

func cubeIndex(v uint8) uint8 {
	switch {
	case v < 48:
		return 0
	case v < 115:
		return 1
	}
	return (v - 35) / 40
}

// nearest256 picks the closer of the nearest colour-cube entry and the
// nearest grey-ramp entry.
func nearest256(r, g, b uint8) uint8 {
	ri, gi, bi := cubeIndex(r), cubeIndex(g), cubeIndex(b)
	cube := 16 + 36*ri + 6*gi + bi
	cr, cg, cb := cubeLevels[ri], cubeLevels[gi], cubeLevels[bi]
	avg := (int(r) + int(g) + int(b)) / 3
	gi2 := 0
	if avg > 238 {
		gi2 = 23
	} else if avg > 8 {
		gi2 = (avg - 3) / 10
	}
	gv := uint8(8 + 10*gi2)
	if dist(r, g, b, gv, gv, gv) < dist(r, g, b, cr, cg, cb) {
		return uint8(232 + gi2)
	}
	return cube
}

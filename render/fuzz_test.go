package render_test

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/render/rendertest"
)

// fuzzOps reads drawing operations from fuzz input.
type fuzzOps struct{ data []byte }

func (f *fuzzOps) next() int {
	if len(f.data) == 0 {
		return 0
	}
	b := f.data[0]
	f.data = f.data[1:]
	return int(b)
}

func (f *fuzzOps) text() string {
	n := f.next() % 10
	var s string
	for range n {
		s += clusterPool[f.next()%len(clusterPool)]
	}
	return s
}

func (f *fuzzOps) style() render.Style {
	color := func() render.Color {
		switch f.next() % 4 {
		case 1:
			return render.ANSI(uint8(f.next()))
		case 2:
			return render.Indexed(uint8(f.next()))
		case 3:
			return render.RGB(uint8(f.next()), uint8(f.next()), uint8(f.next()))
		}
		return render.DefaultColor
	}
	return render.Style{Fg: color(), Bg: color(), Attrs: render.Attr(f.next() % 64)}
}

// FuzzScreen draws arbitrary frame sequences and checks that the screen a
// terminal shows always equals the frame, and that no erase escapes a
// bracket.
func FuzzScreen(f *testing.F) {
	f.Add([]byte{10, 4, 3, 0, 1, 5, 1, 2, 3, 4, 5, 9, 9, 0})
	f.Add([]byte{40, 10, 8, 2, 0, 0, 30, 12, 1, 200, 3, 7, 7, 7, 1, 4, 5, 6})
	f.Add(bytes.Repeat([]byte{3, 1, 4, 1, 5, 9, 2, 6}, 8))
	f.Fuzz(func(t *testing.T, data []byte) {
		ops := &fuzzOps{data}
		w, h := 1+ops.next()%40, 1+ops.next()%12
		level := render.ColorLevel(ops.next() % 4)
		o := rendertest.NewOracle(w, h)
		o.Colors = level
		s := render.NewScreen(o, w, h, render.Options{Colors: level, Hyperlinks: true})
		if ops.next()%2 == 1 {
			render.ForceDeferral(s)
		}
		want := render.NewBuffer(w, h)
		for frame := 0; len(ops.data) > 0 && frame < 16; frame++ {
			switch ops.next() % 8 {
			case 0:
				w, h = 1+ops.next()%40, 1+ops.next()%12
				o.Resize(w, h)
				s.Resize(w, h)
				want.Resize(w, h)
			case 1:
				top := ops.next() % h
				bottom := top + 1 + ops.next()%(h-top)
				n := ops.next()%(2*(bottom-top)+1) - (bottom - top)
				want.Shift(top, bottom, n)
				s.ScrollHint(top, bottom, n)
			}
			for range ops.next() % 6 {
				x, y := ops.next()%(w+2)-1, ops.next()%h
				switch ops.next() % 3 {
				case 0:
					want.SetString(x, y, ops.text(), ops.style(), urlPool[ops.next()%len(urlPool)])
				case 1:
					want.Fill(x, y, ops.next()%(w+1), ops.next()%(h+1), ops.style())
				case 2:
					want.SetString(x, y, ops.text(), ops.style(), "")
				}
			}
			cx, cy, vis := ops.next()%w, ops.next()%h, ops.next()%2 == 0
			s.SetCursor(cx, cy, vis)
			s.Back().CopyFrom(want)
			if _, err := s.Flush(); err != nil {
				t.Fatal(err)
			}
			if d := o.Diff(want); d != "" {
				t.Fatalf("frame %d:\n%s", frame, d)
			}
			if gx, gy, gvis := o.Cursor(); gvis != vis || vis && (gx != cx || gy != cy) {
				t.Fatalf("frame %d: cursor (%d,%d,%v), want (%d,%d,%v)", frame, gx, gy, gvis, cx, cy, vis)
			}
		}
		if err := rendertest.CheckSync(o.Stream()); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzUntrustedText draws arbitrary bytes (model or tool output) and
// checks that drawing never panics, that the columns used match
// StringWidth, and that the bytes written hold nothing but the
// renderer's own sequences and printable text: no control character from
// the input reaches the terminal.
func FuzzUntrustedText(f *testing.F) {
	f.Add("plain text", "https://x")
	f.Add("\x1b[2J\x1bc\x07\x9b31m\xff\xfe", "http://a\x1b]8;;\x07b")
	f.Add("e\u0301👨\u200d👩\u200d👧🇯🇵\t\r\n", "")
	f.Fuzz(func(t *testing.T, text, link string) {
		var out bytes.Buffer
		s := render.NewScreen(&out, 200, 2, render.Options{Colors: render.ColorTrue, Hyperlinks: true})
		used := s.Back().SetString(0, 0, text, render.Style{Attrs: render.Bold}, link)
		if sw := render.StringWidth(text); sw <= 200 && used > sw {
			t.Fatalf("used %d columns for width %d", used, sw)
		}
		if _, err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := onlyOwnSequences(out.Bytes()); err != "" {
			t.Fatalf("%s in %q", err, out.Bytes())
		}
	})
}

// onlyOwnSequences tokenizes a frame into the forms the encoder writes:
// CSI sequences, OSC 8 terminated by BEL, CR, LF, BS, ESC M, and valid
// UTF-8 text without controls.
func onlyOwnSequences(p []byte) string {
	for i := 0; i < len(p); {
		switch c := p[i]; {
		case c == 0x1b && i+1 < len(p) && p[i+1] == '[':
			j := i + 2
			for j < len(p) && p[j] >= 0x20 && p[j] < 0x40 {
				j++
			}
			if j >= len(p) || p[j] < 0x40 || p[j] > 0x7e {
				return "malformed CSI"
			}
			i = j + 1
		case c == 0x1b && i+1 < len(p) && p[i+1] == ']':
			j := bytes.IndexByte(p[i:], 0x07)
			if j < 0 || !bytes.HasPrefix(p[i:], []byte("\x1b]8;")) {
				return "unexpected OSC"
			}
			for _, b := range p[i+2 : i+j] {
				if b < 0x20 || b == 0x7f {
					return "control byte inside OSC 8"
				}
			}
			i += j + 1
		case c == 0x1b && i+1 < len(p) && p[i+1] == 'M':
			i += 2
		case c == '\r' || c == '\n' || c == '\b':
			i++
		case c < 0x20 || c == 0x7f:
			return "raw control byte"
		default:
			r, n := utf8.DecodeRune(p[i:])
			if r == utf8.RuneError && n == 1 {
				return "invalid UTF-8"
			}
			if r >= 0x80 && r < 0xa0 {
				return "C1 control"
			}
			i += n
		}
	}
	return ""
}

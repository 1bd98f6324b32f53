package rendertest

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/render"
)

// The oracle must catch every kind of difference it claims to check.
func TestOracleDiff(t *testing.T) {
	want := render.NewBuffer(6, 2)
	want.SetString(0, 0, "ab", render.Style{Fg: render.ANSI(1), Attrs: render.Bold}, "")
	want.SetString(0, 1, "コ", render.Style{}, "https://x")
	right := "\x1b[1;31mab\x1b[m\r\n\x1b]8;;https://x\aコ\x1b]8;;\a"
	for _, tc := range []struct {
		name, stream, complaint string
	}{
		{"exact", right, ""},
		{"wrong glyph", strings.Replace(right, "ab", "aX", 1), `want "b"`},
		{"wrong colour", strings.Replace(right, "31", "32", 1), "want style"},
		{"missing attribute", strings.Replace(right, "1;31", "31", 1), "want style"},
		{"missing link", strings.Replace(right, "https://x", "", 1), "want link"},
		{"narrow for wide", strings.Replace(right, "コ", "c", 1), "width"},
	} {
		o := NewOracle(6, 2)
		o.Write([]byte(tc.stream))
		d := o.Diff(want)
		if tc.complaint == "" && d != "" || tc.complaint != "" && !strings.Contains(d, tc.complaint) {
			t.Errorf("%s: diff %q, want it to mention %q", tc.name, d, tc.complaint)
		}
	}
}

func TestOracleBlankStyles(t *testing.T) {
	// A blank written in a bold red-on-blue pen looks like an erased cell
	// on blue: only what can be seen is compared.
	want := render.NewBuffer(2, 1)
	want.Fill(0, 0, 2, 1, render.Style{Bg: render.ANSI(4)})
	o := NewOracle(2, 1)
	o.Write([]byte("\x1b[1;31;44m \x1b[K"))
	if d := o.Diff(want); d != "" {
		t.Fatal(d)
	}
}

func TestOracleScrollback(t *testing.T) {
	o := NewOracle(5, 2)
	o.Write([]byte("one\r\ntwo\r\nthree"))
	if got := strings.Join(o.ScrollbackText(), "|"); got != "one" {
		t.Fatalf("scrollback %q", got)
	}
	if got := strings.Join(o.ScreenText(), "|"); got != "two|three" {
		t.Fatalf("screen %q", got)
	}
	if x, y, vis := o.Cursor(); x != 5 && x != 4 || y != 1 || !vis {
		t.Fatalf("cursor (%d,%d,%v)", x, y, vis)
	}
}

func TestScanSyncViolations(t *testing.T) {
	vs := ScanSync([]byte("x\x1b[2Jy\x1b[?2026h\x1b[3J\x1b[?2026l\x1b[K"))
	if len(vs) != 2 || vs[0].Offset != 1 || !strings.Contains(vs[1].String(), "erase outside") {
		t.Fatalf("violations %v", vs)
	}
	if err := CheckSync([]byte("\x1b[?2026h\x1b[2J\x1b[?2026l")); err != nil {
		t.Fatal(err)
	}
}

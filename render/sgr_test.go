package render

import (
	"testing"

	"pgregory.net/rapid"
)

// sgrLen counts what appendSGR writes without writing it; the two must
// never disagree, or the encoder prices one sequence and writes another.
func TestSGRLenMatchesWhatIsWritten(t *testing.T) {
	color := func(t *rapid.T, name string) Color {
		switch rapid.IntRange(0, 3).Draw(t, name+"kind") {
		case 1:
			return ANSI(uint8(rapid.IntRange(0, 15).Draw(t, name)))
		case 2:
			return Indexed(uint8(rapid.IntRange(0, 255).Draw(t, name)))
		case 3:
			v := rapid.Uint32Range(0, 0xffffff).Draw(t, name)
			return RGB(uint8(v>>16), uint8(v>>8), uint8(v))
		}
		return DefaultColor
	}
	style := func(t *rapid.T, name string) Style {
		return Style{Fg: color(t, name+"fg"), Bg: color(t, name+"bg"), Attrs: Attr(rapid.IntRange(0, 63).Draw(t, name+"attrs"))}
	}
	rapid.Check(t, func(t *rapid.T) {
		from, to := style(t, "from"), style(t, "to")
		if got, want := sgrLen(from, to), len(appendSGR(nil, from, to)); got != want {
			t.Fatalf("sgrLen(%v, %v) = %d, appendSGR writes %d bytes: %q", from, to, got, want, appendSGR(nil, from, to))
		}
	})
}

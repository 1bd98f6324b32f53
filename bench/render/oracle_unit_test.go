package renderbench

import (
	"strings"
	"testing"

	"github.com/quire-sh/quire/render"
)

// tinyScreen is a 12×2 full-screen workload of one frame: a red word, a
// link, and a wide character.
func tinyScreen() *Workload {
	b := newBuilder("Tiny/12x2", FullScreen, "")
	red := render.Style{Fg: render.ANSI(1)}
	rows := []*Row{
		b.row(12, render.Style{}, render.Span{Text: "ab", Style: red}, render.Span{Text: "界"}),
		b.row(12, render.Style{}, render.Span{Text: "go", Link: "https://go.dev"}),
	}
	b.w.Frames = []Frame{b.frame(12, 2, rows)}
	return b.done()
}

// underlinedBlank is a 4×1 full-screen workload of one frame: a red
// underlined blank between two letters.
func underlinedBlank() *Workload {
	b := newBuilder("Underline/4x1", FullScreen, "")
	red := render.Style{Fg: render.ANSI(1), Attrs: render.Underline}
	b.w.Frames = []Frame{b.frame(4, 1, []*Row{b.row(4, render.Style{}, render.Span{Text: "a"}, render.Span{Text: " ", Style: red}, render.Span{Text: "b"})})}
	return b.done()
}

func TestOracleFullScreen(t *testing.T) {
	const (
		row0 = "\x1b[H\x1b[31mab\x1b[m界"
		row1 = "\x1b[2;1H\x1b]8;;https://go.dev\x1b\\go\x1b]8;;\x1b\\"
	)
	tests := []struct {
		name, bytes, wantErr string
		w                    func() *Workload // tinyScreen when nil
	}{
		{"exact", row0 + row1, "", nil},
		{"wrong glyph", strings.Replace(row0, "ab", "ac", 1) + row1, `row 0 col 1: shows "c"`, nil},
		{"wrong colour", strings.Replace(row0, "31", "32", 1) + row1, "fg ansi2", nil},
		{"256-colour spelling of a basic colour is the same colour", strings.Replace(row0, "31", "38;5;1", 1) + row1, "", nil},
		{"link missing", row0 + "\x1b[2;1Hgo", `link ""`, nil},
		{"wide char as two narrow", strings.Replace(row0, "界", "xx", 1) + row1, `row 0 col 2: shows "x"`, nil},
		{"stale row", row0 + row1 + "\x1b[2;5Hzz", `row 1 col 4: shows "z"`, nil},
		{"invisible style on a blank is fine", row0 + row1 + "\x1b[2;10H\x1b[1;31m \x1b[m", "", nil},
		{"background on a blank is not", row0 + row1 + "\x1b[2;10H\x1b[41m \x1b[m", "bg ansi1", nil},
		// An underlined blank shows its foreground: the line is drawn in
		// it. (The bench's oracle once ignored the foreground of every
		// blank that was not reversed; it now judges cells with
		// rendertest.Visible, like every other test of the renderer.)
		{"the same underline on a blank", "\x1b[Ha\x1b[4;31m \x1b[mb", "", underlinedBlank},
		{"the 256-colour spelling of that underline", "\x1b[Ha\x1b[4;38;5;1m \x1b[mb", "", underlinedBlank},
		{"an underline of another colour on a blank", "\x1b[Ha\x1b[4;32m \x1b[mb", "fg ansi2", underlinedBlank},
		{"no underline on a blank", "\x1b[Ha\x1b[31m \x1b[mb", "attrs 000000", underlinedBlank},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := tinyScreen()
			if tt.w != nil {
				w = tt.w()
			}
			o := NewOracle(w)
			o.Write([]byte(tt.bytes))
			err := o.Check(&w.Frames[0])
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Fatalf("oracle accepted a wrong screen")
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Fatalf("error %q does not mention %q", err, tt.wantErr)
			}
		})
	}
}

func TestOracleInline(t *testing.T) {
	b := newBuilder("Tiny/8x3", Inline, "")
	live := b.row(8, render.Style{}, render.Span{Text: "> "})
	f := b.frame(8, 3, []*Row{live})
	f.Insert = []*Row{
		b.row(8, render.Style{}, render.Span{Text: "one"}),
		b.row(8, render.Style{}, render.Span{Text: "two"}),
		b.row(8, render.Style{}, render.Span{Text: "three"}),
	}
	b.w.Frames = []Frame{f}
	w := b.done()
	tests := []struct {
		name, bytes, wantErr string
	}{
		{"every line once, live region last", "one\r\ntwo\r\nthree\r\n> ", ""},
		{"a line duplicated", "one\r\none\r\ntwo\r\nthree\r\n> ", "history line 1"},
		{"a line lost", "one\r\nthree\r\n> ", "history line 1"},
		{"a blank line pushed into scrollback", "\r\none\r\ntwo\r\nthree\r\n> ", "history line 0"},
		{"extra line after the live region", "one\r\ntwo\r\nthree\r\n> \r\nx", "lost or duplicated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := NewOracle(w)
			o.Write([]byte(tt.bytes))
			err := o.Check(&w.Frames[0])
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Fatalf("oracle accepted a wrong transcript")
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Fatalf("error %q does not mention %q", err, tt.wantErr)
			}
		})
	}
}

func TestOracleSynced(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   bool
	}{
		{"nothing written", nil, true},
		{"one bracketed write", []string{syncBegin + "x" + syncEnd}, true},
		{"bracket split over writes", []string{syncBegin + "x", syncEnd}, true},
		{"no bracket", []string{"x"}, false},
		{"clear before the bracket", []string{"\x1b[2J" + syncBegin + "x" + syncEnd}, false},
		{"lines after the bracket", []string{syncBegin + "x" + syncEnd, "y"}, false},
		{"two updates in one frame", []string{syncBegin + "x" + syncEnd + syncBegin + "y" + syncEnd}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := NewOracle(tinyScreen())
			for _, w := range tt.writes {
				o.Write([]byte(w))
			}
			if got := o.Synced(); got != tt.want {
				t.Errorf("Synced() = %v, want %v", got, tt.want)
			}
			if !o.Synced() {
				t.Error("Synced() did not forget the frame's bytes")
			}
		})
	}
}

package renderbench

import "testing"

func TestEscapes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Escapes
	}{
		{"plain text", "hello", Escapes{}},
		{"moves", "\x1b[3;4H\x1b[2A\x1b[5G\x1b[7d\r\n\b\t\x1bM", Escapes{Moves: 9}},
		{"sgr and private modes", "\x1b[1;38;2;1;2;3m\x1b[?2026h\x1b[m", Escapes{SGR: 2}},
		{"erase, clear, scroll, edit", "\x1b[K\x1b[5X\x1b[2J\x1b[2;20r\x1b[3S\x1b[T\x1b[4L\x1b[2@\x1b[3P\x1b[9b", Escapes{Erases: 2, Clears: 1, Scrolls: 4, Edits: 3}},
		{"links with ST and BEL", "\x1b]8;id=1;http://x\x1b\\go\x1b]8;;\x07\x1b]0;title\x07", Escapes{Links: 2}},
		{"truncated sequences", "\x1b[12", Escapes{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e Escapes
			e.Add([]byte(tt.in))
			if e != tt.want {
				t.Errorf("got %+v, want %+v", e, tt.want)
			}
		})
	}
}

// FuzzEscapes: any byte stream is counted without panicking, and never
// as more sequences than it has bytes.
func FuzzEscapes(f *testing.F) {
	f.Add([]byte("\x1b[3;4H\x1b[1m\x1b]8;id=1;u\x1b\\x\x1b]8;;\x07\x1b[K\r\n"))
	f.Add([]byte("\x1b]8;"))
	f.Add([]byte("\x1b"))
	f.Fuzz(func(t *testing.T, p []byte) {
		var whole Escapes
		whole.Add(p)
		total := whole.Moves + whole.SGR + whole.Erases + whole.Clears + whole.Scrolls + whole.Edits + whole.Links
		if total > len(p) {
			t.Fatalf("%d sequences in %d bytes", total, len(p))
		}
	})
}

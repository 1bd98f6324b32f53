package term

import (
	"strings"
	"testing"
)

func TestEncodeOSC52(t *testing.T) {
	tests := []struct {
		name string
		caps Caps
		text string
		want string
	}{
		{"plain", Caps{}, "hi", "\x1b]52;c;aGk=\x07"},
		{"tmux envelope doubles ESC", Caps{Multiplexer: "tmux"}, "hi", "\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\"},
		{"editor terminal inside tmux is not wrapped", Caps{Multiplexer: "tmux", EmbeddedEditor: true}, "hi", "\x1b]52;c;aGk=\x07"},
		{"screen chunks", Caps{Multiplexer: "screen"}, "hi", "\x1bP\x1b]52;c;aGk=\x07\x1b\\"},
		{"zellij passes plain", Caps{Multiplexer: "zellij"}, "hi", "\x1b]52;c;aGk=\x07"},
		{"utf-8", Caps{}, "é", "\x1b]52;c;w6k=\x07"},
		{"empty clears", Caps{}, "", "\x1b]52;c;\x07"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(EncodeOSC52(tt.text, tt.caps)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEncodeOSC52ScreenChunksReassemble(t *testing.T) {
	text := strings.Repeat("quire ", 100)
	got := string(EncodeOSC52(text, Caps{Multiplexer: "screen"}))
	var inner strings.Builder
	for _, part := range strings.Split(got, "\x1b\\") {
		if part == "" {
			continue
		}
		body, ok := strings.CutPrefix(part, "\x1bP")
		if !ok || len(body) > 76 {
			t.Fatalf("bad chunk %q", part)
		}
		inner.WriteString(body)
	}
	if want := string(EncodeOSC52(text, Caps{})); inner.String() != want {
		t.Errorf("chunks reassemble to %q, want %q", inner.String(), want)
	}
}

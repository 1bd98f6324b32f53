package render

import (
	"bytes"
	"testing"
)

func TestWriteLines(t *testing.T) {
	lines := []Line{
		{Spans: []Span{{Text: "bold", Style: Style{Fg: RGB(255, 0, 0), Attrs: Bold}}, {Text: " plain"}}},
		{Spans: []Span{{Text: "site", Link: "https://example.com/\x1b]52"}}},
		{Spans: []Span{{Text: "evil\x1b[2Jtext"}}},
	}
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"no colour keeps attributes, drops links", Options{Colors: ColorNone},
			"\x1b[1mbold\x1b[m plain\nsite\nevil␛[2Jtext\n"},
		{"16 colours and links", Options{Colors: Color16, Hyperlinks: true},
			"\x1b[1;91mbold\x1b[m plain\n\x1b]8;id=1;https://example.com/]52\asite\x1b]8;;\a\nevil␛[2Jtext\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteLines(&b, lines, tt.opts); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

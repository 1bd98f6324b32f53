package render_test

import (
	"testing"

	"github.com/rivo/uniseg"
	"pgregory.net/rapid"

	"github.com/quire-sh/quire/render"
)

func TestExpandTabs(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"no tabs", 4, "no tabs"},
		{"\tx", 4, "    x"},
		{"ab\tc", 4, "ab  c"},
		{"abcd\te", 4, "abcd    e"},
		{"\t\tx", 4, "        x"},
		{"a\tb", 8, "a       b"},
		// A rune counts one column, whatever its width on screen.
		{"é\tx", 4, "é   x"},
		{"界\tx", 4, "界   x"},
	}
	for _, tt := range tests {
		if got := render.ExpandTabs(tt.in, tt.width); got != tt.want {
			t.Errorf("ExpandTabs(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
	}
}

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "",
		"ls -la":            "ls -la",
		"go test ./...\nrm": "go test ./... …",
		"a\n":               "a …",
		"\nhidden":          " …",
	} {
		if got := render.FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStringWidthCountsClustersAsUnisegDoes pins StringWidth's ASCII fast
// path to the segmenter: for text mixing ASCII with clusters that join
// onto what precedes them (combining marks, ZWJ, variation selectors,
// skin tones, flags) and controls, it is uniseg's width of the sanitized
// text.
func TestStringWidthCountsClustersAsUnisegDoes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := []string{"a", "Z", " ", "#", "1", "*", "\u0301", "\u200d", "\ufe0f", "🏽", "🇯", "🇵", "字", "😀", "❤", "\x1b", "\t", "\r\n", "\x7f", "\xff", "क", "\u094d", "ก", "\u0e33"}
		s := ""
		for range rapid.IntRange(0, 16).Draw(t, "n") {
			s += rapid.SampledFrom(parts).Draw(t, "part")
		}
		if got, want := render.StringWidth(s), uniseg.StringWidth(render.Sanitize(s)); got != want {
			t.Fatalf("StringWidth(%q) = %d, uniseg counts %d", s, got, want)
		}
	})
}

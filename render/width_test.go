package render_test

import (
	"testing"

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

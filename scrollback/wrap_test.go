package scrollback

import (
	"slices"
	"strings"
	"testing"

	"github.com/quire-sh/quire/render"
	"pgregory.net/rapid"
)

func lineTexts(ls []render.Line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.Text()
	}
	return out
}

func TestWrapperExamples(t *testing.T) {
	tests := []struct {
		name  string
		opt   WrapOptions
		in    string
		want  []string
		joins []render.Join
	}{
		{"fits", WrapOptions{Width: 10, Words: true}, "hello", []string{"hello"}, []render.Join{render.JoinNewline}},
		{"word break", WrapOptions{Width: 10, Words: true}, "hello brave new world", []string{"hello", "brave new", "world"}, []render.Join{render.JoinNewline, render.JoinSpace, render.JoinSpace}},
		{"long word", WrapOptions{Width: 4, Words: true}, "abcdefghij", []string{"abcd", "efgh", "ij"}, []render.Join{render.JoinNewline, render.JoinNone, render.JoinNone}},
		{"indent kept", WrapOptions{Width: 20, Words: true}, "  x := 1\n\n\tgo", []string{"  x := 1", "", "        go"}, nil},
		{"trailing newline", WrapOptions{Width: 20}, "a\nb\n", []string{"a", "b"}, nil},
		{"char wrap", WrapOptions{Width: 3}, "abc def", []string{"abc", " de", "f"}, []render.Join{render.JoinNewline, render.JoinNone, render.JoinNone}},
		{"wide", WrapOptions{Width: 5}, "世界世界", []string{"世界", "世界"}, nil},
		{"crlf", WrapOptions{Width: 10}, "a\r\nb\rc", []string{"a", "b", "c"}, nil},
		{"escapes stripped", WrapOptions{Width: 20, StripEscapes: true}, "\x1b[31mred\x1b[0m \x1b]0;title\x07ok", []string{"red ok"}, nil},
		{"controls visible", WrapOptions{Width: 20}, "a\x1bb", []string{"a␛b"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := NewWrapper(tt.opt)
			w.Append(tt.in)
			w.Finish()
			if got := lineTexts(w.Lines()); !slices.Equal(got, tt.want) {
				t.Fatalf("lines = %q, want %q", got, tt.want)
			}
			if tt.joins != nil {
				for i, j := range tt.joins {
					if got := w.Lines()[i].Copy.Join; got != j {
						t.Fatalf("line %d joins with %d, want %d", i, got, j)
					}
				}
			}
			if w.Frozen() != len(w.Lines()) {
				t.Fatalf("finished wrapper froze %d of %d lines", w.Frozen(), len(w.Lines()))
			}
		})
	}
}

// TestWrapperStreamingEqualsOneShot splits random text at random points
// and checks the result equals wrapping it at once, that frozen lines
// never change while streaming, and that no line is wider than the width
// (unless it is one cluster wider than the whole width).
func TestWrapperStreamingEqualsOneShot(t *testing.T) {
	alphabet := []string{"a", "b", "cd", " ", " ", "\n", "\t", "é", "世", "\r", "\x1b[1m", "🙂"}
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 60).Draw(t, "parts")
		src := strings.Join(parts, "")
		opt := WrapOptions{Width: rapid.IntRange(1, 12).Draw(t, "width"), Words: rapid.Bool().Draw(t, "words"), StripEscapes: rapid.Bool().Draw(t, "strip")}

		one := NewWrapper(opt)
		one.Append(src)
		one.Finish()

		stream := NewWrapper(opt)
		var frozen []string
		for rest := src; rest != ""; {
			n := rapid.IntRange(1, len(rest)).Draw(t, "chunk")
			stream.Append(rest[:n])
			rest = rest[n:]
			got := lineTexts(stream.Lines())
			if !slices.Equal(got[:min(len(frozen), len(got))], frozen) || len(got) < len(frozen) {
				t.Fatalf("frozen lines changed: was %q, now %q", frozen, got)
			}
			frozen = slices.Clone(got[:stream.Frozen()])
		}
		stream.Finish()
		if a, b := lineTexts(stream.Lines()), lineTexts(one.Lines()); !slices.Equal(a, b) {
			t.Fatalf("streamed %q, one-shot %q", a, b)
		}
		for _, l := range one.Lines() {
			if w := l.Width(); w > opt.Width && render.StringWidth(l.Text()) > 2 {
				t.Fatalf("line %q is %d wide, width %d", l.Text(), w, opt.Width)
			}
		}
	})
}

func FuzzWrapper(f *testing.F) {
	f.Add("hello world\n\tx", 7, true)
	f.Add("\x1b]8;;http://x\x1b\\a\x1b[", 3, false)
	f.Fuzz(func(t *testing.T, s string, width int, words bool) {
		width = width%40 + 1
		if width < 1 {
			width = -width + 1
		}
		w := NewWrapper(WrapOptions{Width: width, Words: words, StripEscapes: true})
		w.Append(s)
		w.Finish()
		for _, l := range w.Lines() {
			if l.Width() > width && render.StringWidth(l.Text()) > 2 {
				t.Fatalf("line %q wider than %d", l.Text(), width)
			}
		}
	})
}

func FuzzRenderDiff(f *testing.F) {
	f.Add("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n", 20)
	f.Add("@@ -x,y +z @@\n+\t\x1b[31m", 3)
	th := DefaultTheme()
	f.Fuzz(func(t *testing.T, diff string, width int) {
		width = width%60 + 1
		if width < 1 {
			width = -width + 1
		}
		for _, l := range renderDiff(diff, width, &th) {
			if l.Width() > width && width > 8 {
				t.Fatalf("diff line %q wider than %d", l.Text(), width)
			}
		}
	})
}

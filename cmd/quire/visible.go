package main

import (
	"io"
	"strings"

	"golang.org/x/term"

	"github.com/quire-sh/quire/render"
)

// forTerminal returns f itself for a pipe or a file, and for a terminal a
// writer that draws control characters visibly (render.Sanitize, as the
// interactive view draws them), keeping newlines and tabs: text from the
// model reaches a terminal only that way, so an escape sequence in it can
// neither set the clipboard (OSC 52), retitle the window, nor clear the
// screen.
func forTerminal(w io.Writer) io.Writer {
	f, ok := w.(interface{ Fd() uintptr })
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return w
	}
	return visibleWriter{w}
}

// visibleWriter sanitizes every Write on its own, so each must be whole
// text (quire exec writes whole lines and the whole answer at once).
type visibleWriter struct{ w io.Writer }

func (v visibleWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(v.w, visible(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// visible is render.Sanitize applied between newlines and tabs.
func visible(s string) string {
	if render.Sanitize(s) == s {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexAny(s, "\n\t")
		if i < 0 {
			b.WriteString(render.Sanitize(s))
			return b.String()
		}
		b.WriteString(render.Sanitize(s[:i]))
		b.WriteByte(s[i])
		s = s[i+1:]
	}
}

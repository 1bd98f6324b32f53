package render

import (
	"fmt"
	"io"
)

// WriteLines prints lines as plain text with SGR styling and OSC 8 links
// (as opts allow), one "\n"-terminated line each, with no cursor movement,
// screen modes or synchronized-update brackets: output for a pipe, a file
// or `less -R`. Control characters in the text are drawn visibly, as on
// screen, and the pen and link are reset at the end of every line so each
// line stands alone.
func WriteLines(w io.Writer, lines []Line, opts Options) error {
	e := newEncoder(0, 0, opts)
	for _, l := range lines {
		for i := range l.Spans {
			sp := &l.Spans[i]
			if sp.Text == "" {
				continue
			}
			if e.links {
				e.setLink(CleanURL(sp.Link))
			}
			e.setPen(e.adapt(sp.Style))
			e.buf = append(e.buf, Sanitize(sp.Text)...)
		}
		e.setLink("")
		e.setPen(e.adapt(Style{}))
		e.buf = append(e.buf, '\n')
		if len(e.buf) >= 64*1024 {
			if _, err := w.Write(e.buf); err != nil {
				return fmt.Errorf("writing the transcript: %w", err)
			}
			e.buf = e.buf[:0]
		}
	}
	if _, err := w.Write(e.buf); err != nil {
		return fmt.Errorf("writing the transcript: %w", err)
	}
	return nil
}

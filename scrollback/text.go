package scrollback

import (
	"fmt"
	"time"

	"github.com/quire-sh/quire/render"
	"github.com/rivo/uniseg"
)

// truncate cuts l to at most width columns, ending in "…" when it cut.
func truncate(l render.Line, width int) render.Line {
	if l.Width() <= width {
		return l
	}
	if width <= 0 {
		return render.Line{}
	}
	var out render.Line
	left := width - 1 // room for the ellipsis
	var last render.Style
	for _, sp := range l.Spans {
		last = sp.Style
		text := render.Sanitize(sp.Text)
		w := render.StringWidth(text)
		if w <= left {
			out.Spans = append(out.Spans, render.Span{Text: text, Style: sp.Style, Link: sp.Link})
			left -= w
			continue
		}
		cut, state := 0, -1
		for rest := text; rest != ""; {
			var cluster string
			var cw int
			cluster, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
			if cw > left {
				break
			}
			left -= cw
			cut += len(cluster)
		}
		if cut > 0 {
			out.Spans = append(out.Spans, render.Span{Text: text[:cut], Style: sp.Style, Link: sp.Link})
		}
		break
	}
	out.Spans = append(out.Spans, render.Span{Text: "…", Style: last})
	return out
}

// columnToByte maps a display column of s to the byte offset of the
// cluster that starts there (or len(s)).
func columnToByte(s string, col int) int {
	pos, c, state := 0, 0, -1
	for rest := s; rest != "" && c < col; {
		var cluster string
		var cw int
		cluster, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
		c += cw
		pos += len(cluster)
	}
	return pos
}

func formatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return ""
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	default:
		m := int(d / time.Minute)
		return fmt.Sprintf("%dm%02ds", m, int((d-time.Duration(m)*time.Minute)/time.Second))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

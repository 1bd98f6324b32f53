package markdown

import (
	"fmt"
	"sort"
	"strings"

	"github.com/quire-sh/quire/render"
)

func sortStrings(s []string) { sort.Strings(s) }

// annotate writes a line as text with compact style marks: «…» opens a
// style (B bold, D dim, I italic, U underline, R reverse, S strike,
// #rrggbb foreground, /#rrggbb background, ->url link) and «» returns to
// the default. Text is quoted only where it holds control pictures.
func annotate(l render.Line) string {
	var b strings.Builder
	cur := render.Span{}
	for _, s := range l.Spans {
		if s.Style != cur.Style || s.Link != cur.Link {
			b.WriteString("«" + styleCode(s.Style, s.Link) + "»")
			cur = s
		}
		b.WriteString(s.Text)
	}
	if cur.Style != (render.Style{}) || cur.Link != "" {
		b.WriteString("«»")
	}
	return b.String()
}

func styleCode(st render.Style, link string) string {
	var parts []string
	attrs := ""
	for i, c := range "BDIURS" {
		if st.Attrs&(1<<i) != 0 {
			attrs += string(c)
		}
	}
	if attrs != "" {
		parts = append(parts, attrs)
	}
	if st.Fg != render.DefaultColor {
		parts = append(parts, colorCode(st.Fg))
	}
	if st.Bg != render.DefaultColor {
		parts = append(parts, "/"+colorCode(st.Bg))
	}
	if link != "" {
		parts = append(parts, "->"+link)
	}
	return strings.Join(parts, " ")
}

func colorCode(c render.Color) string {
	switch c.Kind() {
	case render.KindRGB:
		r, g, b := c.RGB()
		return fmt.Sprintf("#%02x%02x%02x", r, g, b)
	case render.KindIndexed:
		return fmt.Sprintf("i%d", c.Index())
	case render.KindANSI:
		return fmt.Sprintf("a%d", c.Index())
	}
	return "default"
}

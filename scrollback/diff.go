package scrollback

import (
	"strconv"
	"strings"

	"github.com/quire-sh/quire/render"
)

// renderDiff lays out a unified diff with line numbers: additions and
// context carry their new line number, deletions their old one. File
// headers are dropped (the tool header names the file); hunk headers are
// kept, dimmed. Long lines wrap under their own number column.
func renderDiff(diff string, width int, th *Theme) []render.Line {
	type row struct {
		num   int // 0: no number
		sign  byte
		text  string
		style render.Style
	}
	var rows []row
	oldN, newN, maxN := 0, 0, 0
	for _, l := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		l = strings.TrimSuffix(l, "\r")
		k := diffKindOf(l)
		style := th.diffStyle(k)
		switch k {
		case diffHeader:
			continue
		case diffHunk:
			oldN, newN = parseHunk(l)
			rows = append(rows, row{sign: '@', text: l, style: style})
		case diffAdd:
			rows = append(rows, row{num: newN, sign: '+', text: l[1:], style: style})
			maxN = max(maxN, newN)
			newN++
		case diffDel:
			rows = append(rows, row{num: oldN, sign: '-', text: l[1:], style: style})
			maxN = max(maxN, oldN)
			oldN++
		case diffNote:
			rows = append(rows, row{sign: '\\', text: l, style: style})
		default:
			rows = append(rows, row{num: newN, sign: ' ', text: strings.TrimPrefix(l, " "), style: style})
			maxN = max(maxN, newN)
			oldN++
			newN++
		}
	}
	numW := len(strconv.Itoa(max(maxN, 1)))
	textW := max(width-numW-3, 1)
	var out []render.Line
	for _, r := range rows {
		if r.sign == '@' || r.sign == '\\' {
			l := truncate(render.Line{Spans: []render.Span{{Text: r.text, Style: r.style}}}, width)
			l.Copy = render.Copy{Skip: width, Lead: r.text} // whole, however it was cut to fit
			out = append(out, l)
			continue
		}
		num := strings.Repeat(" ", numW)
		if r.num > 0 {
			s := strconv.Itoa(r.num)
			num = strings.Repeat(" ", numW-len(s)) + s
		}
		w := NewWrapper(WrapOptions{Width: textW, Style: r.style, StripEscapes: true})
		w.Append(r.text)
		w.Finish()
		parts := w.Lines()
		if len(parts) == 0 {
			parts = []render.Line{{}}
		}
		for i, p := range parts {
			lead := num + " " + string(r.sign) + " "
			if i > 0 {
				lead = strings.Repeat(" ", numW+3)
			}
			spans := append([]render.Span{{Text: lead[:numW], Style: th.LineNumber}, {Text: lead[numW:], Style: r.style}}, p.Spans...)
			// A copy reads as the diff's own lines: the sign, then the
			// text, without the line numbers.
			cp := render.Copy{Join: p.Copy.Join, Skip: numW + 3}
			if i == 0 {
				cp.Lead = string(r.sign)
			}
			out = append(out, render.Line{Spans: spans, Copy: cp})
		}
	}
	return out
}

// diffKind is what a line of a unified diff is.
type diffKind uint8

const (
	diffContext diffKind = iota // unchanged, or not a diff line at all
	diffHeader                  // "--- a/x", "+++ b/x", "diff …", "index …"
	diffHunk                    // "@@ -a,b +c,d @@"
	diffAdd
	diffDel
	diffNote // "\ No newline at end of file"
)

func diffKindOf(l string) diffKind {
	switch {
	case strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "+++ "),
		strings.HasPrefix(l, "diff "), strings.HasPrefix(l, "index "):
		return diffHeader
	case strings.HasPrefix(l, "@@"):
		return diffHunk
	case strings.HasPrefix(l, "+"):
		return diffAdd
	case strings.HasPrefix(l, "-"):
		return diffDel
	case strings.HasPrefix(l, `\`):
		return diffNote
	}
	return diffContext
}

func (th *Theme) diffStyle(k diffKind) render.Style {
	switch k {
	case diffHeader:
		return th.DiffHeader
	case diffHunk:
		return th.DiffHunk
	case diffAdd:
		return th.DiffAdd
	case diffDel:
		return th.DiffDel
	case diffNote:
		return th.Muted
	}
	return th.Output
}

// DiffStyle is the style of l, one line of a unified diff. The transcript's
// diff blocks and the approval panel's preview both style their lines
// with it, so a diff looks the same when it is approved and once it is
// applied.
func (th *Theme) DiffStyle(l string) render.Style { return th.diffStyle(diffKindOf(l)) }

// parseHunk reads the starting old and new line numbers of "@@ -a,b +c,d @@".
func parseHunk(l string) (oldStart, newStart int) {
	f := strings.Fields(l)
	for _, x := range f {
		if len(x) > 1 && (x[0] == '-' || x[0] == '+') {
			n, _ := strconv.Atoi(strings.SplitN(x[1:], ",", 2)[0])
			if x[0] == '-' {
				oldStart = n
			} else {
				newStart = n
			}
		}
	}
	return oldStart, newStart
}

func itoa(n int) string { return strconv.Itoa(n) }

package markdown

import (
	"fmt"
	"strconv"
	"strings"
)

// A mermaid pie chart is drawn as what a terminal can show exactly: a
// bar per slice, as long as its share, with the share in per cent (and
// the value, with showData), under the chart's title.

type pieSlice struct {
	label string
	value float64
}

type pie struct {
	title    string
	showData bool
	slices   []pieSlice
}

func parsePie(src string) (*pie, bool) {
	lines, ok := diagramLines(src, "")
	if !ok {
		return nil, false
	}
	head := strings.Fields(lines[0])
	if head[0] != "pie" {
		return nil, false
	}
	p := &pie{}
	rest := strings.TrimSpace(strings.TrimPrefix(lines[0], "pie"))
	if r, ok := strings.CutPrefix(rest, "showData"); ok {
		p.showData, rest = true, strings.TrimSpace(r)
	}
	if t, ok := strings.CutPrefix(rest, "title"); ok {
		p.title = flowLabel(t)
	} else if rest != "" {
		return nil, false
	}
	for _, l := range lines[1:] {
		if t, ok := strings.CutPrefix(l, "title"); ok {
			p.title = flowLabel(t)
			continue
		}
		label, value, ok := strings.Cut(l, ":")
		label = strings.TrimSpace(label)
		if !ok || len(label) < 2 || label[0] != '"' || label[len(label)-1] != '"' {
			return nil, false
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || v < 0 || v > 1e15 {
			return nil, false
		}
		p.slices = append(p.slices, pieSlice{label: flowLabel(label), value: v})
	}
	if len(p.slices) == 0 || len(p.slices) > maxFlowNodes {
		return nil, false
	}
	return p, true
}

// eighths are the partial blocks, one eighth to seven.
var eighths = [...]string{"▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// drawPie draws p in at most width columns, or reports false when even a
// short bar does not fit beside the labels.
func drawPie(p *pie, width int) ([]string, bool) {
	total := 0.0
	labelW := 0
	for _, s := range p.slices {
		total += s.value
		labelW = max(labelW, textWidth(s.label))
	}
	if total <= 0 {
		return nil, false
	}
	notes := make([]string, len(p.slices))
	noteW := 0
	for i, s := range p.slices {
		notes[i] = fmt.Sprintf("%5.1f%%", 100*s.value/total)
		if p.showData {
			notes[i] += "  " + strconv.FormatFloat(s.value, 'f', -1, 64)
		}
		noteW = max(noteW, textWidth(notes[i]))
	}
	barW := min(width-labelW-noteW-4, 40)
	if barW < 8 {
		return nil, false
	}
	var rows []string
	if p.title != "" {
		if textWidth(p.title) > width {
			return nil, false
		}
		rows = append(rows, p.title, "")
	}
	for i, s := range p.slices {
		units := int(s.value/total*float64(barW*8) + 0.5)
		bar := strings.Repeat("█", units/8)
		if units%8 > 0 {
			bar += eighths[units%8-1]
		}
		pad := func(s string, w int) string { return s + strings.Repeat(" ", w-textWidth(s)) }
		rows = append(rows, strings.TrimRight(pad(s.label, labelW)+"  "+pad(bar, barW)+"  "+notes[i], " "))
	}
	return rows, true
}

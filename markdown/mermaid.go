package markdown

// drawMermaid draws src, the body of a mermaid block, in at most width
// columns when it is a kind of diagram quire draws whole: a flowchart or
// a state diagram (flowchart.go), a sequence diagram (sequence.go) or a
// pie chart (pie.go). Anything else, or anything that would not fit,
// reports false and stays code.
func drawMermaid(src string, width int) ([]string, bool) {
	if fc, ok := parseFlowchart(src); ok {
		return drawFlowchart(fc, width)
	}
	if fc, ok := parseState(src); ok {
		return drawFlowchart(fc, width)
	}
	if sq, ok := parseSequence(src); ok {
		return drawSequence(sq, width)
	}
	if p, ok := parsePie(src); ok {
		return drawPie(p, width)
	}
	return nil, false
}

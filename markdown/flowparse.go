package markdown

import "strings"

// A mermaid flowchart ("graph TD" or "flowchart LR") is parsed into
// nodes and edges. Only what can be drawn faithfully is accepted: node
// chains with the usual shapes, arrows and plain links, "&" groups and
// edge labels. Anything else (subgraphs, other diagram kinds, self
// loops) makes the parse fail and the block is shown as code, so a
// diagram is never drawn with part of it missing.

// maxFlowSource, maxFlowNodes and maxFlowEdges bound the work a
// diagram may cost.
const (
	maxFlowSource = 8 << 10
	maxFlowNodes  = 80
	maxFlowEdges  = 160
)

type flowNode struct {
	id, label string
	rounded   bool // ( ), (( )), ([ ]), { }: drawn with rounded corners
	point     rune // a state diagram's start or end: a glyph, no box
}

type flowEdge struct {
	from, to int
	label    string
	arrow    bool // ends in an arrowhead at to
}

type flowchart struct {
	dir   string // TD, BT, LR or RL
	nodes []flowNode
	edges []flowEdge
	byID  map[string]int
}

// diagramLines returns the lines of a mermaid block's body, trimmed,
// with "%%" comments and blank lines dropped, split again at sep when it
// is not "" ("; " separates flowchart statements). It refuses a body over
// maxFlowSource, or one with nothing in it.
func diagramLines(src, sep string) ([]string, bool) {
	if len(src) > maxFlowSource {
		return nil, false
	}
	var out []string
	for _, line := range strings.Split(src, "\n") {
		if i := strings.Index(line, "%%"); i >= 0 {
			line = line[:i]
		}
		parts := []string{line}
		if sep != "" {
			parts = strings.Split(line, sep)
		}
		for _, s := range parts {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out, len(out) > 0
}

// parseFlowchart parses src, the body of a mermaid block.
func parseFlowchart(src string) (*flowchart, bool) {
	stmts, ok := diagramLines(src, ";")
	if !ok {
		return nil, false
	}
	head := strings.Fields(stmts[0])
	if head[0] != "graph" && head[0] != "flowchart" || len(head) > 2 {
		return nil, false
	}
	fc := &flowchart{dir: "TD", byID: map[string]int{}}
	if len(head) == 2 {
		switch head[1] {
		case "TD", "TB":
		case "BT", "LR", "RL":
			fc.dir = head[1]
		default:
			return nil, false
		}
	}
	for _, s := range stmts[1:] {
		switch strings.Fields(s)[0] {
		case "classDef", "class", "style", "linkStyle", "click":
			continue // colours and interaction: nothing to draw
		}
		if !fc.statement(s) {
			return nil, false
		}
	}
	if len(fc.nodes) == 0 || len(fc.nodes) > maxFlowNodes || len(fc.edges) > maxFlowEdges {
		return nil, false
	}
	return fc, true
}

// statement parses a chain: group (edge group)*, a group being nodes
// joined by "&".
func (fc *flowchart) statement(s string) bool {
	p := &flowLexer{s: s}
	prev, ok := fc.group(p)
	if !ok {
		return false
	}
	for {
		p.space()
		if p.done() {
			return true
		}
		label, arrow, ok := p.edge()
		if !ok {
			return false
		}
		next, ok := fc.group(p)
		if !ok {
			return false
		}
		for _, a := range prev {
			for _, b := range next {
				if a == b {
					return false // a self loop has no faithful drawing here
				}
				fc.edges = append(fc.edges, flowEdge{from: a, to: b, label: label, arrow: arrow})
			}
		}
		prev = next
	}
}

func (fc *flowchart) group(p *flowLexer) ([]int, bool) {
	var out []int
	for {
		p.space()
		n, ok := fc.node(p)
		if !ok {
			return nil, false
		}
		out = append(out, n)
		p.space()
		if !p.eat("&") {
			return out, true
		}
	}
}

// shapes are the node brackets understood, longest first.
var shapes = [...]struct {
	open, close string
	rounded     bool
}{
	{"((", "))", true}, {"([", "])", true}, {"[[", "]]", false}, {"[(", ")]", false},
	{"{{", "}}", false}, {"[", "]", false}, {"(", ")", true}, {"{", "}", true}, {">", "]", false},
}

func (fc *flowchart) node(p *flowLexer) (int, bool) {
	id := p.ident()
	if id == "" {
		return 0, false
	}
	label, rounded, shaped := id, false, false
	for _, sh := range shapes {
		if !strings.HasPrefix(p.s[p.i:], sh.open) {
			continue
		}
		end := strings.Index(p.s[p.i+len(sh.open):], sh.close)
		if end < 0 {
			return 0, false
		}
		label = flowLabel(p.s[p.i+len(sh.open) : p.i+len(sh.open)+end])
		p.i += len(sh.open) + end + len(sh.close)
		rounded, shaped = sh.rounded, true
		break
	}
	if i, ok := fc.byID[id]; ok {
		if shaped { // a later mention may give the shape and label
			fc.nodes[i].label, fc.nodes[i].rounded = label, rounded
		}
		return i, true
	}
	fc.byID[id] = len(fc.nodes)
	fc.nodes = append(fc.nodes, flowNode{id: id, label: label, rounded: rounded})
	return len(fc.nodes) - 1, true
}

// flowLabel cleans a node or edge label: quotes dropped, line breaks
// written as spaces, control characters made visible.
func flowLabel(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	for _, br := range []string{"<br/>", "<br />", "<br>"} {
		s = strings.ReplaceAll(s, br, " ")
	}
	return cleanText(strings.Join(strings.Fields(s), " "))
}

type flowLexer struct {
	s string
	i int
}

func (p *flowLexer) done() bool { return p.i >= len(p.s) }

func (p *flowLexer) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *flowLexer) eat(t string) bool {
	if strings.HasPrefix(p.s[p.i:], t) {
		p.i += len(t)
		return true
	}
	return false
}

func (p *flowLexer) ident() string {
	j := p.i
	for j < len(p.s) {
		c := p.s[j]
		if c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			j++
			continue
		}
		break
	}
	id := p.s[p.i:j]
	p.i = j
	return id
}

// edge reads a link: "-->", "---", "-.->", "==>", "<-->" and their
// longer forms, with an optional "|label|" after it or "-- label -->"
// around the label.
func (p *flowLexer) edge() (label string, arrow, ok bool) {
	op := p.op()
	if op == "" {
		return "", false, false
	}
	if strings.HasPrefix(op, "<") {
		return "", false, false // two-headed links are not drawn
	}
	if !strings.HasSuffix(op, ">") && (op == "--" || op == "==" || op == "-.") {
		// "-- label -->": the label runs to the closing link.
		rest := p.s[p.i:]
		end := -1
		for _, closing := range []string{"-->", "---", "==>", "===", ".->", ".-"} {
			if k := strings.Index(rest, closing); k >= 0 && (end < 0 || k < end) {
				end = k
			}
		}
		if end < 0 {
			return "", false, false
		}
		label = flowLabel(rest[:end])
		p.i += end
		op = p.op()
	}
	arrow = strings.HasSuffix(op, ">")
	p.space()
	if p.eat("|") {
		end := strings.IndexByte(p.s[p.i:], '|')
		if end < 0 {
			return "", false, false
		}
		label = flowLabel(p.s[p.i : p.i+end])
		p.i += end + 1
	}
	return label, arrow, true
}

// op reads a run of link characters; it must be at least two long.
func (p *flowLexer) op() string {
	j := p.i
	for j < len(p.s) && strings.IndexByte("-=.<>", p.s[j]) >= 0 {
		j++
	}
	if j-p.i < 2 {
		return ""
	}
	op := p.s[p.i:j]
	p.i = j
	return op
}

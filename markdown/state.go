package markdown

import "strings"

// A mermaid state diagram is drawn as a flowchart of rounded states, its
// start as ● and its end as ◉. Only states, transitions (with labels),
// state descriptions and a direction are understood; composite states,
// forks, choices and notes make the parse fail, and the block stays code.

const (
	stateStart = '●'
	stateEnd   = '◉'
)

func parseState(src string) (*flowchart, bool) {
	lines, ok := diagramLines(src, "")
	if !ok || lines[0] != "stateDiagram" && lines[0] != "stateDiagram-v2" {
		return nil, false
	}
	fc := &flowchart{dir: "TD", byID: map[string]int{}}
	for _, l := range lines[1:] {
		if dir, ok := strings.CutPrefix(l, "direction "); ok {
			switch dir = strings.TrimSpace(dir); dir {
			case "TB", "TD":
				fc.dir = "TD"
			case "BT", "LR", "RL":
				fc.dir = dir
			default:
				return nil, false
			}
			continue
		}
		if rest, ok := strings.CutPrefix(l, "state "); ok {
			// state "A long description" as id
			desc, id, found := strings.Cut(rest, " as ")
			id = strings.TrimSpace(id)
			if !found || !stateID(id) || strings.ContainsAny(rest, "{}") {
				return nil, false
			}
			i := fc.state(id)
			fc.nodes[i].label = flowLabel(desc)
			continue
		}
		if from, to, ok := strings.Cut(l, "-->"); ok {
			to, label, _ := strings.Cut(to, ":")
			from, to = strings.TrimSpace(from), strings.TrimSpace(to)
			a, okA := fc.end(from, stateStart)
			b, okB := fc.end(to, stateEnd)
			if !okA || !okB || a == b {
				return nil, false
			}
			fc.edges = append(fc.edges, flowEdge{from: a, to: b, label: flowLabel(label), arrow: true})
			continue
		}
		if id, desc, ok := strings.Cut(l, ":"); ok && stateID(strings.TrimSpace(id)) {
			i := fc.state(strings.TrimSpace(id))
			fc.nodes[i].label = flowLabel(desc)
			continue
		}
		return nil, false
	}
	if len(fc.edges) == 0 || len(fc.nodes) > maxFlowNodes || len(fc.edges) > maxFlowEdges {
		return nil, false
	}
	return fc, true
}

// end returns the state s names, where "[*]" is the diagram's start on
// the left of a transition and its end on the right.
func (fc *flowchart) end(s string, point rune) (int, bool) {
	if s != "[*]" {
		if !stateID(s) {
			return 0, false
		}
		return fc.state(s), true
	}
	id := "[*]" + string(point)
	if i, ok := fc.byID[id]; ok {
		return i, true
	}
	fc.byID[id] = len(fc.nodes)
	fc.nodes = append(fc.nodes, flowNode{id: id, point: point})
	return len(fc.nodes) - 1, true
}

func (fc *flowchart) state(id string) int {
	if i, ok := fc.byID[id]; ok {
		return i
	}
	fc.byID[id] = len(fc.nodes)
	fc.nodes = append(fc.nodes, flowNode{id: id, label: flowLabel(id), rounded: true})
	return len(fc.nodes) - 1
}

func stateID(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c > 0x7f) {
			return false
		}
	}
	return true
}

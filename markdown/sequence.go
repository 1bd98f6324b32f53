package markdown

import (
	"fmt"
	"sort"
	"strings"
)

// A mermaid sequence diagram is drawn as its participants in boxes with
// lifelines below them, and each message, in order, as an arrow between
// two lifelines under its label. Only participants, messages and
// autonumber are drawn; notes, loops, alternatives and the other blocks
// make the parse fail, and the block stays code.

type seqMessage struct {
	from, to int
	label    string
	dotted   bool
	head     rune // '▶' a filled head, '▷' async, '×' a cross, 0 none
}

type sequence struct {
	names    []string // participant labels, in order
	ids      map[string]int
	messages []seqMessage
}

// seqArrows are the message arrows, longest first so that "-->>" is not
// read as "-->".
var seqArrows = [...]struct {
	op     string
	dotted bool
	head   rune
}{
	{"-->>", true, '▶'}, {"->>", false, '▶'}, {"--x", true, '×'}, {"-x", false, '×'},
	{"--)", true, '▷'}, {"-)", false, '▷'}, {"-->", true, 0}, {"->", false, 0},
}

func parseSequence(src string) (*sequence, bool) {
	lines, ok := diagramLines(src, "")
	if !ok || lines[0] != "sequenceDiagram" {
		return nil, false
	}
	sq := &sequence{ids: map[string]int{}}
	number := false
	for _, l := range lines[1:] {
		word, rest, _ := strings.Cut(l, " ")
		switch word {
		case "autonumber":
			number = true
			continue
		case "participant", "actor":
			id, label, _ := strings.Cut(strings.TrimSpace(rest), " as ")
			if id = strings.TrimSpace(id); id == "" {
				return nil, false
			}
			i := sq.participant(id)
			if label = flowLabel(label); label != "" {
				sq.names[i] = label
			}
			continue
		case "activate", "deactivate":
			continue // activation bars are not drawn; the messages are
		}
		if !sq.message(l) {
			return nil, false
		}
	}
	if len(sq.messages) == 0 || len(sq.names) > maxFlowNodes || len(sq.messages) > maxFlowEdges {
		return nil, false
	}
	if number {
		for i := range sq.messages {
			sq.messages[i].label = strings.TrimSpace(fmt.Sprintf("%d. %s", i+1, sq.messages[i].label))
		}
	}
	return sq, true
}

func (sq *sequence) participant(id string) int {
	if i, ok := sq.ids[id]; ok {
		return i
	}
	sq.ids[id] = len(sq.names)
	sq.names = append(sq.names, flowLabel(id))
	return len(sq.names) - 1
}

// message parses "A->>B: text".
func (sq *sequence) message(l string) bool {
	head, label, _ := strings.Cut(l, ":")
	for _, a := range seqArrows {
		i := strings.Index(head, a.op)
		if i < 0 {
			continue
		}
		from := strings.TrimSpace(head[:i])
		// +/- after the arrow (de)activates the target: not drawn.
		to := strings.TrimSpace(strings.TrimLeft(head[i+len(a.op):], "+-"))
		if !seqName(from) || !seqName(to) || from == to {
			return false // a message to oneself has no drawing here
		}
		sq.messages = append(sq.messages, seqMessage{
			from: sq.participant(from), to: sq.participant(to),
			label: flowLabel(label), dotted: a.dotted, head: a.head,
		})
		return true
	}
	return false
}

func seqName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c == ' ' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c > 0x7f) {
			return false
		}
	}
	return true
}

// drawSequence draws sq in at most width columns, or reports false.
func drawSequence(sq *sequence, width int) ([]string, bool) {
	n := len(sq.names)
	boxW := make([]int, n)
	for i, name := range sq.names {
		boxW[i] = textWidth(name) + 4
	}
	// Lifeline columns: boxes apart, then every message's label fitted
	// between its two lifelines, shortest spans first.
	centre := make([]int, n)
	centre[0] = boxW[0] / 2
	for i := 1; i < n; i++ {
		centre[i] = centre[i-1] + (boxW[i-1]+1)/2 + boxW[i]/2 + 2
	}
	msgs := append([]seqMessage(nil), sq.messages...)
	sort.SliceStable(msgs, func(a, b int) bool { return span(msgs[a]) < span(msgs[b]) })
	for _, m := range msgs {
		lo, hi := min(m.from, m.to), max(m.from, m.to)
		if need := textWidth(m.label) + 4; centre[hi]-centre[lo] < need {
			push := need - (centre[hi] - centre[lo])
			for i := hi; i < n; i++ {
				centre[i] += push
			}
		}
	}
	w := centre[n-1] + (boxW[n-1]+1)/2
	h := boxHeight + 2*len(sq.messages) + 1
	c := newCanvas(w, h)
	for i, name := range sq.names {
		x := centre[i] - boxW[i]/2
		c.box(x, 0, boxW[i], flowNode{label: name})
		c.vline(centre[i], boxHeight-1, h-1)
	}
	for k, m := range sq.messages {
		y := boxHeight + 2*k
		a, b := centre[m.from], centre[m.to]
		lo, hi := min(a, b), max(a, b)
		if m.label != "" {
			c.labels = append(c.labels, placedLabel{x: lo + (hi-lo-textWidth(m.label)+1)/2, y: y, text: m.label})
		}
		row := y + 1
		end := b // a line without a head runs into the target's lifeline
		if m.head != 0 {
			end = b - 1
			if b < a {
				end = b + 1
			}
		}
		c.hline(a, end, row)
		if m.dotted {
			for x := lo + 1; x < hi; x++ {
				if cell := c.at(x, row); cell.bits == bitLeft|bitRight {
					cell.fixed = '╌'
				}
			}
		}
		if m.head != 0 {
			head := m.head
			if b < a {
				head = swapRune(head, "▶◀▷◁")
			}
			c.put(end, row, head)
		}
	}
	rows := c.rows()
	for _, r := range rows {
		if textWidth(r) > width {
			return nil, false
		}
	}
	return rows, true
}

func span(m seqMessage) int { return max(m.from, m.to) - min(m.from, m.to) }

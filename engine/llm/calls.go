package llm

import (
	"sort"
	"strconv"
)

// PartialCall is a tool call being assembled from a stream: protocols
// send its id, name and arguments in pieces, keyed by an index of the
// protocol's own.
type PartialCall struct {
	ID, Name string
	Args     []byte
	// Done marks arguments the protocol has said are complete; later
	// pieces for the call are ignored.
	Done bool
}

// AssembleCalls returns the calls in the order of their indexes, which
// is the order the model made them whatever order their pieces came in.
// A call the server sent without an id is given "call_N", N its place in
// that order, so its result can still be paired with it.
func AssembleCalls(calls map[int]*PartialCall) []ToolCall {
	idx := make([]int, 0, len(calls))
	for i := range calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	var out []ToolCall
	for n, i := range idx {
		b := calls[i]
		id := b.ID
		if id == "" {
			id = "call_" + strconv.Itoa(n)
		}
		out = append(out, ToolCall{ID: id, Name: b.Name, Arguments: string(b.Args)})
	}
	return out
}

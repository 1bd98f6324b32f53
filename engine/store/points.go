package store

import "github.com/quire-sh/quire/engine/event"

// RewindPoint is a prompt /rewind can go back to: undoing it means forking
// the conversation before Seq (Fork(id, Seq-1)) and rewinding files to
// Turn (Checkpoints.Rewind(Turn, ...)).
type RewindPoint struct {
	Turn   int
	Seq    uint64 // the prompt's user message
	Prompt string
}

// RewindPoints pairs each turn with the prompt that started it, oldest
// first. Prompts queue: the first prompt not yet answered starts the next
// turn, unless the user message names its turn itself. A turn with no
// prompt (one the engine continued on its own) is no rewind point.
func RewindPoints(events []event.Event) []RewindPoint {
	var out []RewindPoint
	var queued []event.Event
	claimed := map[int]bool{}
	for _, e := range events {
		switch e.Kind {
		case event.UserMessage:
			if e.Turn > 0 && !claimed[e.Turn] {
				claimed[e.Turn] = true
				out = append(out, RewindPoint{Turn: e.Turn, Seq: e.Seq, Prompt: e.Typed()})
				continue
			}
			queued = append(queued, e)
		case event.TurnStarted:
			if claimed[e.Turn] || len(queued) == 0 {
				continue
			}
			m := queued[0]
			queued = queued[1:]
			claimed[e.Turn] = true
			out = append(out, RewindPoint{Turn: e.Turn, Seq: m.Seq, Prompt: m.Typed()})
		}
	}
	return out
}

package llm

import "io"

// EventReader reads the data of a text/event-stream's events, one at a
// time; Next returns io.EOF at the end.
type EventReader interface {
	Next() ([]byte, error)
}

// NewEventReader returns the transport's SSE reader over r, for
// protocols' tests and benchmarks.
func NewEventReader(r io.Reader) EventReader { return newSSEReader(r) }

package engine

import (
	"strings"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/internal/queue"
)

// outbox delivers events to a consumer that may be slow without ever
// blocking the engine: events wait in an unbounded queue, and while they
// wait, consecutive text fragments of one stream (assistant, reasoning,
// one call's output) are merged. Nothing else is merged or dropped. A
// merged fragment carries the Seq and Time of its last part, so Seq stays
// strictly increasing but may skip.
//
// When nothing waits and the consumer is already blocked receiving, push
// hands the event over itself: the pump goroutine runs only while events
// wait, so a stream the consumer keeps up with costs no extra goroutine
// hand-off per event.
type outbox struct {
	q   *queue.Unbounded[pending]
	out chan event.Event
}

func newOutbox() *outbox {
	o := &outbox{q: queue.NewUnbounded[pending](), out: make(chan event.Event)}
	go o.pump()
	return o
}

// pending is a queued event; text merged into it collects in more, so a
// long stall costs linear time, not quadratic.
type pending struct {
	e    event.Event
	more *strings.Builder
}

func (o *outbox) push(e event.Event) { o.q.PushOrGive(pending{e: e}, mergeInto, o.handOver) }

// handOver gives p to a consumer blocked receiving, without waiting for
// one; the queue calls it only when nothing is ahead of p.
func (o *outbox) handOver(p pending) bool {
	select {
	case o.out <- p.e:
		return true
	default:
		return false
	}
}

// mergeInto folds p's text into last when they are fragments of one
// stream.
func mergeInto(last *pending, p pending) bool {
	if !mergeable(last.e, p.e) {
		return false
	}
	if last.more == nil {
		last.more = &strings.Builder{}
		last.more.WriteString(last.e.Text)
	}
	last.more.WriteString(p.e.Text)
	last.e.Seq, last.e.Time = p.e.Seq, p.e.Time
	return true
}

func mergeable(a, b event.Event) bool { return event.Mergeable(a, b) }

// close delivers what is queued and then closes the channel.
func (o *outbox) close() { o.q.Close() }

func (o *outbox) pump() {
	for {
		p, ok := o.q.Hold()
		if !ok {
			if o.q.Drained() {
				close(o.out)
				return
			}
			<-o.q.Wake()
			continue
		}
		e := p.e
		if p.more != nil {
			e.Text = p.more.String()
		}
		o.out <- e
		o.q.Release()
	}
}

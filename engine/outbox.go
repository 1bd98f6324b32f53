package engine

import (
	"strings"
	"sync"

	"github.com/quire-sh/quire/engine/event"
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
	mu      sync.Mutex
	queue   []pending
	closed  bool
	sending bool // the pump holds an event taken from the queue
	wake    chan struct{}
	out     chan event.Event
}

func newOutbox() *outbox {
	o := &outbox{wake: make(chan struct{}, 1), out: make(chan event.Event)}
	go o.pump()
	return o
}

// pending is a queued event; text merged into it collects in more, so a
// long stall costs linear time, not quadratic.
type pending struct {
	e    event.Event
	more *strings.Builder
}

func (o *outbox) push(e event.Event) {
	o.mu.Lock()
	if o.handOverLocked(e) {
		o.mu.Unlock()
		return
	}
	if n := len(o.queue); n > 0 && mergeable(o.queue[n-1].e, e) {
		last := &o.queue[n-1]
		if last.more == nil {
			last.more = &strings.Builder{}
			last.more.WriteString(last.e.Text)
		}
		last.more.WriteString(e.Text)
		last.e.Seq, last.e.Time = e.Seq, e.Time
	} else {
		o.queue = append(o.queue, pending{e: e})
	}
	o.mu.Unlock()
	o.signal()
}

// handOverLocked gives e to a consumer blocked receiving, when nothing
// is waiting ahead of it, and reports whether it did.
func (o *outbox) handOverLocked(e event.Event) bool {
	if len(o.queue) > 0 || o.sending || o.closed {
		return false
	}
	// Everything pushed before was received: order holds.
	select {
	case o.out <- e:
		return true
	default:
		return false
	}
}

func mergeable(a, b event.Event) bool { return event.Mergeable(a, b) }

// close delivers what is queued and then closes the channel.
func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	o.signal()
}

func (o *outbox) signal() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

func (o *outbox) pump() {
	for {
		o.mu.Lock()
		if len(o.queue) == 0 {
			closed := o.closed
			o.mu.Unlock()
			if closed {
				close(o.out)
				return
			}
			<-o.wake
			continue
		}
		p := o.queue[0]
		o.queue[0] = pending{}
		o.queue = o.queue[1:]
		o.sending = true
		o.mu.Unlock()
		e := p.e
		if p.more != nil {
			e.Text = p.more.String()
		}
		o.out <- e
		o.mu.Lock()
		o.sending = false
		o.mu.Unlock()
	}
}

// mailbox is an unbounded command queue: senders never block, however
// stalled the session is.
type mailbox struct {
	mu    sync.Mutex
	items []command
	wake  chan struct{}
}

func newMailbox() *mailbox { return &mailbox{wake: make(chan struct{}, 1)} }

func (m *mailbox) put(c command) {
	m.mu.Lock()
	m.items = append(m.items, c)
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *mailbox) take() (command, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.items) == 0 {
		return nil, false
	}
	c := m.items[0]
	m.items[0] = nil
	m.items = m.items[1:]
	return c, true
}

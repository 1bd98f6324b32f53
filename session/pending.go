package session

import (
	"sync"

	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
)

// pendingSession stands in for a resumed session while its log is decoded
// and the engine rebuilds the model's history, so the first screen shows
// the latest turns at once instead of after the whole log. Input sent
// before the session is ready is queued and delivered in order; the older
// history arrives on Older for the transcript to put in front.
type pendingSession struct {
	out   chan event.Event
	older chan []event.Event
	ready chan struct{} // closed once open has returned

	mu     sync.Mutex
	opened *Opened
	err    error
	queued []func(*engine.Session)
}

// openPending starts open in the background. tailFrom is the seq of the
// first event the caller already shows; older events go to Older.
func openPending(open func() (*Opened, error), tailFrom uint64) *pendingSession {
	p := &pendingSession{
		out:   make(chan event.Event, 256),
		older: make(chan []event.Event, 1),
		ready: make(chan struct{}),
	}
	go p.run(open, tailFrom)
	return p
}

func (p *pendingSession) run(open func() (*Opened, error), tailFrom uint64) {
	s, err := open()
	// Deliver what was queued, in order, before anything sent later: the
	// session counts as open only once the queue is empty.
	for {
		p.mu.Lock()
		queued := p.queued
		p.queued = nil
		if len(queued) == 0 {
			p.opened, p.err = s, err
			p.mu.Unlock()
			break
		}
		p.mu.Unlock()
		if err == nil {
			for _, f := range queued {
				f(s.Session)
			}
		}
	}
	close(p.ready)
	if err != nil {
		p.out <- event.Event{V: event.SchemaVersion, Kind: event.Error, Text: "resuming the session failed: " + err.Error()}
		close(p.out)
		return
	}
	var older []event.Event
	for _, e := range s.Prior {
		if e.Seq >= tailFrom {
			break
		}
		older = append(older, e)
	}
	p.older <- older
	for e := range s.Events() {
		p.out <- e
	}
	close(p.out)
}

// Older delivers, once, the events before those already shown.
func (p *pendingSession) Older() <-chan []event.Event { return p.older }

// Events are the session's events, once it is ready.
func (p *pendingSession) Events() <-chan event.Event { return p.out }

// do runs f on the session now if it is ready, or queues it.
func (p *pendingSession) do(f func(*engine.Session)) {
	p.mu.Lock()
	if p.opened == nil && p.err == nil {
		p.queued = append(p.queued, f)
		p.mu.Unlock()
		return
	}
	s, err := p.opened, p.err
	p.mu.Unlock()
	if err == nil {
		f(s.Session)
	}
}

func (p *pendingSession) Submit(text string) { p.do(func(s *engine.Session) { s.Submit(text) }) }

// Wait blocks until the session is open and returns it.
func (p *pendingSession) Wait() (*Opened, error) {
	<-p.ready
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.opened, p.err
}

// Close waits for the session and closes it.
func (p *pendingSession) Close() {
	if s, err := p.Wait(); err == nil {
		s.Close()
	}
}

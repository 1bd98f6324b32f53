package polltimer

import (
	"sync"
	"time"
)

// runtimeTimer is a Timer on a runtime timer, where there is no timerfd.
// Its function sends on C under mu, as Reset and Stop drain C under it,
// so no tick of an earlier arming survives them.
type runtimeTimer struct {
	mu     sync.Mutex
	c      chan time.Time
	t      *time.Timer
	gen    uint64 // counts armings; a firing of an earlier one is dropped
	closed bool
}

func newRuntimeTimer(c chan time.Time) *runtimeTimer {
	return &runtimeTimer{c: c}
}

func (r *runtimeTimer) reset(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.gen++
	drain(r.c)
	gen := r.gen
	fire := func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.gen == gen && !r.closed {
			select {
			case r.c <- time.Now():
			default:
			}
		}
	}
	if r.t != nil {
		r.t.Stop()
	}
	r.t = time.AfterFunc(d, fire)
}

func (r *runtimeTimer) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gen++
	if r.t != nil {
		r.t.Stop()
	}
	drain(r.c)
}

func (r *runtimeTimer) close() {
	r.stop()
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
}

package mcp

import (
	"sync"
	"time"
)

// Reconnect backoff (spec: extensions-governance §2.2). A connection or
// stream that lived less than stableAfter died rapidly; the first two
// rapid deaths in a row reconnect at once, and from the third on the
// reconnect waits 500 ms, doubling up to 30 s. A connection that lived
// stableAfter or longer resets the count. The wait is announced at most
// once an hour (warnEvery), so a flapping server cannot flood the
// transcript.
const (
	stableAfter    = 2 * time.Second
	freeRapid      = 2
	backoffInitial = 500 * time.Millisecond
	backoffMax     = 30 * time.Second
	warnEvery      = time.Hour
)

// backoff is the state machine of one server's reconnects. It is safe
// for concurrent use.
type backoff struct {
	mu          sync.Mutex
	established time.Time
	ended       time.Time // when it died, if that was seen
	rapid       int
	lastWarn    time.Time
}

// connected records that a connection (or stream) was established at now.
func (b *backoff) connected(now time.Time) {
	b.mu.Lock()
	b.established, b.ended = now, time.Time{}
	b.mu.Unlock()
}

// died records that the connection established last ended at now; plan
// measures its life to then rather than to the reconnect.
func (b *backoff) died(now time.Time) {
	b.mu.Lock()
	if !b.established.IsZero() && b.ended.IsZero() {
		b.ended = now
	}
	b.mu.Unlock()
}

// plan is called when the connection established last died at now and
// a new one is about to be made: it says how long to wait first, and
// whether to warn about it (at most once per warnEvery).
func (b *backoff) plan(now time.Time) (wait time.Duration, warn bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	end := now
	if !b.ended.IsZero() {
		end = b.ended
	}
	if !b.established.IsZero() && end.Sub(b.established) >= stableAfter {
		b.rapid = 0
	} else if b.rapid < 1<<20 {
		b.rapid++
	}
	b.established, b.ended = time.Time{}, time.Time{}
	if b.rapid <= freeRapid {
		return 0, false
	}
	wait = backoffInitial
	for i := freeRapid + 1; i < b.rapid && wait < backoffMax; i++ {
		wait *= 2
	}
	wait = min(wait, backoffMax)
	if b.lastWarn.IsZero() || now.Sub(b.lastWarn) >= warnEvery {
		b.lastWarn = now
		warn = true
	}
	return wait, warn
}

package polltimer

import "time"

// Timer delivers the time on C once per arming, when the duration given
// to Reset has passed. Like a time.Timer since Go 1.23, Reset and Stop
// leave no tick from an earlier arming on C. A Timer is used by one
// goroutine (Reset, Stop and Close are not safe to call concurrently with
// each other); Close releases it.
type Timer struct {
	// C delivers the time of each expiry; it holds at most one.
	C <-chan time.Time
	impl
}

// impl is a platform's timer.
type impl interface {
	reset(d time.Duration)
	stop()
	close()
}

// New returns a disarmed Timer.
func New() *Timer {
	if t := newFdTimer(); t != nil {
		return t
	}
	return newRuntimeTimer()
}

// Reset arms the timer to fire once after d (at once when d ≤ 0),
// replacing any earlier arming and dropping a tick not yet received.
func (t *Timer) Reset(d time.Duration) { t.reset(max(d, 0)) }

// Stop disarms the timer and drops a tick not yet received.
func (t *Timer) Stop() { t.stop() }

// Close disarms the timer and releases what it holds; C never delivers
// again.
func (t *Timer) Close() { t.close() }

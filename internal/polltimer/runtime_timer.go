package polltimer

import (
	"math"
	"time"
)

// runtimeTimer is a Timer on a runtime timer, where there is no timerfd:
// a time.Timer, whose Reset and Stop already drop a tick of an earlier
// arming (Go 1.23).
type runtimeTimer struct{ t *time.Timer }

func newRuntimeTimer() *Timer {
	t := time.NewTimer(math.MaxInt64)
	t.Stop()
	return &Timer{C: t.C, impl: runtimeTimer{t}}
}

func (r runtimeTimer) reset(d time.Duration) { r.t.Reset(d) }
func (r runtimeTimer) stop()                 { r.t.Stop() }
func (r runtimeTimer) close()                { r.t.Stop() }

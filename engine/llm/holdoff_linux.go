package llm

import (
	"context"
	"time"

	"github.com/quire-sh/quire/internal/polltimer"
)

// fdHoldOff waits on a timerfd (polltimer.FD) through the runtime's
// poller, instead of on a runtime timer. A stream holds off once per
// frame, and a runtime timer costs each of those waits two thread
// wake-ups and a third elsewhere: the poller sleeps in whole
// milliseconds, so it wakes before the timer is due and sleeps again,
// and the runtime's monitor thread wakes with it (see polltimer). It
// waits inline rather than on a polltimer.Timer's channel, and reads
// nothing: arming clears the count, so the wait is the poller's alone.
type fdHoldOff struct {
	t    *polltimer.FD
	stop func() bool
}

// newFdHoldOff returns nil when a timerfd cannot be had (the caller
// falls back to a runtime timer).
func newFdHoldOff(ctx context.Context) holdOff {
	t, err := polltimer.OpenFD()
	if err != nil {
		return nil
	}
	// A wait in progress when ctx ends is woken through the descriptor's
	// deadline.
	return &fdHoldOff{t: t, stop: context.AfterFunc(ctx, t.Interrupt)}
}

func (h *fdHoldOff) wait(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	if err := h.t.Arm(d); err != nil {
		return (&timerHoldOff{}).wait(ctx, d)
	}
	// Arming the timer cleared its expirations, so it is not readable
	// yet: the first call waits without trying a read, and the second,
	// made once the poller saw it expire, need not read either (the next
	// arming clears the count again). Two system calls fewer a frame.
	polled := false
	err := h.t.RawConn().Read(func(uintptr) bool {
		ready := polled
		polled = true
		return ready
	})
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	return err
}

func (h *fdHoldOff) release() {
	h.stop()
	h.t.Close()
}

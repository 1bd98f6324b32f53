package llm

import (
	"context"
	"time"
)

// holdOff is how a stream waits out the interval between two reads: a
// wait of d that ends early, with ctx's error, when ctx ends. One
// holdOff serves every wait of one attempt; release frees it.
type holdOff interface {
	wait(ctx context.Context, d time.Duration) error
	release()
}

// newHoldOff returns the platform's quietest holdOff for an attempt
// whose context is ctx.
func newHoldOff(ctx context.Context) holdOff {
	if h := newFdHoldOff(ctx); h != nil {
		return h
	}
	return &timerHoldOff{}
}

// timerHoldOff waits on a runtime timer it keeps for the next wait.
type timerHoldOff struct{ timer *time.Timer }

func (h *timerHoldOff) wait(ctx context.Context, d time.Duration) error {
	if h.timer == nil {
		h.timer = time.NewTimer(d)
	} else {
		h.timer.Reset(d)
	}
	select {
	case <-h.timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *timerHoldOff) release() {
	if h.timer != nil {
		h.timer.Stop()
	}
}

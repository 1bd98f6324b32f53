package llm

import (
	"context"
	"testing"
)

// On Linux a stream holds off on a timerfd, so the runtime's poller wakes
// once per wait and its monitor thread is not woken with it.
func TestHoldOffUsesTimerfdOnLinux(t *testing.T) {
	h := newHoldOff(context.Background())
	defer h.release()
	if _, ok := h.(*fdHoldOff); !ok {
		t.Fatalf("holding off on %T", h)
	}
}

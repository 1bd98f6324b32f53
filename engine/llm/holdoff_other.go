//go:build !linux

package llm

import "context"

// newFdHoldOff: only Linux has timerfd; elsewhere a stream holds off on a
// runtime timer.
func newFdHoldOff(context.Context) holdOff { return nil }

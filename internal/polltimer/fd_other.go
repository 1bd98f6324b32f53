//go:build !linux

package polltimer

// newFdTimer: only Linux has timerfd.
func newFdTimer() *Timer { return nil }

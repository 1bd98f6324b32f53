//go:build !linux

package polltimer

import "time"

// newFdTimer: only Linux has timerfd.
func newFdTimer(chan time.Time) impl { return nil }

//go:build unix

package app

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used. On a loaded machine it
// moves far less than the wall clock, so frame costs compare fairly.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

//go:build !(linux || darwin || freebsd)

package markdown

import "time"

// threadCPU stands in for the thread's CPU time with the time of day,
// where the former cannot be read (see matchLimits).
func threadCPU() time.Duration { return time.Duration(time.Now().UnixNano()) }

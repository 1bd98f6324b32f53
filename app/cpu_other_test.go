//go:build !unix

package app

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }

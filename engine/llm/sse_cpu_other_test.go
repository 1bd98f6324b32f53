//go:build !unix

package llm

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }

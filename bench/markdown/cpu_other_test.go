//go:build !unix

package markdownbench

import "time"

// cpuTime is not measured here; cpu-ns metrics read 0.
func cpuTime() time.Duration { return 0 }

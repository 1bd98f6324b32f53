//go:build !linux

package markdownbench

import "time"

// threadCPU is not measured here; p99-cpu-ns/chunk is not reported.
func threadCPU() time.Duration { return 0 }

package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// startProfile writes a CPU profile of the whole run to the file named by
// QUIRE_CPUPROFILE, and an execution trace (goroutine wake-ups and thread
// hand-offs, which a CPU profile does not show; go tool trace reads it) to
// the file named by QUIRE_TRACE, each when it is set: switches for
// profiling the real binary under the end-to-end benchmark (bench/e2e),
// left out of --help. The returned func stops both and must run before the
// process exits.
func startProfile() func() {
	stopTrace := recordTo("QUIRE_TRACE", trace.Start, trace.Stop)
	stopCPU := recordTo("QUIRE_CPUPROFILE", pprof.StartCPUProfile, pprof.StopCPUProfile)
	return func() {
		stopCPU()
		stopTrace()
	}
}

// recordTo starts a recording of the run into the file the variable env
// names, when it is set, and returns what stops it; a file that cannot be
// written is said on stderr and the run goes on without it.
func recordTo(env string, start func(io.Writer) error, stop func()) func() {
	path := os.Getenv(env)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = start(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "quire: %s: %v\n", env, err)
		return func() {}
	}
	return func() {
		stop()
		f.Close()
	}
}

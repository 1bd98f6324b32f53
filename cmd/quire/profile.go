package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// startProfile writes a CPU profile of the whole run to the file named by
// QUIRE_CPUPROFILE, when it is set: a switch for profiling the real binary
// under the end-to-end benchmark (bench/e2e), left out of --help. The
// returned func stops the profile and must run before the process exits.
func startProfile() func() {
	stopTrace := startTrace()
	stopCPU := startCPUProfile()
	return func() {
		stopCPU()
		stopTrace()
	}
}

// startTrace writes an execution trace of the whole run to the file named
// by QUIRE_TRACE, when it is set: goroutine wake-ups and thread hand-offs,
// which a CPU profile does not show (go tool trace reads it).
func startTrace() func() {
	path := os.Getenv("QUIRE_TRACE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "quire: QUIRE_TRACE:", err)
		return func() {}
	}
	if err := trace.Start(f); err != nil {
		fmt.Fprintln(os.Stderr, "quire: QUIRE_TRACE:", err)
		f.Close()
		return func() {}
	}
	return func() {
		trace.Stop()
		f.Close()
	}
}

func startCPUProfile() func() {
	path := os.Getenv("QUIRE_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "quire: QUIRE_CPUPROFILE:", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "quire: QUIRE_CPUPROFILE:", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

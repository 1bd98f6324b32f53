package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startProfile writes a CPU profile of the whole run to the file named by
// QUIRE_CPUPROFILE, when it is set: a switch for profiling the real binary
// under the end-to-end benchmark (bench/e2e), left out of --help. The
// returned func stops the profile and must run before the process exits.
func startProfile() func() {
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

package cputime

import (
	"runtime"
	"testing"
)

// Work done shows in the process's CPU time, which never goes back.
func TestProcessCountsWork(t *testing.T) {
	before, ok := Process()
	if !ok {
		if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" {
			t.Skip("no CPU time here")
		}
		t.Fatal("the CPU time could not be read")
	}
	x := 0
	for i := range 50_000_000 {
		x ^= i
	}
	_ = x
	after, _ := Process()
	if after <= before {
		t.Fatalf("CPU time went from %v to %v over a busy loop", before, after)
	}
}

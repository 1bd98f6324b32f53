package main

import "testing"

func TestProcsCappedUnlessGOMAXPROCSIsSet(t *testing.T) {
	for _, tc := range []struct {
		env      string
		runtimes int
		want     int
		why      string
	}{
		{"", 64, 1, "a big machine: capped"},
		{"", 2, 1, "two processors: capped"},
		{"", 1, 1, "one processor: as it is"},
		{"8", 8, 8, "GOMAXPROCS=8 decides"},
		{"1", 1, 1, "GOMAXPROCS=1 decides"},
	} {
		if got := procs(tc.env, tc.runtimes); got != tc.want {
			t.Errorf("%s: procs(%q, %d) = %d, want %d", tc.why, tc.env, tc.runtimes, got, tc.want)
		}
	}
}

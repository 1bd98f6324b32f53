package main

import (
	"os"
	"runtime"
)

// maxProcs caps the processors the Go scheduler runs quire's goroutines
// on. quire's work is a chain of small hand-offs (the stream's reader,
// the session, the screen, the terminal's writer), one at a time, and its
// parallel work runs in other processes (commands, the model's server):
// every idle processor the scheduler keeps is one more thread woken to
// look for work at each hand-off and put back to sleep. Measured end to
// end on a streamed answer (bench/e2e), eight processors cost about a
// fifth more CPU per chunk than two, and two a third more thread
// switches (7,500 against 5,000 for the answer) and about a sixth more
// CPU than one. The price of one: a search tool running in the process
// shares it with the screen, which the scheduler still serves at least
// every 10 ms.
const maxProcs = 1

// capProcs applies maxProcs unless GOMAXPROCS is set, which, as for any Go
// program, decides.
func capProcs() {
	if n := procs(os.Getenv("GOMAXPROCS"), runtime.GOMAXPROCS(0)); n != runtime.GOMAXPROCS(0) {
		runtime.GOMAXPROCS(n)
	}
}

// procs is how many processors to use, given the GOMAXPROCS variable and
// the runtime's own choice.
func procs(env string, runtimes int) int {
	if env != "" {
		return runtimes // the runtime has applied it already
	}
	return min(runtimes, maxProcs)
}

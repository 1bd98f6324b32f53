package store

import (
	"bufio"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// startChild runs this test binary as a childWriter.
func startChild(t *testing.T, root, id, cwd string, stopOnStdin bool) (*exec.Cmd, *bufio.Reader, io.WriteCloser) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=writer", "ROOT="+root, "ID="+id, "CWD="+cwd)
	if stopOnStdin {
		cmd.Env = append(cmd.Env, "STOP_ON_STDIN=1")
	}
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewReader(stdout), stdin
}

// childLine parses "word N".
func childLine(line string) (string, uint64, bool) {
	word, num, ok := strings.Cut(strings.TrimSpace(line), " ")
	if !ok {
		return "", 0, false
	}
	n, err := strconv.ParseUint(num, 10, 64)
	return word, n, err == nil
}

// TestCrashHarness kills a writing process at random moments, 100 times
// (10 with -short), and checks after every kill that the session reopens,
// that every acknowledged prompt is there, that no event is half-written,
// and that the next run appends right after the last committed event.
func TestCrashHarness(t *testing.T) {
	runs := 100
	if testing.Short() {
		runs = 10
	}
	root, id, cwd := t.TempDir(), "crash", "/home/dev/crash"
	acked := map[uint64]bool{}
	var lastGood uint64
	for run := 0; run < runs; run++ {
		cmd, out, stdin := startChild(t, root, id, cwd, false)
		var lines []string
		firstAck, done := make(chan struct{}), make(chan struct{})
		go func() { // owns lines until done is closed
			defer close(done)
			acked := false
			for {
				l, err := out.ReadString('\n')
				if err != nil {
					return
				}
				lines = append(lines, l)
				if !acked && strings.HasPrefix(l, "ack ") {
					acked = true
					close(firstAck)
				}
			}
		}()
		// A fifth of the runs die at a random moment from birth (during
		// creation, opening, the first commit); the rest after they have
		// acknowledged a prompt, mid-stream.
		if rand.IntN(5) == 0 {
			time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond)
		} else {
			select {
			case <-firstAck:
			case <-done:
				t.Fatalf("run %d: child exited before acknowledging a prompt", run)
			case <-time.After(30 * time.Second):
				t.Fatalf("run %d: child acknowledged nothing in 30s", run)
			}
			time.Sleep(time.Duration(rand.IntN(25)) * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		stdin.Close()
		<-done
		for _, l := range lines {
			word, n, ok := childLine(l)
			switch {
			case !ok:
				t.Fatalf("run %d: child said %q", run, l)
			case word == "ack":
				acked[n] = true
			case word == "start" && n != lastGood:
				t.Fatalf("run %d: child resumed after seq %d, want after the last good event %d", run, n, lastGood)
			}
		}
		lastGood = verifyCrashed(t, root, id, acked, run)
	}
	if len(acked) == 0 {
		t.Fatal("no prompt was ever acknowledged")
	}
}

// verifyCrashed opens the session a killed child left and returns its
// last seq.
func verifyCrashed(t *testing.T, root, id string, acked map[uint64]bool, run int) uint64 {
	t.Helper()
	st, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.OpenReader(id)
	if errors.Is(err, ErrNotFound) && len(acked) == 0 {
		return 0 // killed before the session existed
	}
	if err != nil {
		t.Fatalf("run %d: session does not reopen: %v", run, err)
	}
	defer r.Close()
	events, err := r.ReadAll()
	if err != nil {
		t.Fatalf("run %d: read back: %v", run, err)
	}
	if err := holeFree(events, 0, func(text string) int { return strings.Count(text, "delta ") }); err != nil {
		t.Fatalf("run %d: %v", run, err)
	}
	have := map[uint64]event.Kind{}
	var last uint64
	for _, e := range events {
		last = e.Seq
		have[e.Seq] = e.Kind
		if e.Kind == event.ToolFinished && (e.Result == nil || len(e.Result.Output) < blobThreshold) {
			t.Fatalf("run %d: tool output of event %d lost its blob", run, e.Seq)
		}
	}
	for seq := range acked {
		if have[seq] != event.UserMessage {
			t.Fatalf("run %d: acknowledged prompt %d missing (have %q)", run, seq, have[seq])
		}
	}
	sum, err := r.Summary()
	if err != nil {
		t.Fatalf("run %d: %v", run, err)
	}
	if sum.LastSeq != last {
		t.Fatalf("run %d: summary says last seq %d, the log's last is %d", run, sum.LastSeq, last)
	}
	l, err := st.List(context.Background(), ListOptions{Verify: true})
	if err != nil || len(l.Sessions) != 1 || len(l.Problems) != 0 {
		t.Fatalf("run %d: listing after kill: %+v, %v", run, l, err)
	}
	return last
}

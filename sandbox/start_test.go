//go:build linux

package sandbox

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// A started command talks over its pipes, its stderr goes to Output,
// and closing its stdin lets it end on its own.
func TestStartTalksOverPipes(t *testing.T) {
	f := newFixture(t)
	s := requireLandlock(t, false)
	p := f.profile(t, Workspace)
	var stderr syncBuffer
	proc, err := Start(p, s, Command{Argv: []string{"bash", "-c", "echo started >&2; while read -r line; do echo \"got $line\"; done; echo bye >&2"}, Dir: f.ws, Env: os.Environ(), Output: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(proc.Stdout)
	fmt.Fprintln(proc.Stdin, "one")
	if line, err := out.ReadString('\n'); err != nil || line != "got one\n" {
		t.Fatalf("read %q, %v; stderr %q", line, err, stderr.String())
	}
	start := time.Now()
	exit := proc.Close(5 * time.Second)
	if exit.Code != 0 || exit.Cancelled || time.Since(start) > 4*time.Second {
		t.Fatalf("close: exit %+v after %s", exit, time.Since(start))
	}
	select {
	case <-proc.Done():
	default:
		t.Fatal("Done is open after Close")
	}
	// Stderr is drained by its own goroutine: give it a moment.
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(stderr.String(), "bye") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := stderr.String(); got != "started\nbye\n" {
		t.Fatalf("stderr %q", got)
	}
}

// A command that ignores the end of its input is ended after the wait,
// with everything it started.
func TestStartCloseKillsTheTree(t *testing.T) {
	f := newFixture(t)
	p := f.profile(t, Off)
	proc, err := Start(p, Support{}, Command{Argv: []string{"bash", "-c", "trap '' TERM; sleep 1000 & echo $!; exec sleep 1000"}, Dir: f.ws, Env: os.Environ(), Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Fscanf(proc.Stdout, "%d\n", &pid); err != nil || pid == 0 {
		t.Fatalf("pid: %v", err)
	}
	start := time.Now()
	exit := proc.Close(300 * time.Millisecond)
	if !exit.Cancelled || !gone(pid) {
		t.Fatalf("exit %+v, background %d gone = %v", exit, pid, gone(pid))
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Fatalf("close took %s", d)
	}
	if _, err := io.ReadAll(proc.Stdout); err == nil {
		// The read end is closed by Close: reading it fails.
		t.Fatal("stdout still readable after Close")
	}
}

// A command that exits by itself closes Done.
func TestStartDoneWhenTheCommandExits(t *testing.T) {
	f := newFixture(t)
	p := f.profile(t, Off)
	proc, err := Start(p, Support{}, Command{Argv: []string{"bash", "-c", "exit 3"}, Dir: f.ws, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-proc.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done not closed")
	}
	if e := proc.Exit(); e.Code != 3 {
		t.Fatalf("exit %+v", e)
	}
	proc.Close(time.Second)
}

package term

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// roomTty is a fakeTty whose TryWrite takes at most room bytes a call,
// like a device whose buffer is nearly full.
type roomTty struct {
	*fakeTty
	mu     sync.Mutex
	room   int
	direct int // bytes TryWrite took
}

func (r *roomTty) TryWrite(p []byte) (int, error) {
	r.mu.Lock()
	n := min(r.room, len(p))
	r.direct += n
	r.mu.Unlock()
	if n == 0 {
		return 0, nil
	}
	return r.fakeTty.Write(p[:n])
}

// Frames the caller writes itself and the rests the writer goroutine
// writes reach the device in the order of the frames, whole.
func TestDirectWritesKeepOrderWithTheWriter(t *testing.T) {
	for _, room := range []int{0, 5, 1 << 20} {
		t.Run(fmt.Sprint("room ", room), func(t *testing.T) {
			tty := &roomTty{fakeTty: newFakeTty(), room: room}
			term, err := OpenTty(tty, Options{NoSignals: true, Env: envOf()})
			if err != nil {
				t.Fatal(err)
			}
			defer term.Close()
			start := len(tty.output())
			var want strings.Builder
			for i := range 300 {
				frame := fmt.Sprintf("\x1b[?2026h<frame %d>\x1b[?2026l", i)
				want.WriteString(frame)
				if _, err := term.Writer().Write([]byte(frame)); err != nil {
					t.Fatal(err)
				}
			}
			if !term.WaitDrained(10 * time.Second) {
				t.Fatal("frames not drained")
			}
			if got := tty.output()[start:]; got != want.String() {
				t.Fatalf("frames out of order or altered:\n got %.300q\nwant %.300q", got, want.String())
			}
			tty.mu.Lock()
			direct := tty.direct
			tty.mu.Unlock()
			if room > 0 && direct == 0 {
				t.Error("no frame was written by the caller")
			}
		})
	}
}

// A device that takes nothing leaves the frame to the writer goroutine:
// the caller does not wait for it.
func TestDirectWriteDoesNotWaitForAStalledDevice(t *testing.T) {
	tty := &roomTty{fakeTty: newFakeTty()}
	term, err := OpenTty(tty, Options{NoSignals: true, Env: envOf(), QueueFrames: 4, WriteBudget: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	gate := tty.stall()
	defer func() {
		close(gate)
		term.Close()
	}()
	start := time.Now()
	for range 3 {
		if _, err := term.Writer().Write([]byte("frame")); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("three frames to a stalled device took %v", d)
	}
}

// The non-blocking handle returns at once with what a full pty took, and
// no error.
func TestTryOutReturnsWhenThePtyIsFull(t *testing.T) {
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	defer master.Close()
	var n int
	if err := control(master, func(fd int) error {
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return err
		}
		var err error
		n, err = unix.IoctlGetInt(fd, unix.TIOCGPTN)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	out, err := openTryOut(fmt.Sprintf("/dev/pts/%d", n))
	if err != nil {
		t.Fatal(err)
	}
	defer out.f.Close()
	frame := []byte(strings.Repeat("x", 1<<20)) // more than a pty buffers
	done := make(chan struct{})
	var wrote int
	var werr error
	go func() {
		wrote, werr = out.TryWrite(frame)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("TryWrite waited for a full pty nobody reads")
	}
	if werr != nil || wrote <= 0 || wrote >= len(frame) {
		t.Fatalf("TryWrite = %d, %v; want part of %d bytes and no error", wrote, werr, len(frame))
	}
}

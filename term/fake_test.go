package term

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// fakeTty is an in-memory tcell.Tty whose writes can be made to stall,
// like a pty behind a congested ssh link.
type fakeTty struct {
	mu       sync.Mutex
	out      bytes.Buffer
	in       chan []byte
	drain    chan struct{}
	closed   chan struct{}
	gate     chan struct{} // non-nil: writes block until it is closed
	starts   int
	stops    int
	startErr error
	sizeErr  error
	discard  bool // count nothing, keep nothing (benchmarks)
}

func newFakeTty() *fakeTty {
	return &fakeTty{in: make(chan []byte, 16), drain: make(chan struct{}), closed: make(chan struct{})}
}

func (f *fakeTty) Start() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.startErr != nil {
		return f.startErr
	}
	f.starts++
	f.drain = make(chan struct{})
	return nil
}

func (f *fakeTty) Stop() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stops++
	return nil
}

func (f *fakeTty) Drain() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.drain:
	default:
		close(f.drain)
	}
	return nil
}

func (f *fakeTty) NotifyResize(func()) {}

func (f *fakeTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: 80, Height: 24}, f.sizeErr
}

func (f *fakeTty) Read(b []byte) (int, error) {
	f.mu.Lock()
	drain := f.drain
	f.mu.Unlock()
	select {
	case p := <-f.in:
		return copy(b, p), nil
	case <-drain:
		return 0, os.ErrDeadlineExceeded
	case <-f.closed:
		return 0, os.ErrClosed
	}
}

func (f *fakeTty) Write(b []byte) (int, error) {
	f.mu.Lock()
	gate := f.gate
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-f.closed:
			return 0, os.ErrClosed
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.discard {
		return len(b), nil
	}
	return f.out.Write(b)
}

func (f *fakeTty) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.closed:
	default:
		close(f.closed)
	}
	return nil
}

func (f *fakeTty) stall() chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gate = make(chan struct{})
	return f.gate
}

func (f *fakeTty) output() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.out.String()
}

func (f *fakeTty) counts() (starts, stops int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.starts, f.stops
}

func TestStalledTtyDoesNotBlockTheUI(t *testing.T) {
	tty := newFakeTty()
	term, err := OpenTty(tty, Options{NoSignals: true, Env: envOf(), QueueFrames: 4, WriteBudget: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	release := tty.stall()

	began := time.Now()
	const frames = 40
	for i := range frames {
		if _, err := term.Writer().Write([]byte(fmt.Sprintf("<%d>", i))); err != nil {
			t.Fatal(err)
		}
	}
	// Each Write waits at most the budget; nothing waits for the tty.
	if d := time.Since(began); d > 3*time.Second {
		t.Errorf("%d writes into a stalled tty took %v", frames, d)
	}
	if term.Pending() != frames {
		t.Errorf("Pending = %d, want %d", term.Pending(), frames)
	}
	// Keys still flow while output is stuck.
	tty.in <- []byte("k")
	if got := nextEvent(t, term); !reflect.DeepEqual(got, char('k', 0)) {
		t.Errorf("got %#v, want k", got)
	}
	// WaitDrained gives up at its deadline and the caller proceeds.
	began = time.Now()
	if term.WaitDrained(100 * time.Millisecond) {
		t.Error("WaitDrained reported drained on a stalled tty")
	}
	if d := time.Since(began); d < 100*time.Millisecond || d > 3*time.Second {
		t.Errorf("WaitDrained(100ms) returned after %v", d)
	}

	close(release)
	if !term.WaitDrained(10 * time.Second) {
		t.Fatal("did not drain after the tty recovered")
	}
	var want strings.Builder
	for i := range frames {
		fmt.Fprintf(&want, "<%d>", i)
	}
	if got := tty.output(); !strings.Contains(got, want.String()) {
		t.Errorf("frames lost or reordered: %q", got)
	}
}

func TestRestoreOnStalledTtyStillLeavesRawMode(t *testing.T) {
	tty := newFakeTty()
	term, err := OpenTty(tty, Options{NoSignals: true, Env: envOf()})
	if err != nil {
		t.Fatal(err)
	}
	tty.stall()
	term.Writer().Write([]byte("stuck frame"))
	time.Sleep(20 * time.Millisecond) // let the writer block in Write
	began := time.Now()
	if err := term.Restore(); err == nil {
		t.Error("Restore on a stalled tty reported success")
	}
	if d := time.Since(began); d > restoreLockWait+restoreWrite+3*time.Second {
		t.Errorf("Restore took %v", d)
	}
	if _, stops := tty.counts(); stops != 1 {
		t.Errorf("raw mode not left: %d Stop calls", stops)
	}
	term.Close()
	if _, stops := tty.counts(); stops != 1 {
		t.Errorf("Stop called %d times; want exactly once", stops)
	}
}

func TestFailedStartRestores(t *testing.T) {
	tty := newFakeTty()
	tty.sizeErr = errors.New("no size")
	if _, err := OpenTty(tty, Options{NoSignals: true, Env: envOf(), AltScreen: true}); err == nil {
		t.Fatal("OpenTty succeeded without a size")
	}
	if starts, stops := tty.counts(); starts != 1 || stops != 1 {
		t.Errorf("starts %d stops %d, want 1 and 1", starts, stops)
	}
	if out := tty.output(); !strings.Contains(out, "\x1b[?1049l") || !strings.Contains(out, "\x1b[?25h") {
		t.Errorf("failed start did not write the restore sequence: %q", out)
	}
	select {
	case <-tty.closed:
	default:
		t.Error("tty not closed after a failed start")
	}

	tty = newFakeTty()
	tty.startErr = errors.New("not a terminal")
	if _, err := OpenTty(tty, Options{NoSignals: true, Env: envOf()}); err == nil || !strings.Contains(err.Error(), "not a terminal") {
		t.Fatalf("err = %v", err)
	}
	if out := tty.output(); out != "" {
		t.Errorf("wrote %q to a tty that never started", out)
	}
}

func TestRestoreOnPanicRepanics(t *testing.T) {
	tty := newFakeTty()
	term, err := OpenTty(tty, Options{NoSignals: true, Env: envOf()})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the original panic value", r)
			}
		}()
		defer term.RestoreOnPanic()
		panic("boom")
	}()
	if _, stops := tty.counts(); stops != 1 {
		t.Error("RestoreOnPanic did not restore")
	}
	// Without a panic it does nothing.
	tty2 := newFakeTty()
	term2, _ := OpenTty(tty2, Options{NoSignals: true, Env: envOf()})
	defer term2.Close()
	func() { defer term2.RestoreOnPanic() }()
	if _, stops := tty2.counts(); stops != 0 {
		t.Error("RestoreOnPanic restored without a panic")
	}
}

func TestParkingWithoutDrainSupport(t *testing.T) {
	// A Tty whose Drain cannot interrupt Read: the hand-off proceeds after
	// the park timeout instead of hanging.
	tty := &noDrainTty{newFakeTty()}
	term, err := OpenTty(tty, Options{NoSignals: true, Env: envOf()})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	ran := false
	if err := term.HandOff(func() error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("HandOff = %v, ran %v", err, ran)
	}
}

type noDrainTty struct{ *fakeTty }

func (noDrainTty) Drain() error { return nil }

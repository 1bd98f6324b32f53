package term

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// testPTY is a pseudo-terminal pair. The test plays the terminal emulator
// on the master side: what quire writes is collected in out, and what the
// test writes is what the user "types".
type testPTY struct {
	master    *os.File
	slave     *os.File // the test's own handle, for termios and to keep the pty alive
	slavePath string

	mu   sync.Mutex
	out  bytes.Buffer
	grew chan struct{}
}

func openPTY(t *testing.T) *testPTY {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var n int
	if err := control(master, func(fd int) error {
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return fmt.Errorf("unlockpt: %w", err)
		}
		var err error
		n, err = unix.IoctlGetInt(fd, unix.TIOCGPTN)
		return err
	}); err != nil {
		master.Close()
		t.Fatal(err)
	}
	p := &testPTY{master: master, slavePath: fmt.Sprintf("/dev/pts/%d", n), grew: make(chan struct{}, 1)}
	p.slave, err = os.OpenFile(p.slavePath, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Fatal(err)
	}
	p.setSize(t, 80, 24)
	go p.collect()
	t.Cleanup(func() {
		p.slave.Close()
		p.master.Close()
	})
	return p
}

func control(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

func (p *testPTY) collect() {
	buf := make([]byte, 4096)
	for {
		n, err := p.master.Read(buf)
		if n > 0 {
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			select {
			case p.grew <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// output is everything quire wrote so far.
func (p *testPTY) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// waitOutput waits until the output after offset from contains want and
// returns the index just past it.
func (p *testPTY) waitOutput(t *testing.T, from int, want string) int {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if out := p.output(); len(out) >= from {
			if i := strings.Index(out[from:], want); i >= 0 {
				return from + i + len(want)
			}
		}
		select {
		case <-p.grew:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("terminal never received %q; got %q", want, p.output())
		}
	}
}

// typeIn sends bytes as if typed at the keyboard.
func (p *testPTY) typeIn(t *testing.T, s string) {
	t.Helper()
	if _, err := p.master.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
}

func (p *testPTY) setSize(t *testing.T, w, h int) {
	t.Helper()
	if err := control(p.master, func(fd int) error {
		return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(w), Row: uint16(h)})
	}); err != nil {
		t.Fatal(err)
	}
}

func (p *testPTY) termios(t *testing.T) *unix.Termios {
	t.Helper()
	var tio *unix.Termios
	if err := control(p.slave, func(fd int) error {
		var err error
		tio, err = unix.IoctlGetTermios(fd, unix.TCGETS)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return tio
}

func (p *testPTY) wantCooked(t *testing.T) {
	t.Helper()
	if tio := p.termios(t); tio.Lflag&(unix.ICANON|unix.ECHO) != unix.ICANON|unix.ECHO {
		t.Errorf("terminal left raw: lflag %#x lacks ICANON|ECHO", tio.Lflag)
	}
}

func (p *testPTY) wantRaw(t *testing.T) {
	t.Helper()
	if tio := p.termios(t); tio.Lflag&(unix.ICANON|unix.ECHO) != 0 {
		t.Errorf("terminal not raw: lflag %#x", tio.Lflag)
	}
}

// openTerminal opens a Terminal on the pty's slave side.
func openTerminal(t *testing.T, p *testPTY, opts Options) *Terminal {
	t.Helper()
	tty, err := OpenDevice(p.slavePath)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tty.(tryWriter); !ok {
		t.Fatal("OpenDevice gave a tty without the non-blocking write handle")
	}
	if opts.Env == nil {
		opts.Env = envOf("TERM", "xterm-256color")
	}
	opts.NoSignals = true
	term, err := OpenTty(tty, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close() })
	return term
}

// nextEvent returns the next event that is not a resize.
func nextEvent(t *testing.T, term *Terminal) Event {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-term.Events():
			if !ok {
				t.Fatal("events closed")
			}
			if _, resize := ev.(ResizeEvent); resize {
				continue
			}
			return ev
		case <-timeout:
			t.Fatal("no event")
		}
	}
}

// noEvent asserts that nothing but resizes arrive for d.
func noEvent(t *testing.T, term *Terminal, d time.Duration) {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case ev := <-term.Events():
			if _, resize := ev.(ResizeEvent); !resize {
				t.Fatalf("unexpected event %#v", ev)
			}
		case <-timeout:
			return
		}
	}
}

package polltimer

import (
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// FD is a timerfd registered with the runtime's poller: what a Timer is
// made of on Linux, for a caller that waits on its expiry inline instead
// of on a channel (a stream's hold-off, in engine/llm).
type FD struct {
	f  *os.File
	rc syscall.RawConn
	fd uintptr // f's descriptor, valid until Close
}

// OpenFD returns a disarmed, non-blocking timerfd on the monotonic clock.
func OpenFD() (*FD, error) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "timer")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &FD{f: f, rc: rc, fd: uintptr(fd)}, nil
}

// Arm sets the timer to expire once after d, or disarms it when d is
// zero, and zeroes the count of expirations not yet read. It is a raw
// system call: it does not wake the runtime's monitor thread.
func (t *FD) Arm(d time.Duration) error {
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(d.Nanoseconds())}
	if _, _, e := syscall.RawSyscall6(unix.SYS_TIMERFD_SETTIME, t.fd, 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0); e != 0 {
		return e
	}
	return nil
}

// RawConn is the descriptor as the poller knows it: Read parks on it
// until the timer expires.
func (t *FD) RawConn() syscall.RawConn { return t.rc }

// Interrupt wakes a wait parked on the descriptor, which then returns
// os.ErrDeadlineExceeded, now and for every later wait.
func (t *FD) Interrupt() { t.f.SetReadDeadline(time.Unix(1, 0)) }

// Close releases the descriptor and wakes a wait parked on it.
func (t *FD) Close() error { return t.f.Close() }

// fdTimer is a Timer on a timerfd, read by a goroutine parked in the
// runtime's poller. The goroutine reads the expiry count and sends on C
// under mu, and Reset and Stop re-arm (which zeroes the count) and drain
// C under it: an expiry of an earlier arming either reaches C before they
// drain it or finds the count zeroed, so none survives them.
type fdTimer struct {
	mu     sync.Mutex
	c      chan time.Time
	fd     *FD
	closed bool
	done   chan struct{} // closed when the reader has returned
}

// newFdTimer returns nil when no timerfd can be had.
func newFdTimer() *Timer {
	fd, err := OpenFD()
	if err != nil {
		return nil
	}
	t := &fdTimer{c: make(chan time.Time, 1), fd: fd, done: make(chan struct{})}
	go t.read()
	return &Timer{C: t.c, impl: t}
}

// drain drops a tick waiting on c.
func drain(c chan time.Time) {
	select {
	case <-c:
	default:
	}
}

// read forwards each expiry to C until the descriptor is closed.
func (t *fdTimer) read() {
	defer close(t.done)
	// After an expiry is read the count is zero until the poller reports
	// the next one, so the next call waits without a read of its own.
	justRead := false
	for {
		err := t.fd.rc.Read(func(fd uintptr) bool {
			if justRead {
				justRead = false
				return false
			}
			t.mu.Lock()
			defer t.mu.Unlock()
			var count [8]byte
			_, _, e := syscall.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&count[0])), 8)
			if e == syscall.EAGAIN {
				// Not expired, or re-armed since: wait for the poller.
				return false
			}
			if e == 0 && !t.closed {
				select {
				case t.c <- time.Now():
				default:
				}
			}
			justRead = e == 0
			return true
		})
		if err != nil {
			return // closed
		}
	}
}

// arm arms or disarms the descriptor. Only a bad descriptor or value can
// fail, and neither can happen while the timer is open: say so loudly
// rather than never fire.
func (t *fdTimer) arm(d time.Duration) {
	if err := t.fd.Arm(d); err != nil {
		panic("polltimer: timerfd_settime: " + err.Error())
	}
}

func (t *fdTimer) reset(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	// A zero value disarms a timerfd, so a deadline already due is armed
	// a nanosecond away.
	t.arm(max(d, time.Nanosecond))
	drain(t.c)
}

func (t *fdTimer) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	t.arm(0)
	drain(t.c)
}

func (t *fdTimer) close() {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	t.closed = true
	drain(t.c)
	t.mu.Unlock()
	// Closing the descriptor wakes the reader parked in the poller; wait
	// for it so the descriptor is not reused under it.
	t.fd.Close()
	<-t.done
}

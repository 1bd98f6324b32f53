package polltimer

import (
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// fdTimer is a Timer on a timerfd, read by a goroutine parked in the
// runtime's poller. The goroutine reads the expiry count and sends on C
// under mu, and Reset and Stop re-arm (which zeroes the count) and drain
// C under it: an expiry of an earlier arming either reaches C before they
// drain it or finds the count zeroed, so none survives them.
type fdTimer struct {
	mu     sync.Mutex
	c      chan time.Time
	f      *os.File
	fd     uintptr // f's descriptor, valid until close
	closed bool
	done   chan struct{} // closed when the reader has returned
}

// newFdTimer returns nil when no timerfd can be had.
func newFdTimer(c chan time.Time) impl {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), "timer")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil
	}
	t := &fdTimer{c: c, f: f, fd: uintptr(fd), done: make(chan struct{})}
	go t.read(rc)
	return t
}

// read forwards each expiry to C until the file is closed.
func (t *fdTimer) read(rc syscall.RawConn) {
	defer close(t.done)
	// After an expiry is read the count is zero until the poller reports
	// the next one, so the next call waits without a read of its own.
	justRead := false
	for {
		err := rc.Read(func(fd uintptr) bool {
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

// arm sets the timer to expire once after d, or disarms it when d is
// zero (a timerfd treats a zero value as disarming, so an expiry that is
// already due is armed at a nanosecond).
func (t *fdTimer) arm(d time.Duration) {
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(d.Nanoseconds())}
	if _, _, e := syscall.RawSyscall6(unix.SYS_TIMERFD_SETTIME, t.fd, 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0); e != 0 {
		// Only a bad descriptor or value fails, and neither can happen
		// while the timer is open; say so loudly rather than never fire.
		panic("polltimer: timerfd_settime: " + e.Error())
	}
}

func (t *fdTimer) reset(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
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
	// Closing the file wakes the reader parked in the poller; wait for
	// it so the descriptor is not reused under it.
	t.f.Close()
	<-t.done
}

package term

import (
	"errors"
	"os"
	"syscall"

	"github.com/gdamore/tcell/v2"
)

// tryWriter is a tty that can write without waiting: TryWrite writes what
// the device takes at once and reports how much, never blocking on a full
// device (a slow ssh link). A full device is not an error.
type tryWriter interface {
	TryWrite(p []byte) (int, error)
}

// devTty is tcell's /dev/tty with a second, non-blocking handle on the same
// device for TryWrite (tcell's own handle waits for the device when it is
// full). Both write the same device, one at a time under the Terminal's
// outMu, so the bytes reach it in the order they are written.
type devTty struct {
	tcell.Tty
	out *tryOut
}

func (d *devTty) TryWrite(p []byte) (int, error) { return d.out.TryWrite(p) }

func (d *devTty) Close() error {
	err := d.Tty.Close()
	if cerr := d.out.f.Close(); err == nil && !errors.Is(cerr, os.ErrClosed) {
		err = cerr
	}
	return err
}

// tryOut is a non-blocking write handle on a character device.
type tryOut struct {
	f  *os.File
	rc syscall.RawConn
}

// openTryOut opens path for writing, in non-blocking mode.
func openTryOut(path string) (*tryOut, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	rc, err := f.SyscallConn()
	if err == nil {
		// Go's runtime leaves it blocking when its poller refuses it;
		// the handle is this open file's own, so nothing else sees it.
		cerr := rc.Control(func(fd uintptr) { err = syscall.SetNonblock(int(fd), true) })
		if err == nil {
			err = cerr
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &tryOut{f: f, rc: rc}, nil
}

// TryWrite writes what the device takes of p now. The write is a raw
// system call: it cannot wait (the handle is non-blocking), and through
// the scheduler's syscall path it would wake the runtime's monitor thread
// (sysmon) and, when the pty is slow to take the bytes, have the P handed
// to another thread.
func (o *tryOut) TryWrite(p []byte) (n int, err error) {
	cerr := o.rc.Write(func(fd uintptr) bool {
		for n < len(p) {
			r, e := rawWrite(fd, p[n:])
			switch {
			case e == syscall.EINTR:
				continue
			case e == syscall.EAGAIN:
				return true
			case e != 0:
				err = e
				return true
			case r == 0:
				return true
			}
			n += r
		}
		return true
	})
	if err == nil {
		err = cerr
	}
	return n, err
}

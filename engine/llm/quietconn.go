package llm

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
)

// quietConn is a TCP connection whose reads do not enter the Go
// scheduler's syscall path: a read of the non-blocking socket is one raw
// system call, and only when nothing is there does the goroutine wait
// for the socket through the runtime's poller, as any read does. A
// streamed answer is read once per frame interval, after its bytes have
// arrived, so the read never waits; through the usual path every one of
// those reads would also wake the runtime's monitor thread (sysmon) and
// keep it polling every 20 µs until the process is idle again, which on
// a small machine costs more CPU than the read itself.
//
// Nor do bytes that arrive while nobody waits for them wake the process:
// after a read that found bytes, the socket's low-water mark for
// readiness (SO_RCVLOWAT) is raised, so the kernel does not tell the
// runtime's poller about each packet of a stream that is read once per
// frame anyway (each such packet woke a thread for nothing); a read that
// finds nothing lowers it to one byte before it waits. A read returns
// whatever is there whatever the mark. Deadlines, Close and everything
// else are the connection's own.
type quietConn struct {
	*net.TCPConn
	rc syscall.RawConn
	// raised says the low-water mark is quietLowat; only Read's callback
	// touches it, under the descriptor's read lock.
	raised bool
}

// quietLowat is the low-water mark while the reader holds off: more than
// a stream sends in a frame, and little enough that the kernel does not
// grow the receive buffer or clamp the window to honour it.
const quietLowat = 32 << 10

// dialQuiet dials with d and wraps a TCP connection in a quietConn.
func dialQuiet(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		tc, ok := c.(*net.TCPConn)
		if !ok {
			return c, nil
		}
		rc, err := tc.SyscallConn()
		if err != nil {
			return c, nil
		}
		return &quietConn{TCPConn: tc, rc: rc}, nil
	}
}

func (c *quietConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := c.rc.Read(func(fd uintptr) bool {
		for {
			r, e := rawRead(fd, p)
			switch e {
			case 0:
				n, errno = r, 0
				if r > 0 && !c.raised && setLowat(fd, quietLowat) == 0 {
					c.raised = true
				}
				return true
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				if c.raised {
					// Bytes that came in between are read at once
					// (the kernel also reports them ready as the mark
					// drops).
					c.raised = false
					if setLowat(fd, 1) == 0 {
						continue
					}
				}
				return false // wait for the socket, then try again
			default:
				n, errno = 0, e
				return true
			}
		}
	})
	switch {
	case err != nil:
		// A deadline or Close, said as a read of the connection says it.
		var oe *net.OpError
		if errors.As(err, &oe) {
			err = oe.Err
		}
		return 0, &net.OpError{Op: "read", Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
	case errno != 0:
		return 0, &net.OpError{Op: "read", Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

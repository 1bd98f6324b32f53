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
// a small machine costs more CPU than the read itself. Deadlines, Close
// and everything else are the connection's own.
type quietConn struct {
	*net.TCPConn
	rc syscall.RawConn
}

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
				return true
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
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

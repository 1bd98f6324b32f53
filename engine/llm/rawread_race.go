//go:build race

package llm

import (
	"errors"
	"syscall"
)

// rawRead reads fd once. Under the race detector it goes through
// syscall.Read, which tells the detector that what a writer wrote before
// the bytes it reads happened before the read, as every read of a
// connection does; the raw call (rawread.go) would hide that.
func rawRead(fd uintptr, p []byte) (int, syscall.Errno) {
	n, err := syscall.Read(int(fd), p)
	var e syscall.Errno
	if err != nil && !errors.As(err, &e) {
		e = syscall.EIO
	}
	return max(n, 0), e
}

// setLowat sets the socket's SO_RCVLOWAT.
func setLowat(fd uintptr, v int32) syscall.Errno {
	err := syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVLOWAT, int(v))
	var e syscall.Errno
	if err != nil && !errors.As(err, &e) {
		e = syscall.EINVAL
	}
	return e
}

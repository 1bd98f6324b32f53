//go:build race

package term

import (
	"errors"
	"syscall"
)

// rawWrite writes p to fd once. Under the race detector it goes through
// syscall.Write, which tells the detector that what was done before the
// write happened before a read of its bytes; the raw call (rawwrite.go)
// would hide that.
func rawWrite(fd uintptr, p []byte) (int, syscall.Errno) {
	n, err := syscall.Write(int(fd), p)
	var e syscall.Errno
	if err != nil && !errors.As(err, &e) {
		e = syscall.EIO
	}
	return max(n, 0), e
}

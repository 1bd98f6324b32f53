//go:build !race

package term

import (
	"syscall"
	"unsafe"
)

// rawWrite writes p to fd once with a raw system call (see TryWrite).
func rawWrite(fd uintptr, p []byte) (int, syscall.Errno) {
	r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return int(r), e
}

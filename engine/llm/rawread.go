//go:build !race

package llm

import (
	"syscall"
	"unsafe"
)

// rawRead reads fd once with a raw system call (see quietConn).
func rawRead(fd uintptr, p []byte) (int, syscall.Errno) {
	r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return int(r), e
}

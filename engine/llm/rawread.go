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

// setLowat sets the socket's SO_RCVLOWAT with a raw system call.
func setLowat(fd uintptr, v int32) syscall.Errno {
	_, _, e := syscall.RawSyscall6(syscall.SYS_SETSOCKOPT, fd, syscall.SOL_SOCKET, syscall.SO_RCVLOWAT, uintptr(unsafe.Pointer(&v)), 4, 0)
	return e
}

package term

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// stderrRedirect points file descriptor 2 elsewhere while the interface
// owns the screen: a stray write to stderr (a library's log line, a C
// dependency's warning) would otherwise land in the middle of a frame. The
// original is put back whenever the terminal is given back, so a panic
// message after RestoreOnPanic, or a child run by HandOff, sees the real
// stderr.
type stderrRedirect struct {
	to    *os.File
	saved int // a duplicate of the original fd 2 while redirected, else -1
}

func (r *stderrRedirect) apply() error {
	if r.to == nil || r.saved >= 0 {
		return nil
	}
	saved, err := unix.FcntlInt(2, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return fmt.Errorf("redirect stderr: %w", err)
	}
	if err := unix.Dup3(int(r.to.Fd()), 2, 0); err != nil {
		unix.Close(saved)
		return fmt.Errorf("redirect stderr: %w", err)
	}
	r.saved = saved
	return nil
}

func (r *stderrRedirect) undo() {
	if r.saved < 0 {
		return
	}
	_ = unix.Dup3(r.saved, 2, 0)
	_ = unix.Close(r.saved)
	r.saved = -1
}

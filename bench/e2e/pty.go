package e2e

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// pty is a pseudo-terminal pair: the program under test gets the slave as
// its controlling terminal, the harness plays the terminal emulator on
// the master.
type pty struct {
	master, slave *os.File
}

// openPTY opens a pseudo-terminal of w×h cells.
func openPTY(w, h int) (*pty, error) {
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open a pseudo-terminal: %w", err)
	}
	var n int
	err = control(master, func(fd int) error {
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return fmt.Errorf("unlock the pseudo-terminal: %w", err)
		}
		var err error
		n, err = unix.IoctlGetInt(fd, unix.TIOCGPTN)
		return err
	})
	if err != nil {
		master.Close()
		return nil, err
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, fmt.Errorf("open the pseudo-terminal's slave: %w", err)
	}
	p := &pty{master: master, slave: slave}
	if err := p.setSize(w, h); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

func (p *pty) setSize(w, h int) error {
	return control(p.master, func(fd int) error {
		return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(w), Row: uint16(h)})
	})
}

func (p *pty) close() {
	p.slave.Close()
	p.master.Close()
}

func control(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

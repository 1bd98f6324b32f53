package sandbox

import (
	"errors"
	"syscall"

	seccomp "github.com/elastic/go-seccomp-bpf"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Detect asks the kernel what it supports: the Landlock ABI version (with
// landlock_create_ruleset's version query) and whether seccomp filters
// can be installed.
func Detect() Support {
	var s Support
	v, err := llsys.LandlockGetABIVersion()
	switch {
	case err == nil:
		s.LandlockABI = v
	case errors.Is(err, syscall.ENOSYS):
		s.LandlockReason = "the kernel has no Landlock support"
	case errors.Is(err, syscall.EOPNOTSUPP):
		s.LandlockReason = "Landlock is built in but disabled; add landlock to the lsm= boot parameter"
	default:
		s.LandlockReason = err.Error()
	}
	s.Seccomp = seccomp.Supported()
	return s
}

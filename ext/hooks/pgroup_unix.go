//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts the hook in a process group of its own and
// makes stopping it stop the whole group, so a timed-out hook's children
// do not live on.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

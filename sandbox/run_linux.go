package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Command is a program to run under a profile.
type Command struct {
	// Argv is the program and its arguments; Argv[0] is looked up in PATH.
	Argv []string
	// Dir is the working directory.
	Dir string
	// Env is the complete environment (see CommandEnv).
	Env []string
	// Output receives stdout and stderr, interleaved as written. It is
	// called from one goroutine at a time.
	Output io.Writer
	// Grace is how long the process group gets between SIGTERM and
	// SIGKILL when cancelled; 0 means DefaultGrace.
	Grace time.Duration
}

// DefaultGrace is the pause between SIGTERM and SIGKILL.
const DefaultGrace = 2 * time.Second

// drainAfterExit bounds how long output is still read after the process
// group is gone; a process that escaped the group with setsid(2) may keep
// the pipe open forever.
const drainAfterExit = time.Second

// Exit describes how a command ended.
type Exit struct {
	// Code is the exit status, or 128+signal when killed by a signal.
	Code int
	// Signal names the signal that killed the command, if any.
	Signal string
	// Cancelled reports that ctx ended the command (cancel or timeout).
	Cancelled bool
}

// Run runs c confined to p (see Launch), in a session and process group
// of its own with stdin from /dev/null and no controlling terminal. When
// ctx ends, or when the command's main process exits, every process left
// in its group gets SIGTERM and, after the grace period, SIGKILL. The
// group is only ever signalled while its leader is unreaped, so its id
// cannot have been reused. An error means the command did not run (for
// example, p cannot be enforced on this kernel).
func Run(ctx context.Context, p Profile, s Support, c Command) (Exit, error) {
	if len(c.Argv) == 0 {
		return Exit{}, errors.New("no command given")
	}
	if err := p.Check(s); err != nil {
		return Exit{}, err
	}
	cmd, err := launcherCommand(p, c)
	if err != nil {
		return Exit{}, err
	}
	grace := c.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return Exit{}, err
	}
	cmd.Stdout, cmd.Stderr = pw, pw

	// Pdeathsig is tied to the thread that forks; keep one thread for the
	// command's whole life so the child is killed if quire dies, not when
	// the Go runtime retires an idle thread.
	started := make(chan error, 1)
	result := make(chan Exit, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		result <- supervise(ctx, cmd, grace)
	}()
	err = <-started
	pw.Close()
	if err != nil {
		pr.Close()
		return Exit{}, startError(p, err)
	}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		if c.Output != nil {
			io.Copy(c.Output, pr)
		} else {
			io.Copy(io.Discard, pr)
		}
	}()
	exit := <-result
	select {
	case <-copied:
	case <-time.After(drainAfterExit):
	}
	pr.Close()
	<-copied
	return exit, nil
}

// supervise waits for the group leader to exit without reaping it, ends
// the rest of its group, then reaps it.
func supervise(ctx context.Context, cmd *exec.Cmd, grace time.Duration) Exit {
	pid := cmd.Process.Pid
	exited := make(chan struct{})
	go func() {
		var info unix.Siginfo
		for {
			err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
			if err != unix.EINTR {
				break
			}
		}
		close(exited)
	}()
	cancelled := false
	select {
	case <-exited:
	case <-ctx.Done():
		cancelled = true
		killGroup(pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(grace):
			killGroup(pid, syscall.SIGKILL)
			<-exited
		}
	}
	// The leader is a zombie: its pid, and so the group id, stay reserved
	// until the reap below. End whatever it left behind.
	if groupAlive(pid) {
		killGroup(pid, syscall.SIGTERM)
		deadline := time.Now().Add(grace)
		for groupAlive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		killGroup(pid, syscall.SIGKILL)
	}
	cmd.Wait()
	exit := Exit{Cancelled: cancelled}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		exit.Code = 128 + int(ws.Signal())
		exit.Signal = unix.SignalName(ws.Signal())
	} else {
		exit.Code = cmd.ProcessState.ExitCode()
	}
	return exit
}

func killGroup(pgid int, sig syscall.Signal) { _ = syscall.Kill(-pgid, sig) }

// groupAlive reports whether any process other than a zombie leader is
// left in the group: kill(-pgid, 0) succeeds while the group has members,
// and the unreaped leader always is one, so look for others in /proc.
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil || pid == pgid {
			continue
		}
		if g, err := syscall.Getpgid(pid); err == nil && g == pgid {
			if !isZombie(pid) {
				return true
			}
		}
	}
	return false
}

func isZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name, which may itself
	// contain parentheses: find the last ')'.
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == ')' {
			return i+2 < len(b) && (b[i+2] == 'Z' || b[i+2] == 'X')
		}
	}
	return false
}

// launcherCommand builds the exec.Cmd: the program itself for off, the
// launcher re-exec for every enforced profile, in a private user and
// mount namespace when protected paths need read-only binds.
func launcherCommand(p Profile, c Command) (*exec.Cmd, error) {
	attr := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if !p.Enforced {
		path, err := exec.LookPath(c.Argv[0])
		if err != nil {
			return nil, err
		}
		cmd := &exec.Cmd{Path: path, Args: c.Argv, Dir: c.Dir, Env: c.Env, SysProcAttr: attr}
		return cmd, nil
	}
	if !launcherReady.Load() {
		return nil, errors.New("this program never called sandbox.MaybeLaunch, so it cannot act as the sandbox launcher; call it first thing in main (and in TestMain)")
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find quire's own executable for the sandbox launcher: %w", err)
	}
	spec, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	env := c.Env
	if len(protectedTargets(p)) > 0 {
		env = append(append([]string(nil), env...), inPrivateNamespaceEnv+"=1")
		attr.Cloneflags = syscall.CLONE_NEWNS
		if uid := os.Getuid(); uid != 0 {
			attr.Cloneflags |= syscall.CLONE_NEWUSER
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
			attr.GidMappingsEnableSetgroups = false
			// Keep CAP_SYS_ADMIN (in the new namespace only) across the
			// exec into the launcher, which drops it before the command.
			attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN}
		}
	}
	args := append([]string{self, LauncherArg, string(spec)}, c.Argv...)
	return &exec.Cmd{Path: self, Args: args, Dir: c.Dir, Env: env, SysProcAttr: attr}, nil
}

// startError explains a failed start, naming user namespaces when the
// private mount namespace could not be created.
func startError(p Profile, err error) error {
	if len(protectedTargets(p)) > 0 && (errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EUSERS)) {
		return fmt.Errorf("sandbox profile %q needs a private user and mount namespace to keep %v read-only for commands, and this system refused one (%w); enable unprivileged user namespaces, or pick another profile with --sandbox NAME", p.Name, protectedTargets(p), err)
	}
	return fmt.Errorf("start command: %w", err)
}

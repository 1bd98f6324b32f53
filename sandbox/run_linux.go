package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
	// Grace is how long the command's processes get between SIGTERM and
	// SIGKILL; 0 means DefaultGrace.
	Grace time.Duration
}

// DefaultGrace is the pause between SIGTERM and SIGKILL.
const DefaultGrace = 2 * time.Second

// drainAfterExit bounds how long output is still read after the launcher
// exited; if the launcher was killed before it could end the command's
// processes, a survivor may hold the pipe open forever.
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

// Run runs c confined to p through the launcher (see Launch), in a
// session of its own with stdin from /dev/null and no controlling
// terminal. When ctx ends, or when the command's main process exits, every
// process it left behind gets SIGTERM and, after the grace period,
// SIGKILL (see supervise); if quire dies, the kernel tells the launcher to
// do the same. An error means the command did not run (for example, p
// cannot be enforced on this kernel).
func Run(ctx context.Context, p Profile, s Support, c Command) (Exit, error) {
	if len(c.Argv) == 0 {
		return Exit{}, errors.New("no command given")
	}
	if err := p.Check(s); err != nil {
		return Exit{}, err
	}
	grace := c.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	cmd, err := launcherCommand(p, c, grace)
	if err != nil {
		return Exit{}, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return Exit{}, err
	}
	cmd.Stdout, cmd.Stderr = pw, pw

	// Pdeathsig is tied to the thread that forks; keep one thread for the
	// command's whole life so the launcher is told when quire dies, not
	// when the Go runtime retires an idle thread.
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
		result <- waitLauncher(ctx, cmd, grace)
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

// waitLauncher waits for the launcher to exit without reaping it, asks
// it to stop when ctx ends (it then ends the command's whole tree, see
// supervise), and reaps it. The launcher is only signalled while
// unreaped, so its pid cannot have been reused.
func waitLauncher(ctx context.Context, cmd *exec.Cmd, grace time.Duration) Exit {
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
		_ = syscall.Kill(pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(grace + launcherSlack):
			// The launcher is stuck: kill it and its group. Its
			// descendants then lose their reaper, the one case where
			// something may survive.
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			<-exited
		}
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

// launcherSlack is how long past the grace period the launcher may take
// to clean up before it is killed.
const launcherSlack = 3 * time.Second

// launcherCommand builds the exec.Cmd: the program itself for off, the
// launcher re-exec for every enforced profile, in a private user and
// mount namespace when protected paths need read-only binds.
func launcherCommand(p Profile, c Command, grace time.Duration) (*exec.Cmd, error) {
	// SIGTERM, not SIGKILL, when quire dies: the launcher then ends the
	// command's whole tree before exiting.
	attr := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGTERM}
	if !launcherReady.Load() {
		return nil, errors.New("this program never called sandbox.MaybeLaunch, so it cannot act as the sandbox launcher; call it first thing in main (and in TestMain)")
	}
	// /proc/self/exe is this very binary even if the file was replaced
	// (an upgrade during a session) or the process was started by a
	// relative path.
	const self = "/proc/self/exe"
	spec, err := json.Marshal(launchSpec{Profile: p, GraceMS: grace.Milliseconds()})
	if err != nil {
		return nil, err
	}
	env := c.Env
	if p.Enforced && len(protectedTargets(p)) > 0 {
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
	args := append([]string{filepath.Base(os.Args[0]), LauncherArg, string(spec)}, c.Argv...)
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

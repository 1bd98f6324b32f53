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
	"strings"
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
	// Processes is the cap on the command's processes and threads.
	Processes ProcessCap
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
	plan, err := planLaunch(p, c, grace)
	if err != nil {
		return Exit{}, err
	}
	defer plan.cleanup()
	pr, pw, err := os.Pipe()
	if err != nil {
		return Exit{}, err
	}

	// Pdeathsig is tied to the thread that forks; keep one thread for the
	// command's whole life (startLocked) so the launcher is told when
	// quire dies, not when the Go runtime retires an idle thread.
	result := make(chan Exit, 1)
	launch := func(cmd *exec.Cmd) error {
		cmd.Stdout, cmd.Stderr = pw, pw
		return startLocked(cmd, func() { result <- waitLauncher(ctx, cmd, grace) })
	}
	err = launch(plan.cmd)
	if err != nil && plan.optionalUserNS && isNamespaceRefusal(err) {
		// The user namespace was only for the process cap: run without.
		plan.dropUserNS()
		err = launch(plan.cmd)
	}
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
	exit.Processes = plan.finish()
	return exit, nil
}

// startLocked starts cmd on a goroutine that stays locked to its thread
// for the command's whole life (Run's and Start's), so the launcher's
// parent-death signal is tied to quire, not to an idle thread; then runs
// wait on it. It returns Start's error (wait is not run then).
func startLocked(cmd *exec.Cmd, wait func()) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		wait()
	}()
	return <-started
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

// launchPlan is how one command is started: the launcher's exec.Cmd and
// how its processes are capped.
type launchPlan struct {
	cmd *exec.Cmd
	// optionalUserNS: the user namespace serves only the process cap, so
	// a system refusing it gets the command run without a cap.
	optionalUserNS bool
	cgroup         *pidsCgroup
	cap            ProcessCap
	p              Profile
	c              Command
	grace          time.Duration
}

// planLaunch builds the launcher's command: the launcher re-exec for every
// profile (off included, for its process supervision), in a private
// mount namespace when protected paths need read-only binds, in a user
// namespace when quire is not root and needs one for those binds or for
// the process cap, and with a pids cgroup when quire is root.
func planLaunch(p Profile, c Command, grace time.Duration) (*launchPlan, error) {
	if !launcherReady.Load() {
		return nil, errors.New("this program never called sandbox.MaybeLaunch, so it cannot act as the sandbox launcher; call it first thing in main (and in TestMain)")
	}
	if p.Enforced {
		// A repository created since the profile was built (git init
		// in an earlier command), or the one a workdir lies in, counts
		// from this command on.
		for _, d := range appendUnique([]string{p.Dir}, c.Dir) {
			if d != "" {
				p.Protect = appendUnique(p.Protect, gitProtected(d, p.GitWrites, os.Getenv)...)
			}
		}
		p.Protect = outermost(p.Protect)
	}
	pl := &launchPlan{p: p, c: c, grace: grace}
	spec := launchSpec{Profile: p, GraceMS: grace.Milliseconds()}
	mounts := p.Enforced && len(protectedTargets(p)) > 0
	limit := 0
	if p.Enforced {
		limit = p.MaxProcesses
	}
	userNS := os.Getuid() != 0 && (mounts || limit > 0)
	switch {
	case limit == 0 && !p.Enforced:
		pl.cap.Why = "the off profile caps nothing"
	case limit == 0:
		pl.cap.Why = "max_processes is 0"
	case os.Getuid() == 0:
		// Root is exempt from RLIMIT_NPROC; only a cgroup binds it.
		cg, err := newPidsCgroup(limit)
		if err != nil {
			pl.cap.Why = "no pids cgroup could be created (" + err.Error() + ")"
			break
		}
		pl.cgroup, spec.Cgroup = cg, cg.dir
		pl.cap = ProcessCap{Limit: limit, Method: cg.method, Measured: true}
	case !mounts && userNSRestricted():
		pl.cap.Why = "AppArmor keeps unprivileged user namespaces powerless (kernel.apparmor_restrict_unprivileged_userns = 1), and RLIMIT_NPROC needs one to count one command's processes"
		userNS = false
	default:
		spec.Rlimit = limit
		pl.cap = ProcessCap{Limit: limit, Method: CapRlimit}
		pl.optionalUserNS = !mounts
	}
	attr := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGTERM}
	env := c.Env
	if mounts {
		env = append(append([]string(nil), env...), inPrivateNamespaceEnv+"=1")
		attr.Cloneflags = syscall.CLONE_NEWNS
	}
	if userNS {
		// quire is not dumpable (Harden), so it cannot write the new
		// namespace's id maps; the launcher, dumpable again after its
		// exec, maps itself.
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		spec.MapUser, spec.UID, spec.GID = true, os.Getuid(), os.Getgid()
		// Keep CAP_SYS_ADMIN (in the new namespace only) across the
		// exec into the launcher, which needs it to map itself and for
		// the binds, and drops it before the command.
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN}
	}
	// SIGTERM, not SIGKILL, when quire dies: the launcher then ends the
	// command's whole tree before exiting. /proc/self/exe is this very
	// binary even if the file was replaced (an upgrade during a session)
	// or the process was started by a relative path.
	const self = "/proc/self/exe"
	specJSON, err := json.Marshal(spec)
	if err != nil {
		pl.cleanup()
		return nil, err
	}
	args := append([]string{filepath.Base(os.Args[0]), LauncherArg, string(specJSON)}, c.Argv...)
	pl.cmd = &exec.Cmd{Path: self, Args: args, Dir: c.Dir, Env: env, SysProcAttr: attr}
	return pl, nil
}

// dropUserNS rebuilds the command without the user namespace and without
// the process cap it was for.
func (pl *launchPlan) dropUserNS() {
	p := pl.p
	p.MaxProcesses = 0
	next, err := planLaunch(p, pl.c, pl.grace)
	if err != nil {
		return
	}
	pl.cmd, pl.optionalUserNS = next.cmd, false
	pl.cap = ProcessCap{Why: "this system refuses unprivileged user namespaces, which RLIMIT_NPROC needs to count one command's processes"}
}

// finish reports the process cap once the launcher has exited, and
// removes the cgroup.
func (pl *launchPlan) finish() ProcessCap {
	if pl.cgroup != nil {
		pl.cap.Reached = pl.cgroup.finish()
		pl.cgroup = nil
	}
	return pl.cap
}

func (pl *launchPlan) cleanup() {
	if pl.cgroup != nil {
		pl.cgroup.finish()
		pl.cgroup = nil
	}
}

// userNSRestricted reports whether AppArmor lets unprivileged processes
// create user namespaces only without capabilities in them (Ubuntu 23.10
// and later), so the launcher could not map itself there.
func userNSRestricted() bool {
	b, err := os.ReadFile("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")
	return err == nil && strings.TrimSpace(string(b)) == "1"
}

// isNamespaceRefusal reports whether starting a process failed because
// the system refused a new namespace.
func isNamespaceRefusal(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EUSERS) || errors.Is(err, syscall.EACCES)
}

// startError explains a failed start, naming user namespaces when the
// private mount namespace could not be created.
func startError(p Profile, err error) error {
	if len(protectedTargets(p)) > 0 && isNamespaceRefusal(err) {
		return fmt.Errorf("sandbox profile %q needs a private user and mount namespace to keep %v read-only for commands, and this system refused one (%w); enable unprivileged user namespaces, or pick another profile with --sandbox NAME", p.Name, protectedTargets(p), err)
	}
	return fmt.Errorf("start command: %w", err)
}

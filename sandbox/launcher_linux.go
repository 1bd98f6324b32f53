package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/landlock-lsm/go-landlock/landlock"
	"golang.org/x/sys/unix"
)

// LauncherArg is the hidden first argument that turns the quire binary
// (or a test binary, from TestMain) into the sandbox launcher:
//
//	quire __quire-sandbox-exec SPEC_JSON PROGRAM [ARG...]
const LauncherArg = "__quire-sandbox-exec"

// launchFailed is the exit status of a launcher that could not confine
// itself; it never runs the program then.
const launchFailed = 125

// MaybeLaunch runs the launcher and never returns if os.Args[1] is
// LauncherArg; otherwise it returns at once. Call it first thing in main
// (and in TestMain of packages whose tests run sandboxed commands).
func MaybeLaunch() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case LauncherArg:
			Launch(os.Args[2:])
		case stageArg:
			stage(os.Args[2:])
		}
	}
	launcherReady.Store(true)
}

// launcherReady records that this program hands LauncherArg to Launch.
// Run refuses to re-exec a program that does not: a binary that ignored
// the argument would run its own main (or, for a test binary, its whole
// test suite) in place of the command. It is process-wide by nature.
var launcherReady atomic.Bool

// launchSpec is what Run hands the launcher, as JSON in its first
// argument.
type launchSpec struct {
	Profile Profile `json:"profile"`
	GraceMS int64   `json:"grace_ms"`
	// MapUser, when set, means the launcher was started in a new user
	// namespace without id maps (quire is not dumpable, so it cannot
	// write them): the launcher maps UID and GID to themselves.
	MapUser bool `json:"map_user,omitempty"`
	UID     int  `json:"uid,omitempty"`
	GID     int  `json:"gid,omitempty"`
	// Cgroup is the pids cgroup the command runs in; Rlimit the
	// RLIMIT_NPROC it runs with (see stage). Either caps its processes.
	Cgroup string `json:"cgroup,omitempty"`
	Rlimit int    `json:"rlimit,omitempty"`
}

// Launch confines the current process to the profile encoded in args[0],
// runs args[1:] as its child and supervises it (see supervise); it exits
// with the child's status and never returns. If it cannot confine itself
// it reports on stderr and exits with status 125 without running
// anything.
func Launch(args []string) {
	status, err := launch(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "quire sandbox: %v; the command was not run\n", err)
		os.Exit(launchFailed)
	}
	exitLike(status)
}

func launch(args []string) (syscall.WaitStatus, error) {
	if len(args) < 2 {
		return 0, fmt.Errorf("usage: %s SPEC_JSON PROGRAM [ARG...]", LauncherArg)
	}
	var spec launchSpec
	if err := json.Unmarshal([]byte(args[0]), &spec); err != nil {
		return 0, fmt.Errorf("decode launch spec: %w", err)
	}
	// Keep this goroutine on one thread; the restrictions below apply to
	// every thread anyway.
	runtime.LockOSThread()
	if spec.MapUser {
		if err := mapSelf(spec.UID, spec.GID); err != nil {
			return 0, err
		}
	}
	prog, err := exec.LookPath(args[1])
	if err != nil {
		return 0, err
	}
	// The cgroup is opened now: once confined, the launcher could not.
	var cgroupProcs *os.File
	if spec.Cgroup != "" {
		if cgroupProcs, err = os.OpenFile(filepath.Join(spec.Cgroup, "cgroup.procs"), os.O_WRONLY, 0); err != nil {
			return 0, fmt.Errorf("open the command's cgroup: %w", err)
		}
		defer cgroupProcs.Close()
	}
	if spec.Profile.Enforced {
		if err := confine(spec.Profile); err != nil {
			return 0, err
		}
	}
	// The launcher holds nothing secret, but nothing inside should be
	// able to steer the process that ends the command's tree.
	if err := Harden(); err != nil {
		return 0, err
	}
	grace := time.Duration(spec.GraceMS) * time.Millisecond
	if grace <= 0 {
		grace = DefaultGrace
	}
	return supervise(prog, args[1:], grace, stagePlan{cgroupProcs: cgroupProcs, rlimit: spec.Rlimit})
}

// mapSelf maps the launcher's user and group to themselves in the user
// namespace it was started in, as `unshare -r` does for itself.
func mapSelf(uid, gid int) error {
	for _, w := range []struct{ file, data string }{
		{"/proc/self/setgroups", "deny"},
		{"/proc/self/uid_map", fmt.Sprintf("%d %d 1", uid, uid)},
		{"/proc/self/gid_map", fmt.Sprintf("%d %d 1", gid, gid)},
	} {
		if err := os.WriteFile(w.file, []byte(w.data), 0); err != nil {
			return fmt.Errorf("map the user namespace (%s): %w", w.file, err)
		}
	}
	return nil
}

// exitLike ends the launcher the way its child ended: with the same exit
// code, or killed by the same signal.
func exitLike(ws syscall.WaitStatus) {
	if ws.Signaled() {
		sig := ws.Signal()
		signal.Reset(sig)
		syscall.Kill(os.Getpid(), sig)
		time.Sleep(100 * time.Millisecond) // the signal may be ignorable
		os.Exit(128 + int(sig))
	}
	os.Exit(ws.ExitStatus())
}

// confine applies p to the whole process: the read-only binds of the
// protected paths (when running in a private mount namespace), then drops
// capabilities, then Landlock, then the seccomp filter. All of it is
// inherited across exec and by every descendant, and none of it can be
// undone.
func confine(p Profile) error {
	s := Detect()
	if err := p.Check(s); err != nil {
		return err
	}
	if err := protectMounts(p); err != nil {
		return fmt.Errorf("cannot keep the git metadata and quire's configuration read-only for the command: %w; "+
			"this needs user namespaces (on Ubuntu: sysctl kernel.apparmor_restrict_unprivileged_userns=0), or pick another profile with --sandbox NAME", err)
	}
	if err := dropCapabilities(p.Network); err != nil {
		return err
	}
	cfg, rules, err := landlockPlan(p, s.LandlockABI)
	if err != nil {
		return err
	}
	// The stage (see supervise) is this very binary.
	rules = append(rules, landlock.PathAccess(execRights&cfg.HandledAccessFS, "/proc/self/exe"))
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	if !p.Network {
		if err := loadNetworkFilter(s.TCPRules()); err != nil {
			return err
		}
	}
	// Landlock already set no_new_privs; setting it again is harmless and
	// keeps the invariant visible here.
	return unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
}

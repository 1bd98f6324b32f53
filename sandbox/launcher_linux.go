package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// LauncherArg is the hidden first argument that turns the quire binary
// (or a test binary, from TestMain) into the sandbox launcher:
//
//	quire __quire-sandbox-exec PROFILE_JSON PROGRAM [ARG...]
const LauncherArg = "__quire-sandbox-exec"

// launchFailed is the exit status of a launcher that could not confine
// itself; it never runs the program then.
const launchFailed = 125

// MaybeLaunch runs the launcher and never returns if os.Args[1] is
// LauncherArg; otherwise it returns at once. Call it first thing in main
// (and in TestMain of packages whose tests run sandboxed commands).
func MaybeLaunch() {
	if len(os.Args) > 1 && os.Args[1] == LauncherArg {
		Launch(os.Args[2:])
	}
	launcherReady.Store(true)
}

// launcherReady records that this program hands LauncherArg to Launch.
// Run refuses to re-exec a program that does not: a binary that ignored
// the argument would run its own main (or, for a test binary, its whole
// test suite) in place of the command. It is process-wide by nature.
var launcherReady atomic.Bool

// Launch confines the current process to the profile encoded in args[0]
// and execs args[1:]. It never returns: on any failure it reports on
// stderr and exits with status 125 without running the program.
func Launch(args []string) {
	if err := launch(args); err != nil {
		fmt.Fprintf(os.Stderr, "quire sandbox: %v; the command was not run\n", err)
		os.Exit(launchFailed)
	}
	panic("unreachable")
}

func launch(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: %s PROFILE_JSON PROGRAM [ARG...]", LauncherArg)
	}
	var p Profile
	if err := json.Unmarshal([]byte(args[0]), &p); err != nil {
		return fmt.Errorf("decode profile: %w", err)
	}
	prog, err := exec.LookPath(args[1])
	if err != nil {
		return err
	}
	// Keep this goroutine on one thread through exec; the restrictions
	// below apply to every thread anyway.
	runtime.LockOSThread()
	if p.Enforced {
		if err := confine(p); err != nil {
			return err
		}
	}
	return syscall.Exec(prog, args[1:], os.Environ())
}

// confine applies p to the whole process: the read-only binds of the
// protected paths (when running in a private mount namespace), then
// Landlock, then the seccomp network filter. All of it is inherited
// across exec and by every descendant, and none of it can be undone.
func confine(p Profile) error {
	s := Detect()
	if err := p.Check(s); err != nil {
		return err
	}
	if err := protectMounts(p); err != nil {
		return err
	}
	cfg, rules, err := landlockPlan(p, s.LandlockABI)
	if err != nil {
		return err
	}
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

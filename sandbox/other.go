//go:build !linux

package sandbox

import (
	"context"
	"errors"
	"io"
	"os"
	"time"
)

// LauncherArg is the hidden first argument of the sandbox launcher.
const LauncherArg = "__quire-sandbox-exec"

// Detect reports no kernel sandbox: quire's enforcement is Linux-only.
func Detect() Support { return Support{LandlockReason: "Landlock is Linux-only"} }

// MaybeLaunch returns unless os.Args[1] is LauncherArg.
func MaybeLaunch() {
	if len(os.Args) > 1 && os.Args[1] == LauncherArg {
		Launch(os.Args[2:])
	}
}

// Launch refuses: there is nothing to confine with on this system.
func Launch(args []string) {
	os.Stderr.WriteString("quire sandbox: sandboxed commands need Linux with Landlock; the command was not run\n")
	os.Exit(125)
}

// Command is a program to run under a profile.
type Command struct {
	Argv   []string
	Dir    string
	Env    []string
	Output io.Writer
	Grace  time.Duration
}

// Exit describes how a command ended.
type Exit struct {
	Code      int
	Signal    string
	Cancelled bool
	Processes ProcessCap
}

// Harden has nothing to do without the Linux sandbox.
func Harden() error { return nil }

// Run refuses on systems without the Linux sandbox.
func Run(ctx context.Context, p Profile, s Support, c Command) (Exit, error) {
	return Exit{}, errors.New("running commands is only supported on Linux")
}

// Process is a command started with Start; nothing can be started
// without the Linux sandbox.
type Process struct {
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
}

// Start refuses on systems without the Linux sandbox.
func Start(p Profile, s Support, c Command) (*Process, error) {
	return nil, errors.New("running commands is only supported on Linux")
}

// Done is never closed: no Process is ever started here.
func (p *Process) Done() <-chan struct{} { return nil }

// Exit is the zero Exit.
func (p *Process) Exit() Exit { return Exit{} }

// Close does nothing.
func (p *Process) Close(wait time.Duration) Exit { return Exit{} }

// Finding is the outcome of one self-test check.
type Finding struct {
	Check  string
	OK     bool
	Detail string
}

// SelfTest has nothing to test without the Linux sandbox.
func SelfTest(ctx context.Context, s Support) []Finding {
	return []Finding{{"kernel sandbox", false, "only available on Linux"}}
}

// ProfileReport has nothing to report without the Linux sandbox.
func ProfileReport(ctx context.Context, p Profile, s Support, environ []string, probe bool) string {
	return "Profile " + p.Name + ": commands are only supported on Linux\n"
}

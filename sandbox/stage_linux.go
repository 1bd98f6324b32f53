package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// stageArg is the hidden first argument that turns the quire binary into
// the stage between the launcher and the command:
//
//	quire __quire-sandbox-stage RLIMIT WAIT PROGRAM [ARG...]
//
// It exists because a process cap must bind the command's tree but not
// the launcher, which must keep creating threads to end that tree when it
// reaches the cap. The stage sets RLIMIT_NPROC to RLIMIT when that is
// positive (counted per user in the launcher's user namespace, so the
// launcher's own threads, bound by its unlimited rlimit, still start);
// when WAIT is 1 it waits for the launcher to move it into the command's
// cgroup (a byte on fd 3); then it executes PROGRAM in its place.
const stageArg = "__quire-sandbox-stage"

// stagePlan is how supervise caps the command's processes.
type stagePlan struct {
	cgroupProcs *os.File // the cgroup's cgroup.procs, opened before confinement
	rlimit      int
}

func (s stagePlan) needed() bool { return s.cgroupProcs != nil || s.rlimit > 0 }

// stage runs the stage described at stageArg and never returns.
func stage(args []string) {
	err := runStage(args)
	fmt.Fprintf(os.Stderr, "quire sandbox: %v; the command was not run\n", err)
	os.Exit(launchFailed)
}

func runStage(args []string) error {
	if len(args) < 3 {
		return fmt.Errorf("usage: %s RLIMIT WAIT PROGRAM [ARG...]", stageArg)
	}
	limit, err := strconv.Atoi(args[0])
	if err != nil {
		return fmt.Errorf("stage: bad RLIMIT %q", args[0])
	}
	if limit > 0 {
		if err := setProcessRlimit(limit); err != nil {
			return err
		}
	}
	if args[1] == "1" {
		ready := os.NewFile(3, "cgroup-ready")
		var b [1]byte
		if n, _ := ready.Read(b[:]); n != 1 {
			return fmt.Errorf("the launcher could not move the command into its cgroup")
		}
		ready.Close()
	}
	prog, err := exec.LookPath(args[2])
	if err != nil {
		return err
	}
	return syscall.Exec(prog, args[2:], os.Environ())
}

package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// supervise runs prog as the launcher's child, in a process group of its
// own, and makes sure nothing it started outlives it. The launcher is a
// child subreaper, so every orphaned descendant (including one that left
// the group with setsid) is re-parented to it and stays findable. When the
// child exits, or the launcher is told to stop (SIGTERM from Run on cancel,
// or from the kernel when quire dies), every remaining descendant gets
// SIGTERM, then SIGKILL after grace. The child's group is signalled only
// while the child is unreaped, and other descendants through pidfds whose
// parentage is checked after opening, so a reused pid is never signalled.
func supervise(prog string, argv []string, grace time.Duration, procCap stagePlan) (syscall.WaitStatus, error) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("become a child subreaper: %w", err)
	}
	stop := make(chan os.Signal, 4)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	files := []*os.File{os.Stdin, os.Stdout, os.Stderr}
	var ready, readyR *os.File
	if procCap.needed() {
		wait := "0"
		if procCap.cgroupProcs != nil {
			r, w, err := os.Pipe()
			if err != nil {
				return 0, err
			}
			defer w.Close()
			files, ready, readyR, wait = append(files, r), w, r, "1"
		}
		limit := 0
		if procCap.rlimit > 0 {
			// RLIMIT_NPROC counts the launcher's threads too.
			limit = procCap.rlimit + threadCount()
		}
		argv = append([]string{argv[0], stageArg, strconv.Itoa(limit), wait, prog}, argv[1:]...)
		prog = "/proc/self/exe"
	}
	proc, err := os.StartProcess(prog, argv, &os.ProcAttr{
		Env:   os.Environ(),
		Files: files,
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if readyR != nil {
		readyR.Close()
	}
	if err != nil {
		return 0, err
	}
	if ready != nil {
		_, err := procCap.cgroupProcs.WriteString(strconv.Itoa(proc.Pid))
		if err == nil {
			_, err = ready.Write([]byte{1})
		}
		ready.Close()
		if err != nil {
			proc.Kill()
			proc.Wait()
			return 0, fmt.Errorf("move the command into its cgroup: %w", err)
		}
	}
	pid := proc.Pid
	exited := make(chan struct{})
	go reapOrphansUntil(pid, exited)
	select {
	case <-exited:
	case <-stop:
	}
	endDescendants(pid, grace)
	<-exited
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			break
		}
	}
	reapAll(time.Now().Add(time.Second))
	return ws, nil
}

// reapOrphansUntil reaps adopted orphans as they exit, and closes exited
// when the main child has exited, leaving it unreaped so its process
// group id stays reserved.
func reapOrphansUntil(child int, exited chan<- struct{}) {
	defer close(exited)
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return // ECHILD: nothing left, so the child is gone too
		}
		who := int(siginfoPid(&info))
		if who == child {
			return
		}
		var ws syscall.WaitStatus
		syscall.Wait4(who, &ws, syscall.WNOHANG, nil)
	}
}

// endDescendants sends SIGTERM to the child's group and every other
// descendant, waits up to grace for them to exit, then sends SIGKILL
// until none is left running.
func endDescendants(child int, grace time.Duration) {
	if len(liveDescendants()) == 0 {
		return // the usual case: nothing was left behind
	}
	signalTree(child, syscall.SIGTERM)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if len(liveDescendants()) == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i := 0; i < 200 && len(liveDescendants()) > 0; i++ {
		signalTree(child, syscall.SIGKILL)
		time.Sleep(10 * time.Millisecond)
	}
}

func signalTree(child int, sig syscall.Signal) {
	_ = syscall.Kill(-child, sig) // the child is unreaped: its group id is ours
	for _, pid := range liveDescendants() {
		signalDescendant(pid, sig)
	}
}

// signalDescendant signals pid through a pidfd, after checking that the
// process the pidfd refers to is still one of ours.
func signalDescendant(pid int, sig syscall.Signal) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	if !isDescendant(pid, os.Getpid()) {
		return
	}
	_ = unix.PidfdSendSignal(fd, sig, nil, 0)
}

// liveDescendants lists the launcher's descendants that are not zombies.
func liveDescendants() []int {
	self := os.Getpid()
	procs := readProcs()
	var out []int
	for pid, p := range procs {
		if p.zombie || pid == self {
			continue
		}
		for anc, hops := p.ppid, 0; anc > 1 && hops < 4096; anc, hops = procs[anc].ppid, hops+1 {
			if anc == self {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

func isDescendant(pid, ancestor int) bool {
	for hops := 0; pid > 1 && hops < 4096; hops++ {
		p, ok := readProc(pid)
		if !ok {
			return false
		}
		if p.ppid == ancestor {
			return true
		}
		pid = p.ppid
	}
	return false
}

type procInfo struct {
	ppid   int
	zombie bool
}

func readProcs() map[int]procInfo {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	out := make(map[int]procInfo, len(names))
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			out[pid] = p
		}
	}
	return out
}

// readProc parses /proc/PID/stat: the state and parent pid follow the
// command name, which is in parentheses and may contain anything.
func readProc(pid int) (procInfo, bool) {
	// Raw syscalls: os.Open would try to register each /proc file with
	// the poller, which doubles the cost of a scan.
	fd, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return procInfo{}, false
	}
	var buf [1024]byte
	n, err := unix.Read(fd, buf[:])
	unix.Close(fd)
	if err != nil || n <= 0 {
		return procInfo{}, false
	}
	b := buf[:n]
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return procInfo{}, false
	}
	fields := bytes.Fields(b[i+2:])
	if len(fields) < 2 {
		return procInfo{}, false
	}
	ppid, _ := strconv.Atoi(string(fields[1]))
	state := fields[0][0]
	return procInfo{ppid: ppid, zombie: state == 'Z' || state == 'X'}, true
}

// reapAll collects every remaining child until none is left or the
// deadline passes.
func reapAll(deadline time.Time) {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		switch {
		case err == syscall.EINTR || pid > 0:
			continue
		case err != nil:
			return // ECHILD
		}
		if time.Now().After(deadline) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// siginfoPid reads si_pid from a waitid result. It sits at the start of
// the union after three ints, which is aligned to the word size.
func siginfoPid(info *unix.Siginfo) int32 {
	off := uintptr(12)
	if unsafe.Sizeof(uintptr(0)) == 8 {
		off = 16
	}
	return *(*int32)(unsafe.Add(unsafe.Pointer(info), off))
}

// threadCount is how many threads this process has.
func threadCount() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

//go:build linux

package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/quire-sh/quire/sandbox/sandboxtest"
)

// The test binary doubles as the programs the trust tests need inside the
// sandbox (there may be no python or gdb on the machine):
//
//	sandbox.test __attack PID SECRET   try every way to read or steer PID
//	sandbox.test __unix PATH ABSTRACT  try every kind of AF_UNIX socket
//	sandbox.test __forks N             start N sleeping children
//
// Each prints one line per attempt, "LEAK ..." or "OPEN ..." for what
// got through and "denied ..." for what did not.
const attackArg = "__attack"

func helperMain() {
	if len(os.Args) < 2 {
		return
	}
	switch os.Args[1] {
	case attackArg:
		pid, _ := strconv.Atoi(os.Args[2])
		attackProcess(pid, os.Args[3])
	case "__unix":
		tryUnixSockets(os.Args[2], os.Args[3])
	case "__forks":
		n, _ := strconv.Atoi(os.Args[2])
		startChildren(n)
	default:
		return
	}
	os.Exit(0)
}

func report(what string, leaked bool, err error) {
	if leaked {
		fmt.Printf("LEAK %s\n", what)
		return
	}
	fmt.Printf("denied %s: %v\n", what, err)
}

// attackProcess tries to read secret out of pid, or to get a hold on it.
func attackProcess(pid int, secret string) {
	proc := "/proc/" + strconv.Itoa(pid)
	b, err := os.ReadFile(proc + "/environ")
	report("environ", bytes.Contains(b, []byte(secret)), err)
	tasks, _ := os.ReadDir(proc + "/task")
	for _, task := range tasks {
		b, err := os.ReadFile(proc + "/task/" + task.Name() + "/environ")
		report("task "+task.Name()+" environ", bytes.Contains(b, []byte(secret)), err)
		b, err = os.ReadFile("/proc/" + task.Name() + "/environ")
		report("thread "+task.Name()+" environ", bytes.Contains(b, []byte(secret)), err)
	}
	f, err := os.Open(proc + "/mem")
	report("mem", err == nil, err)
	if f != nil {
		f.Close()
	}
	_, err = os.ReadFile(proc + "/maps")
	report("maps", err == nil, err)
	buf := make([]byte, 16)
	_, err = unix.ProcessVMReadv(pid, []unix.Iovec{{Base: &buf[0], Len: 16}}, []unix.RemoteIovec{{Base: 0x400000, Len: 16}}, 0)
	report("process_vm_readv", !errors.Is(err, unix.EPERM) && !errors.Is(err, unix.EACCES), err)
	_, _, e := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_SEIZE, uintptr(pid), 0, 0, 0, 0)
	report("ptrace", e == 0, e)
	if e == 0 {
		unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_DETACH, uintptr(pid), 0, 0, 0, 0)
	}
	if fd, err := unix.PidfdOpen(pid, 0); err == nil {
		_, err := unix.PidfdGetfd(fd, 0, 0)
		report("pidfd_getfd", err == nil, err)
	}
	err = unix.Kill(pid, syscall.SIGSTOP)
	report("signal", err == nil, err)
	if err == nil {
		unix.Kill(pid, syscall.SIGCONT)
	}
}

// tryUnixSockets connects to a pathname and an abstract socket and makes
// socket pairs of each kind.
func tryUnixSockets(path, abstract string) {
	try := func(what, addr string) {
		c, err := net.DialTimeout("unix", addr, 2*time.Second)
		if err == nil {
			c.Close()
			fmt.Printf("OPEN %s\n", what)
			return
		}
		fmt.Printf("denied %s: %v\n", what, err)
	}
	try("pathname", path)
	try("abstract", "@"+abstract)
	for _, k := range []struct {
		what string
		typ  int
	}{{"socketpair stream", unix.SOCK_STREAM}, {"socketpair seqpacket", unix.SOCK_SEQPACKET}, {"socketpair dgram", unix.SOCK_DGRAM}} {
		fds, err := unix.Socketpair(unix.AF_UNIX, k.typ|unix.SOCK_CLOEXEC, 0)
		if err == nil {
			unix.Close(fds[0])
			unix.Close(fds[1])
			fmt.Printf("OPEN %s\n", k.what)
		} else {
			fmt.Printf("denied %s: %v\n", k.what, err)
		}
	}
	// The kernel reads only the low 32 bits of the family.
	var fds [2]int32
	_, _, e := unix.RawSyscall6(unix.SYS_SOCKETPAIR, 1<<32|unix.AF_UNIX, unix.SOCK_DGRAM, 0, uintptr(unsafe.Pointer(&fds[0])), 0, 0)
	if e == 0 {
		fmt.Println("OPEN socketpair dgram with high bits")
	} else {
		fmt.Printf("denied socketpair dgram with high bits: %v\n", e)
	}
	_, _, e = unix.RawSyscall(unix.SYS_SOCKET, 1<<32|unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if e == 0 {
		fmt.Println("OPEN socket with high bits")
	} else {
		fmt.Printf("denied socket with high bits: %v\n", e)
	}
}

// startChildren starts n sleeping children and reports how many started.
func startChildren(n int) {
	var procs []*os.Process
	var firstErr error
	for i := 0; i < n; i++ {
		p, err := os.StartProcess("/bin/sleep", []string{"sleep", "30"}, &os.ProcAttr{})
		if err != nil {
			firstErr = err
			break
		}
		procs = append(procs, p)
	}
	fmt.Printf("started %d of %d (%v)\n", len(procs), n, firstErr)
	for _, p := range procs {
		p.Kill()
		p.Wait()
	}
}

// unprivilegedEnv marks a run of the test binary as the unprivileged
// half of a test started as root; see bothUsers.
const unprivilegedEnv = "QUIRE_SANDBOX_TEST_UNPRIVILEGED"

// nobody is the uid (and gid) the unprivileged half runs as.
const nobody = 65534

// bothUsers runs body as the current user, and when that is root also as
// an unprivileged user: the test binary is copied next to a directory
// owned by that user and runs this very test again there, with
// SysProcAttr.Credential. The sandbox must hold for both: quire running
// as root is common in containers and CI.
func bothUsers(t *testing.T, body func(t *testing.T)) {
	t.Run(fmt.Sprintf("uid%d", os.Getuid()), body)
	if os.Getenv(unprivilegedEnv) != "" || os.Getuid() != 0 {
		return
	}
	t.Run(fmt.Sprintf("uid%d", nobody), func(t *testing.T) {
		base := sandboxtest.Dir(t, ".sandbox-unpriv-")
		t.Cleanup(func() { os.RemoveAll(base) })
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(base, "sandbox.test")
		if err := copyFile(self, bin); err != nil {
			t.Fatal(err)
		}
		if err := filepath.Walk(base, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, nobody, nobody)
		}); err != nil {
			t.Fatal(err)
		}
		name := strings.SplitN(t.Name(), "/", 2)[0]
		cmd := exec.Command(bin, "-test.run=^"+name+"$", "-test.count=1", "-test.v")
		cmd.Dir = base
		cmd.Env = []string{unprivilegedEnv + "=1", "PATH=" + os.Getenv("PATH"), "HOME=" + base, "GORACE=atexit_sleep_ms=0"}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
		out, err := cmd.CombinedOutput()
		t.Logf("as uid %d:\n%s", nobody, out)
		if err != nil {
			t.Fatalf("the unprivileged run failed: %v", err)
		}
		if !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("the unprivileged run ran nothing")
		}
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// selfBinary is the path a sandboxed command runs this test binary by.
func selfBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self
}

// lines returns the lines of out that start with prefix.
func lines(out, prefix string) []string {
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			got = append(got, l)
		}
	}
	return got
}

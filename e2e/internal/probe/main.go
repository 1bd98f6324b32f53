// Command probe is what the end-to-end trust tests make the model run
// inside quire's sandbox: one attack per mode, one line per attempt,
// "LEAK ..." or "OPEN ..." for what got through and "denied ..." for
// what did not.
//
//	probe quire                 read quire's environment and memory, attach to it
//	probe unix PATH             connect to a pathname UNIX socket
package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: probe quire | probe unix PATH")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "quire":
		attackQuire()
	case "unix":
		c, err := net.DialTimeout("unix", os.Args[2], 2*time.Second)
		if err != nil {
			fmt.Printf("denied unix connect: %v\n", err)
			return
		}
		c.Close()
		fmt.Println("OPEN unix connect")
	}
}

// quirePID finds the nearest ancestor named quire (the launcher above the
// command runs as "exe", from /proc/self/exe).
func quirePID() (int, string) {
	pid := os.Getppid()
	comm := ""
	for i := 0; i < 4; i++ {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return 0, err.Error()
		}
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		comm = s[strings.IndexByte(s, '(')+1 : strings.LastIndexByte(s, ')')]
		if comm == "quire" {
			return pid, comm
		}
		pid, _ = strconv.Atoi(fields[1])
	}
	return pid, comm
}

func attackQuire() {
	pid, comm := quirePID()
	fmt.Printf("target %d (%s)\n", pid, comm)
	proc := "/proc/" + strconv.Itoa(pid)
	b, err := os.ReadFile(proc + "/environ")
	report("environ", err == nil && len(b) > 0, err)
	f, err := os.Open(proc + "/mem")
	report("mem", err == nil, err)
	if f != nil {
		f.Close()
	}
	buf := make([]byte, 16)
	_, err = unix.ProcessVMReadv(pid, []unix.Iovec{{Base: &buf[0], Len: 16}}, []unix.RemoteIovec{{Base: 0x400000, Len: 16}}, 0)
	report("process_vm_readv", !errors.Is(err, unix.EPERM) && !errors.Is(err, unix.EACCES), err)
	_, _, e := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_SEIZE, uintptr(pid), 0, 0, 0, 0)
	report("ptrace", e == 0, e)
	if e == 0 {
		unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_DETACH, uintptr(pid), 0, 0, 0, 0)
	}
}

func report(what string, leaked bool, err error) {
	if leaked {
		fmt.Printf("LEAK %s\n", what)
		return
	}
	fmt.Printf("denied %s: %v\n", what, err)
}

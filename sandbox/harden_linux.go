package sandbox

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
	"kernel.org/pub/linux/libs/security/libcap/psx"
)

// Harden makes this process non-dumpable: its /proc/PID files (environ,
// mem, maps, fd, …) then belong to root and pass the kernel's ptrace
// access check only for a caller holding CAP_SYS_PTRACE, so a process of
// the same user cannot read quire's environment, which holds the API
// key, nor attach to it; no core dump is written either. Call it right
// after MaybeLaunch in main, before any secret is read. It holds as root
// too because the launcher takes CAP_SYS_PTRACE (and every capability a
// command does not need) from the commands it runs, and Landlock refuses
// them ptrace of any process outside the sandbox.
func Harden() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("make quire's process non-dumpable: %w", err)
	}
	return nil
}

// keptCapabilities are what a command started by root keeps: enough to
// work with files of any owner inside the writable trees (Landlock still
// decides which files), and with the network open, to bind low ports and
// use raw sockets (ping). Everything else goes: CAP_SYS_PTRACE (reading
// or attaching to quire and other processes), CAP_SYS_ADMIN, CAP_SYS_MODULE,
// CAP_SYS_RAWIO, CAP_BPF, CAP_PERFMON (kernel and other processes'
// memory), CAP_MKNOD (a device node for a raw disk), CAP_DAC_READ_SEARCH
// (open_by_handle_at), CAP_SETUID/CAP_SETGID (becoming another user to
// read that user's processes), CAP_KILL, CAP_SYS_RESOURCE and the rest.
func keptCapabilities(network bool) []int {
	keep := []int{unix.CAP_CHOWN, unix.CAP_DAC_OVERRIDE, unix.CAP_FOWNER, unix.CAP_FSETID}
	if network {
		keep = append(keep, unix.CAP_NET_BIND_SERVICE, unix.CAP_NET_RAW)
	}
	return keep
}

// KeptCapabilityNames names keptCapabilities for `quire doctor`.
func KeptCapabilityNames(network bool) []string {
	names := map[int]string{unix.CAP_CHOWN: "CHOWN", unix.CAP_DAC_OVERRIDE: "DAC_OVERRIDE", unix.CAP_FOWNER: "FOWNER",
		unix.CAP_FSETID: "FSETID", unix.CAP_NET_BIND_SERVICE: "NET_BIND_SERVICE", unix.CAP_NET_RAW: "NET_RAW"}
	var out []string
	for _, c := range keptCapabilities(network) {
		out = append(out, names[c])
	}
	return out
}

// dropCapabilities leaves every thread of the launcher, and so the
// command it starts, with keptCapabilities at most: it drops the rest
// from the bounding set (which bounds what a root program gets on exec),
// and from the permitted, effective, inheritable and ambient sets. A
// process without CAP_SETPCAP (an ordinary user outside a user namespace)
// has nothing to drop but the ambient set.
func dropCapabilities(network bool) error {
	keep := map[int]bool{}
	for _, c := range keptCapabilities(network) {
		keep[c] = true
	}
	last := lastCapability()
	var hdr unix.CapUserHeader
	var data [2]unix.CapUserData
	hdr.Version = unix.LINUX_CAPABILITY_VERSION_3
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("read capabilities: %w", err)
	}
	hasSetpcap := data[0].Effective&(1<<unix.CAP_SETPCAP) != 0
	if hasSetpcap {
		for c := 0; c <= last; c++ {
			if keep[c] {
				continue
			}
			if _, _, e := psx.Syscall3(unix.SYS_PRCTL, unix.PR_CAPBSET_DROP, uintptr(c), 0); e != 0 && e != unix.EINVAL {
				return fmt.Errorf("drop capability %d from the bounding set: %w", c, e)
			}
		}
	}
	if _, _, e := psx.Syscall6(unix.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("clear ambient capabilities: %w", e)
	}
	var mask [2]uint32
	for c := range keep {
		mask[c/32] |= 1 << (c % 32)
	}
	for i := range data {
		data[i].Permitted &= mask[i]
		data[i].Effective &= mask[i]
		data[i].Inheritable = 0
	}
	hdr.Version = unix.LINUX_CAPABILITY_VERSION_3
	hdr.Pid = 0
	if _, _, e := psx.Syscall3(unix.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); e != 0 {
		return fmt.Errorf("drop capabilities: %w", e)
	}
	return nil
}

// lastCapability is the highest capability number this kernel knows.
func lastCapability() int {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			return n
		}
	}
	return 63
}

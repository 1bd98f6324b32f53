package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// networkFilter is the seccomp policy that closes what Landlock leaves
// open when the child network is off. Landlock (ABI 4+) refuses TCP
// connect and bind; this filter refuses, with EPERM, creating any other
// kind of socket that can reach out:
//
//   - AF_INET/AF_INET6 sockets that are not plain TCP streams (UDP, raw,
//     SCTP, MPTCP), so no datagram or raw packet leaves;
//   - AF_UNIX sockets, so no pathname socket (docker.sock, an SSH or GPG
//     agent, D-Bus) or abstract one can be connected to: seccomp cannot
//     read the address connect(2) is given, so the socket itself is
//     refused. socketpair(2) stays, for stream and seqpacket pairs only:
//     such a pair is connected from the start and ignores addresses,
//     while a datagram pair could still sendto(2) any socket by name;
//   - every address family other than AF_INET, AF_INET6 and AF_NETLINK
//     (packet sockets, vsock, bluetooth, CAN, …);
//   - io_uring_setup, whose socket operations would bypass this filter.
//
// Without Landlock TCP rules (ABI < 4) it refuses AF_INET/AF_INET6 sockets
// of every kind instead.
func networkFilter(tcpByLandlock bool) seccomp.Policy {
	const (
		afInet, afInet6, afNetlink = 2, 10, 16
		sockTypeNotStream          = 0xe // bits set in every SOCK_* type but SOCK_STREAM (1)
		sockTypeDgramLike          = 0xa // bits set in SOCK_DGRAM (2), SOCK_RAW (3, a datagram for AF_UNIX) and SOCK_PACKET (10), not in SOCK_STREAM (1) or SOCK_SEQPACKET (5)
		ipprotoTCP                 = 6
	)
	cond := func(arg uint32, op seccomp.Operation, v uint64) seccomp.Condition {
		return seccomp.Condition{Argument: arg, Operation: op, Value: v}
	}
	socket := func(cs ...seccomp.Condition) seccomp.NameWithConditions {
		return seccomp.NameWithConditions{Name: "socket", Conditions: cs}
	}
	// A family with any of the upper 32 bits set (the kernel reads only
	// the lower ones) is greater than AF_NETLINK, so the last rule catches
	// it.
	rules := []seccomp.NameWithConditions{
		socket(cond(0, seccomp.LessThan, afInet)),
		// Whatever the family says: only AF_UNIX makes pairs, and an
		// Equal test could be dodged with upper bits the kernel ignores.
		{Name: "socketpair", Conditions: []seccomp.Condition{cond(1, seccomp.BitsSet, sockTypeDgramLike)}},
		socket(cond(0, seccomp.GreaterThan, afInet), cond(0, seccomp.LessThan, afInet6)),
		socket(cond(0, seccomp.GreaterThan, afInet6), cond(0, seccomp.LessThan, afNetlink)),
		socket(cond(0, seccomp.GreaterThan, afNetlink)),
	}
	for _, af := range []uint64{afInet, afInet6} {
		if !tcpByLandlock {
			rules = append(rules, socket(cond(0, seccomp.Equal, af)))
			continue
		}
		rules = append(rules,
			socket(cond(0, seccomp.Equal, af), cond(1, seccomp.BitsSet, sockTypeNotStream)),
			socket(cond(0, seccomp.Equal, af), cond(2, seccomp.NotEqual, 0), cond(2, seccomp.NotEqual, ipprotoTCP)),
		)
	}
	return seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls: []seccomp.SyscallGroup{
			{Action: seccomp.ActionErrno, Names: []string{"io_uring_setup"}},
			{Action: seccomp.ActionErrno, NamesWithCondtions: rules},
		},
	}
}

// loadNetworkFilter installs networkFilter on every thread. Syscalls of a
// foreign architecture (32-bit x86 on x86_64) fail with ENOSYS, so the
// filter cannot be sidestepped through the compat syscall table.
func loadNetworkFilter(tcpByLandlock bool) error {
	policy := networkFilter(tcpByLandlock)
	insts, err := policy.Assemble()
	if err != nil {
		return fmt.Errorf("assemble seccomp filter: %w", err)
	}
	native, err := nativeAuditArch()
	if err != nil {
		return err
	}
	// Assemble's program returns its default action (allow) for a foreign
	// architecture; put a stricter gate in front of it.
	prog := append([]bpf.Instruction{
		bpf.LoadAbsolute{Off: 4, Size: 4}, // seccomp_data.arch
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: native, SkipTrue: 1},
		bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)},
	}, insts...)
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return fmt.Errorf("assemble seccomp filter: %w", err)
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(filter)
	if errno != 0 {
		return fmt.Errorf("install seccomp filter: %w", errno)
	}
	return nil
}

func nativeAuditArch() (uint32, error) {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64, nil
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64, nil
	case "riscv64":
		return unix.AUDIT_ARCH_RISCV64, nil
	case "386":
		return unix.AUDIT_ARCH_I386, nil
	case "arm":
		return unix.AUDIT_ARCH_ARM, nil
	}
	return 0, fmt.Errorf("seccomp network filter: architecture %s is not supported", runtime.GOARCH)
}

package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
)

// Finding is the outcome of one self-test check.
type Finding struct {
	Check  string
	OK     bool
	Detail string
}

// SelfTest proves enforcement instead of trusting version numbers: it
// runs real commands through the launcher under a synthetic profile and
// checks that a write outside the writable tree, a write to the git dir,
// moving the git dir aside, reading quire's environment and (when the
// profile cuts the network) a TCP connect to a local listener are all
// refused, while a write inside succeeds.
func SelfTest(ctx context.Context, s Support) []Finding {
	scratch, err := os.MkdirTemp("", "quire-selftest-")
	if err != nil {
		return []Finding{{"scratch directory", false, err.Error()}}
	}
	defer os.RemoveAll(scratch)
	scratch, _ = filepath.EvalSymlinks(scratch)
	ws := filepath.Join(scratch, "ws")
	protected := filepath.Join(ws, ".git")
	if err := os.MkdirAll(filepath.Join(protected, "hooks"), 0o755); err != nil {
		return []Finding{{"scratch directory", false, err.Error()}}
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return []Finding{{"local listener", false, err.Error()}}
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	p := Profile{Name: "self-test", Enforced: true, ReadAll: true, Write: []string{ws}, Protect: []string{protected}, Dir: ws}
	script := fmt.Sprintf(`echo in > inside && echo IN-OK
echo out > %q 2>/dev/null && echo OUT-WROTE
echo hook > .git/hooks/pre-commit 2>/dev/null && echo HOOK-WROTE
mv .git .git-aside 2>/dev/null && echo GIT-MOVED
cat /proc/%d/environ >/dev/null 2>&1 && echo ENVIRON-READ
(exec 3<>/dev/tcp/127.0.0.1/%d) 2>/dev/null && echo TCP-CONNECTED
(exec 3<>/dev/udp/127.0.0.1/9) 2>/dev/null && echo UDP-OPENED
grep '^CapEff:' /proc/self/status
true`, filepath.Join(scratch, "outside"), os.Getpid(), ln.Addr().(*net.TCPAddr).Port)
	var findings []Finding
	for _, network := range []bool{true, false} {
		p.Network = network
		var out bytes.Buffer
		exit, err := Run(ctx, p, s, Command{Argv: []string{"bash", "-c", script}, Dir: ws, Env: CommandEnv(os.Environ(), p), Output: &out})
		label := "network open"
		if !network {
			label = "network off"
		}
		if err != nil {
			findings = append(findings, Finding{"launch (" + label + ")", false, err.Error()})
			continue
		}
		o := out.String()
		if exit.Code != 0 {
			findings = append(findings, Finding{"launch (" + label + ")", false, strings.TrimSpace(o)})
			continue
		}
		findings = append(findings,
			Finding{"write inside the working dir (" + label + ")", strings.Contains(o, "IN-OK"), "must succeed"},
			Finding{"write outside refused (" + label + ")", !strings.Contains(o, "OUT-WROTE"), "Landlock file rules"},
			Finding{".git read-only (" + label + ")", !strings.Contains(o, "HOOK-WROTE"), "read-only bind in a private mount namespace"},
			Finding{".git cannot be moved aside (" + label + ")", !strings.Contains(o, "GIT-MOVED"), "a mount point cannot be renamed"},
			Finding{"quire's environment unreadable (" + label + ")", !strings.Contains(o, "ENVIRON-READ"), "quire is not dumpable; commands have no CAP_SYS_PTRACE or their own user namespace"},
		)
		if os.Getuid() != 0 {
			findings = append(findings, Finding{"no capabilities left (" + label + ")", strings.Contains(o, "CapEff:\t0000000000000000"), "the namespace's CAP_SYS_ADMIN is dropped before the command"})
		}
		if !network {
			findings = append(findings,
				Finding{"TCP connect refused", !strings.Contains(o, "TCP-CONNECTED"), "Landlock TCP rules (or seccomp below ABI 4)"},
				Finding{"UDP socket refused", !strings.Contains(o, "UDP-OPENED"), "seccomp socket filter"})
		}
	}
	return findings
}

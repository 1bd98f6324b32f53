package sandbox

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// ProfileReport describes, for `quire doctor`, what commands run under p
// on this machine get and do not get: the git rule and the paths it
// protects, the environment variables of environ they lose, the process
// cap (probed by running `true` unless probe is false), what keeps them
// from quire's process, and what stays open to them. One fact per line.
func ProfileReport(ctx context.Context, p Profile, s Support, environ []string, probe bool) string {
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%-17s %s\n", label+":", fmt.Sprintf(format, args...))
	}
	more := func(format string, args ...any) {
		fmt.Fprintf(&b, "%-17s %s\n", "", fmt.Sprintf(format, args...))
	}
	fmt.Fprintf(&b, "Profile %s, in %s\n", p.Name, p.Dir)
	if !p.Enforced {
		line("confinement", "none: commands and file tools may do anything you can")
		envReport(p, environ, line, more)
		return b.String()
	}
	if p.GitWrites {
		line("git metadata", "commands may write the git dir (git_writes = true); its hooks and git's config files stay read-only")
	} else {
		line("git metadata", "read-only to commands and file tools, and cannot be moved aside (read-only bind mounts in a private mount namespace, pinned parents); git_writes = true under [sandbox] lets commands commit")
	}
	protect := outermost(appendUnique(append([]string(nil), p.Protect...), gitProtected(p.Dir, p.GitWrites, os.Getenv)...))
	for _, path := range protect {
		state := "read-only"
		if !withinAny(path, p.Write) {
			state = "read-only (outside the writable paths anyway)"
		}
		more("%s: %s", path, state)
	}
	envReport(p, environ, line, more)
	switch {
	case p.MaxProcesses == 0:
		line("process cap", "none (max_processes = 0)")
	case !probe:
		line("process cap", "%d processes and threads per command (not probed: --skip-self-test)", p.MaxProcesses)
	default:
		c := probeProcessCap(ctx, p, s)
		if c.Limit == 0 {
			line("process cap", "NONE on this machine: %s", c.Why)
		} else {
			line("process cap", "%d processes and threads per command, by %s", c.Limit, c.Method)
		}
	}
	if os.Getuid() == 0 {
		line("capabilities", "commands keep only %s of root's", strings.Join(KeptCapabilityNames(p.Network), ", "))
		line("quire's process", "not dumpable; commands lack CAP_SYS_PTRACE and are Landlocked, so they cannot read its memory or environment nor attach to it")
	} else {
		line("quire's process", "not dumpable, and commands run in a user namespace of their own (when the system allows one), so they cannot read its memory or environment nor attach to it")
	}
	if p.Network {
		line("network", "open, pathname and abstract UNIX sockets included (docker.sock, SSH and GPG agents, D-Bus)")
	} else {
		unix := "UNIX sockets refused by seccomp (socket pairs for streams stay)"
		if s.LandlockABI >= 9 {
			unix += ", pathname ones by Landlock too"
		}
		line("network", "off: TCP by Landlock%s, other sockets by seccomp; %s", map[bool]string{true: "", false: " (seccomp: ABI below 4)"}[s.TCPRules()], unix)
	}
	line("still open", "chmod, chown and utimes outside the writable paths; new repositories a command creates (git init) until its next command; repositories nested in the working dir")
	return b.String()
}

// probeProcessCap runs `true` under p to learn how its process cap is
// enforced here.
func probeProcessCap(ctx context.Context, p Profile, s Support) ProcessCap {
	dir := p.Dir
	if _, err := os.Stat(dir); err != nil {
		dir = os.TempDir()
	}
	exit, err := Run(ctx, p, s, Command{Argv: []string{"true"}, Dir: dir, Env: CommandEnv(os.Environ(), p)})
	if err != nil {
		return ProcessCap{Why: err.Error()}
	}
	return exit.Processes
}

// envReport says which variables of environ commands under p do not get
// and which pass_env passes on purpose.
func envReport(p Profile, environ []string, line func(string, string, ...any), more func(string, ...any)) {
	var dropped, passed []string
	for _, d := range DroppedEnv(environ, p) {
		if d.Reason == "" {
			passed = append(passed, d.Name)
		} else if !isInjection(d.Name) {
			dropped = append(dropped, d.Name+" ("+d.Reason+")")
		}
	}
	if len(dropped) == 0 {
		line("environment", "no credential-looking variable is set here (names and values are checked, plus quire's provider keys)")
	} else {
		line("environment", "commands do not get %s", strings.Join(dropped, ", "))
	}
	if len(passed) > 0 {
		more("passed on purpose (pass_env): %s", strings.Join(passed, ", "))
	}
}

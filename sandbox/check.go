package sandbox

import (
	"fmt"
	"strings"
)

// minFilesystemABI is the lowest Landlock ABI that can confine writes:
// ABI 1 and 2 cannot refuse truncate(2), so a command could empty any
// file it can read.
const minFilesystemABI = 3

// minNetworkABI is the lowest Landlock ABI with TCP bind/connect rules.
const minNetworkABI = 4

// Support is what this machine can enforce.
type Support struct {
	// LandlockABI is the kernel's Landlock ABI version; 0 when Landlock is
	// missing or disabled.
	LandlockABI int
	// LandlockReason says why LandlockABI is 0.
	LandlockReason string
	// Seccomp reports whether seccomp filters can be installed.
	Seccomp bool
}

// TCPRules reports whether Landlock can refuse TCP connect and bind.
func (s Support) TCPRules() bool { return s.LandlockABI >= minNetworkABI }

// Check reports whether p can be enforced here. The error names the
// missing kernel feature and how to choose another profile; callers must
// refuse to run a command when it is non-nil (never run it unconfined).
func (p Profile) Check(s Support) error {
	if !p.Enforced {
		return nil
	}
	var missing []string
	if s.LandlockABI < minFilesystemABI {
		have := fmt.Sprintf("this kernel reports ABI %d", s.LandlockABI)
		if s.LandlockReason != "" {
			have += " (" + s.LandlockReason + ")"
		}
		missing = append(missing, fmt.Sprintf("Landlock ABI %d or later for file rules (%s)", minFilesystemABI, have))
	}
	if !p.Network && !s.Seccomp {
		missing = append(missing, "seccomp filters for blocking the child network")
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("sandbox profile %q cannot be enforced on this machine: missing %s; run `quire doctor` to see what is enforceable and pick another profile with --sandbox NAME (--sandbox off runs commands unconfined)",
		p.Name, strings.Join(missing, " and "))
}

// Report describes what this machine enforces, one fact per line, for
// `quire doctor`: the kernel's features, then whether each profile, the
// custom ones of settings included, can be enforced.
func Report(s Support, cwd string, settings Settings) string {
	var b strings.Builder
	if s.LandlockABI > 0 {
		fmt.Fprintf(&b, "Landlock ABI:        %d\n", s.LandlockABI)
	} else {
		fmt.Fprintf(&b, "Landlock ABI:        none (%s)\n", s.LandlockReason)
	}
	fmt.Fprintf(&b, "Landlock file rules: %s\n", yesNo(s.LandlockABI >= minFilesystemABI))
	fmt.Fprintf(&b, "Landlock TCP rules:  %s\n", yesNo(s.TCPRules()))
	fmt.Fprintf(&b, "Landlock IPC scopes: %s\n", yesNo(s.LandlockABI >= 6))
	fmt.Fprintf(&b, "Landlock UNIX rules: %s\n", yesNo(s.LandlockABI >= 9))
	fmt.Fprintf(&b, "seccomp filters:     %s\n", yesNo(s.Seccomp))
	b.WriteString("Profiles:\n")
	for _, name := range settings.Names() {
		p, err := settings.Profile(name, cwd)
		if err == nil {
			err = p.Check(s)
		}
		status := "enforceable"
		switch {
		case err != nil:
			status = "NOT enforceable: " + err.Error()
		case !p.Enforced:
			status = "no sandbox"
		}
		fmt.Fprintf(&b, "  %-10s %s\n", name, status)
	}
	return b.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"golang.org/x/sys/unix"
)

// inPrivateNamespaceEnv marks a launcher started by Run inside a fresh
// user and mount namespace. It only says where to bind; it is never
// evidence of protection (the binds either succeed here or the launch
// fails).
const inPrivateNamespaceEnv = "QUIRE_SANDBOX_MOUNTNS"

// protectMounts makes every existing protected path (the git metadata,
// quire's configuration) read-only by bind-mounting it over itself
// read-only in the launcher's private mount namespace, and pins every
// directory above one that the command could otherwise rename or remove
// (a directory whose parent is writable) by bind-mounting it over itself:
// a mount point cannot be renamed or removed (EBUSY), so the protected
// paths cannot be moved aside and replaced by copies the command writes.
// Landlock applied afterwards forbids any mount change, so the command
// cannot undo it. Outside a private namespace there is nothing to do only
// if no protected path is writable under the profile.
func protectMounts(p Profile) error {
	targets := protectedTargets(p)
	private := os.Getenv(inPrivateNamespaceEnv) == "1"
	os.Unsetenv(inPrivateNamespaceEnv) // not for the command's eyes
	if len(targets) == 0 {
		return nil
	}
	if !private {
		return fmt.Errorf("%s lie inside writable paths but no private mount namespace was set up to keep them read-only", targets)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	for _, a := range pinTargets(p, targets) {
		if err := unix.Mount(a, a, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("pin %s: %w", a, err)
		}
	}
	for _, t := range targets {
		if err := unix.Mount(t, t, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", t, err)
		}
		var st unix.Statfs_t
		if err := unix.Statfs(t, &st); err != nil {
			return fmt.Errorf("statfs %s: %w", t, err)
		}
		// A remount inside a user namespace must keep the flags the
		// outer mount locked (nosuid, nodev, noexec, atime).
		flags := uintptr(unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY) | lockedFlags(st.Flags)
		if err := unix.Mount("", t, "", flags, ""); err != nil {
			return fmt.Errorf("make %s read-only: %w", t, err)
		}
	}
	// The working directory still refers to the mounts underneath the new
	// ones; a command starting there would walk past them.
	if err := os.Chdir(cwd); err != nil {
		return fmt.Errorf("enter %s again: %w", cwd, err)
	}
	// The capability was only for the binds: the command gets none.
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("drop ambient capabilities: %w", err)
	}
	return nil
}

// protectedTargets lists the protected paths that exist and that the
// profile would otherwise let a command write.
func protectedTargets(p Profile) []string {
	var out []string
	for _, t := range p.Protect {
		if !withinAny(t, p.Write) || withinAny(t, p.Deny) {
			continue
		}
		if _, err := os.Lstat(t); err != nil {
			continue
		}
		out = append(out, t)
	}
	return out
}

// pinTargets lists, outermost first, the directories above the targets
// that a command could rename or remove: those whose parent directory is
// writable under p. The targets themselves become mount points anyway.
func pinTargets(p Profile, targets []string) []string {
	var out []string
	for _, t := range targets {
		for a := filepath.Dir(t); a != filepath.Dir(a); a = filepath.Dir(a) {
			if writableUnder(p, filepath.Dir(a)) && !contains(targets, a) {
				out = appendUnique(out, a)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) < len(out[j]) })
	return out
}

// writableUnder reports whether a command under p may change entries of
// the directory d.
func writableUnder(p Profile, d string) bool {
	return withinAny(d, p.Write) && !withinAny(d, p.Deny) && !withinAny(d, p.Protect)
}

func lockedFlags(statfsFlags int64) uintptr {
	var f uintptr
	for _, m := range []struct {
		st    int64
		mount uintptr
	}{
		{unix.ST_NOSUID, unix.MS_NOSUID},
		{unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOEXEC, unix.MS_NOEXEC},
		{unix.ST_NOATIME, unix.MS_NOATIME},
		{unix.ST_NODIRATIME, unix.MS_NODIRATIME},
		{unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if statfsFlags&m.st != 0 {
			f |= m.mount
		}
	}
	return f
}

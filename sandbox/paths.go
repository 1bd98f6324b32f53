package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/quire-sh/quire/internal/pathx"
)

// StateDir is quire's own state directory:
// ${QUIRE_HOME:-${XDG_STATE_HOME:-~/.local/state}/quire}. Every profile
// except off keeps it writable so sessions can be saved.
func StateDir() string { return StateDirFrom(os.Getenv) }

// StateDirFrom is StateDir reading the environment through getenv.
func StateDirFrom(getenv func(string) string) string {
	if d := getenv("QUIRE_HOME"); d != "" {
		return d
	}
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "quire")
	}
	return filepath.Join(homeDirFrom(getenv), ".local", "state", "quire")
}

// ConfigDir is quire's configuration directory:
// ${XDG_CONFIG_HOME:-~/.config}/quire. Nothing running inside a sandbox may
// write it, so a command cannot widen its own profile for the next run.
func ConfigDir() string { return ConfigDirFrom(os.Getenv) }

// ConfigDirFrom is ConfigDir reading the environment through getenv.
func ConfigDirFrom(getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "quire")
	}
	return filepath.Join(homeDirFrom(getenv), ".config", "quire")
}

// homeDirFrom is $HOME, else the account's home directory, else ".".
func homeDirFrom(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	return homeDir()
}

// ConfigFile is the TOML file custom profiles are read from.
func ConfigFile() string { return filepath.Join(ConfigDir(), "config.toml") }

func homeDir() string {
	if h, err := os.UserHomeDir(); err == nil {
		return h
	}
	return "/"
}

// tempDirs lists the temporary directories every enforced profile keeps
// writable: $TMPDIR, /tmp, /var/tmp and /dev/shm, symlinks resolved, missing
// ones dropped, duplicates removed.
func tempDirs() []string {
	var out []string
	for _, d := range []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"} {
		r, err := Resolve(d)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(r); err != nil || !fi.IsDir() {
			continue
		}
		out = appendUnique(out, r)
	}
	return out
}

// Resolve makes path absolute, removes "." and ".." and resolves every
// symlink along it. A path that does not exist yet is resolved up to its
// deepest existing ancestor and the rest appended, so a file about to be
// created is judged by where it would really land.
func Resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w", path, err)
	}
	var rest []string
	cur := abs
	for {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				r = filepath.Join(r, rest[i])
			}
			return r, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("resolve %q: %w", path, err)
		}
		// A dangling symlink is still a symlink: follow its target so a
		// link pointing outside cannot be used to create a file there.
		if target, lerr := os.Readlink(cur); lerr == nil {
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(cur), target)
			}
			next := target
			for i := len(rest) - 1; i >= 0; i-- {
				next = filepath.Join(next, rest[i])
			}
			if next == abs {
				return "", fmt.Errorf("resolve %q: symlink loop", path)
			}
			return Resolve(next)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = append(rest, filepath.Base(cur))
		cur = parent
	}
}

func withinAny(path string, roots []string) bool {
	for _, r := range roots {
		if pathx.Within(path, r) {
			return true
		}
	}
	return false
}

func appendUnique(list []string, items ...string) []string {
	for _, it := range items {
		dup := false
		for _, have := range list {
			if have == it {
				dup = true
				break
			}
		}
		if !dup {
			list = append(list, it)
		}
	}
	return list
}

// expandHome turns a leading "~/" into the home directory and makes
// relative paths relative to base.
func expandHome(p, base string) string {
	if p == "~" {
		return homeDir()
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(homeDir(), p[2:])
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(base, p)
	}
	return p
}

package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/quire-sh/quire/internal/pathx"
)

// Built-in profile names.
const (
	Off       = "off"
	Workspace = "workspace"
	ReadOnly  = "read-only"
	Strict    = "strict"
)

// DefaultProfile is the profile used when none is chosen.
const DefaultProfile = Workspace

var builtinDescriptions = map[string]string{
	Off:       "no sandbox: commands and file tools may do anything you can",
	Workspace: "read everything; write the working dir, temp dirs and quire's state dir; network open",
	ReadOnly:  "read everything; write only temp dirs and quire's state dir; no child network",
	Strict:    "read system paths and the working dir only; write the working dir, temp dirs and quire's state dir; no child network",
}

// Profile is what a sandboxed command and the file tools may do. All paths
// are absolute and symlink-resolved.
type Profile struct {
	// Name is the profile's name, as chosen with --sandbox.
	Name string
	// Enforced is false only for the off profile.
	Enforced bool
	// ReadAll grants reading the whole filesystem; when false only Read
	// and Write may be read.
	ReadAll bool
	// Read lists readable trees (used when ReadAll is false).
	Read []string
	// Write lists writable (and readable) trees.
	Write []string
	// Deny lists trees that may be neither read nor written, even inside
	// Read or Write.
	Deny []string
	// Protect lists trees that may never be written, even inside Write,
	// nor renamed or removed: the repository's git metadata (see
	// gitProtected) and quire's configuration.
	Protect []string
	// Network reports whether child processes may use the network.
	Network bool
	// Dir is the working directory the profile was built for.
	Dir string
	// GitWrites lets commands and the file tools write the repository's
	// git dir, all but its hooks and config ([sandbox] git_writes).
	GitWrites bool
	// SecretEnv names the variables holding quire's own credentials
	// besides ProviderKeyEnv: the API key variable of every configured
	// provider. No command gets them, under any profile.
	SecretEnv []string
	// PassEnv names variables passed to commands on purpose although they
	// look like credentials ([sandbox] pass_env).
	PassEnv []string
	// MaxProcesses caps the processes and threads one command and
	// everything it starts may have at once ([sandbox] max_processes);
	// 0 means no cap.
	MaxProcesses int
}

// devices every command may read and write (">/dev/null" is a write);
// no other device node is reachable from inside.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// DefaultMaxProcesses is the process cap when the configuration sets none:
// far above what a parallel build needs, far below what takes a machine
// down.
const DefaultMaxProcesses = 4096

// Builtins lists the built-in profile names in the order --help shows them.
func Builtins() []string { return []string{Off, Workspace, ReadOnly, Strict} }

// Describe is a one-line description of a built-in profile, or "" for
// other names.
func Describe(name string) string { return builtinDescriptions[name] }

// Names lists every profile name: the built-ins, then the custom profiles
// of the settings, sorted.
func (s Settings) Names() []string {
	names := Builtins()
	var custom []string
	for n := range s.Profiles {
		if builtinDescriptions[n] == "" {
			custom = append(custom, n)
		}
	}
	sort.Strings(custom)
	return append(names, custom...)
}

// ProfileByName builds the built-in profile name for the working
// directory cwd; the empty name selects DefaultProfile. Custom profiles
// are built by Settings.Profile.
func ProfileByName(name, cwd string) (Profile, error) {
	return Settings{}.Profile(name, cwd)
}

// Profile builds the named profile, built-in or custom, for the working
// directory cwd. The empty name selects DefaultProfile; a built-in name
// cannot be redefined.
func (s Settings) Profile(name, cwd string) (Profile, error) {
	if name == "" {
		name = DefaultProfile
	}
	dir, err := Resolve(cwd)
	if err != nil {
		return Profile{}, err
	}
	if err := s.check(); err != nil {
		return Profile{}, err
	}
	if _, ok := builtinDescriptions[name]; ok {
		return s.apply(builtin(name, dir, s.GitWrites)), nil
	}
	spec, ok := s.Profiles[name]
	if !ok {
		return Profile{}, fmt.Errorf("unknown sandbox profile %q; choose one of: %s", name, strings.Join(s.Names(), ", "))
	}
	p, err := spec.build(name, dir, s.GitWrites)
	if err != nil {
		return Profile{}, err
	}
	return s.apply(p), nil
}

func builtin(name, dir string, gitWrites bool) Profile {
	if name == Off {
		return Profile{Name: Off, ReadAll: true, Network: true, Dir: dir, Write: []string{"/"}}
	}
	state, _ := Resolve(StateDir())
	p := Profile{Name: name, Enforced: true, Dir: dir, GitWrites: gitWrites, Protect: protectedPaths(dir, gitWrites, os.Getenv)}
	// quire's configuration may hold API keys: not for commands' eyes.
	if cfg, err := Resolve(ConfigDir()); err == nil {
		if _, err := os.Stat(cfg); err == nil {
			p.Deny = append(p.Deny, cfg)
		}
	}
	switch name {
	case Workspace:
		p.ReadAll, p.Network = true, true
		p.Write = appendUnique([]string{dir}, tempDirs()...)
		p.Write = appendUnique(p.Write, state)
	case ReadOnly:
		p.ReadAll = true
		p.Write = appendUnique(tempDirs(), state)
	case Strict:
		p.Read = systemPaths()
		p.Write = appendUnique([]string{dir}, tempDirs()...)
		p.Write = appendUnique(p.Write, state)
	}
	return p
}

// systemPaths are the trees the strict profile may read besides its
// writable ones: programs, libraries, system configuration and the kernel's
// pseudo filesystems (device nodes are granted one by one), and the
// resolver configuration /etc/resolv.conf often links to. Home directories, /root, /run and /var are absent,
// which is what keeps ~/.ssh, ~/.aws, ~/.gnupg and agent sockets out of
// reach.
func systemPaths() []string {
	var out []string
	for _, p := range []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/proc", "/sys", "/nix/store", "/run/systemd/resolve"} {
		r, err := Resolve(p)
		if err != nil {
			continue
		}
		if _, err := os.Stat(r); err != nil {
			continue
		}
		out = appendUnique(out, r)
	}
	return out
}

// protectedPaths are never writable from inside: the repository's git
// metadata (either could make git run code outside the sandbox later; see
// gitProtected) and quire's own configuration (which defines the
// profiles).
func protectedPaths(dir string, gitWrites bool, getenv func(string) string) []string {
	out := gitProtected(dir, gitWrites, getenv)
	if r, err := Resolve(ConfigDir()); err == nil {
		out = appendUnique(out, r)
	}
	return out
}

// DeniedError reports an access the profile does not allow.
type DeniedError struct {
	Op      string // "read" or "write"
	Path    string
	Profile string
	Reason  string
}

func (e *DeniedError) Error() string {
	return fmt.Sprintf("sandbox profile %q does not allow %s %s: %s", e.Profile, verb(e.Op), e.Path, e.Reason)
}

// Unwrap makes errors.Is(err, fs.ErrPermission) true.
func (e *DeniedError) Unwrap() error { return fs.ErrPermission }

func verb(op string) string {
	if op == "write" {
		return "writing"
	}
	return "reading"
}

// CanRead reports whether path may be read, after resolving symlinks and
// "..". It returns the resolved path to use for the actual I/O.
func (p Profile) CanRead(path string) (string, error) {
	r, err := Resolve(path)
	if err != nil {
		return "", err
	}
	if !p.Enforced {
		return r, nil
	}
	if withinAny(r, p.Deny) {
		return r, &DeniedError{"read", r, p.Name, p.denyReason(r)}
	}
	if ownProcessPath(r) {
		// The file tools run inside quire: /proc/self is quire, whose
		// environment holds its API key. Sandboxed commands are kept out
		// of it by Landlock's ptrace rules.
		return r, &DeniedError{"read", r, p.Name, "quire's own process information is not readable from inside the sandbox"}
	}
	if pathx.Within(r, "/dev") && r != "/dev" && !contains(devices, r) {
		// As for commands: a raw disk would bypass every path rule.
		return r, &DeniedError{"read", r, p.Name, "device nodes other than /dev/null, /dev/zero, /dev/random and the like are not readable from inside the sandbox"}
	}
	if p.ReadAll || withinAny(r, p.Read) || withinAny(r, p.Write) {
		return r, nil
	}
	return r, &DeniedError{"read", r, p.Name, "it is outside the readable paths (system paths and the working directory)"}
}

// CanWrite reports whether path may be created or changed, after resolving
// symlinks and "..". It returns the resolved path to use for the I/O.
func (p Profile) CanWrite(path string) (string, error) {
	r, err := Resolve(path)
	if err != nil {
		return "", err
	}
	if !p.Enforced {
		return r, nil
	}
	if withinAny(r, p.Deny) {
		return r, &DeniedError{"write", r, p.Name, p.denyReason(r)}
	}
	if withinAny(r, p.Protect) || (!p.GitWrites && hasGitComponent(r)) {
		return r, &DeniedError{"write", r, p.Name, p.protectReason(r)}
	}
	if withinAny(r, p.Write) {
		return r, nil
	}
	return r, &DeniedError{"write", r, p.Name, "only " + strings.Join(p.Write, ", ") + " may be written"}
}

// denyReason says why a denied path is out of reach.
func (p Profile) denyReason(r string) string {
	if cfg, err := Resolve(ConfigDir()); err == nil && pathx.Within(r, cfg) {
		return "quire's configuration, which may hold API keys, is out of reach from inside the sandbox"
	}
	return "it is on the profile's deny list"
}

// protectReason says why a protected path is not writable.
func (p Profile) protectReason(r string) string {
	if cfg, err := Resolve(ConfigDir()); err == nil && pathx.Within(r, cfg) {
		return "quire's configuration is never writable from inside the sandbox"
	}
	if p.GitWrites {
		return "git hooks and git config (and what they name) are never writable from inside the sandbox"
	}
	return "git metadata (the git dir, git config and what it names, any .git) is never writable from inside the sandbox unless git_writes = true is set under [sandbox] in quire's config.toml"
}

// hasGitComponent reports whether a path has a ".git" element: the
// metadata of this repository or of one nested in it (or one about to be
// created there).
func hasGitComponent(path string) bool {
	for _, el := range strings.Split(path, string(filepath.Separator)) {
		if el == ".git" {
			return true
		}
	}
	return false
}

// ownProcessPath reports whether path lies in /proc/N for N a thread of
// this process: its environment holds quire's API key. /proc/self and
// /proc/thread-self resolve to such paths; other threads' ids work too.
func ownProcessPath(path string) bool {
	rest, ok := strings.CutPrefix(path, "/proc/")
	if !ok {
		return false
	}
	id, _, _ := strings.Cut(rest, "/")
	n, err := strconv.Atoi(id)
	if err != nil {
		return false
	}
	if n == os.Getpid() {
		return true
	}
	_, err = os.Lstat(filepath.Join("/proc", strconv.Itoa(os.Getpid()), "task", id))
	return err == nil
}

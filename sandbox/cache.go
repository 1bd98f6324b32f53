package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CacheDirName is the directory under the state dir that holds the
// caches sandboxed commands use instead of the user's own.
const CacheDirName = "sandbox-cache"

// toolCache is one cache location a toolchain takes from the environment.
type toolCache struct {
	// names are the variables the tool reads, the one quire sets first;
	// every spelling is replaced when the cache is moved.
	names []string
	// goEnv reports that `go env -w` may also set it (the go/env file).
	goEnv bool
	// sub is the directory under the cache root; "" is the root itself.
	sub string
	// fallback is where the tool writes when the variable is unset.
	fallback func(u userDirs) string
}

// toolCaches are the caches moved out of reach. CARGO_HOME is moved as a
// whole because cargo has no separate variable for its registry and git
// caches; see the package documentation for what that costs.
var toolCaches = []toolCache{
	{names: []string{"XDG_CACHE_HOME"}, fallback: func(u userDirs) string { return filepath.Join(u.home, ".cache") }},
	{names: []string{"GOCACHE"}, goEnv: true, sub: "go-build", fallback: func(u userDirs) string { return filepath.Join(u.cache, "go-build") }},
	{names: []string{"GOMODCACHE"}, goEnv: true, sub: "gomod", fallback: func(u userDirs) string { return filepath.Join(u.gopath, "pkg", "mod") }},
	{names: []string{"npm_config_cache", "NPM_CONFIG_CACHE"}, sub: "npm", fallback: func(u userDirs) string { return filepath.Join(u.home, ".npm") }},
	{names: []string{"PIP_CACHE_DIR"}, sub: "pip", fallback: func(u userDirs) string { return filepath.Join(u.cache, "pip") }},
	{names: []string{"CARGO_HOME"}, sub: "cargo", fallback: func(u userDirs) string { return filepath.Join(u.home, ".cargo") }},
}

// userDirs are the user's directories as the command's environment
// defines them.
type userDirs struct {
	home, cache, gopath string
	goEnv               map[string]string // the `go env -w` file
}

func userDirsOf(env envList) userDirs {
	u := userDirs{home: env.absOr("HOME", homeDir())}
	u.cache = env.absOr("XDG_CACHE_HOME", filepath.Join(u.home, ".cache"))
	u.goEnv = readGoEnvFile(env, u.home)
	u.gopath = filepath.Join(u.home, "go")
	gopath := env.get("GOPATH")
	if gopath == "" {
		gopath = u.goEnv["GOPATH"]
	}
	if list := filepath.SplitList(gopath); len(list) > 0 && filepath.IsAbs(list[0]) {
		u.gopath = list[0]
	}
	return u
}

// redirectCaches moves every tool cache the command could not write under
// p into quire's cache root (see CacheRoot): for each cache, the location
// the tool would use (the variable's value when it is an absolute path,
// else the tool's default) is kept when p can write it, and otherwise the
// variable is set to a directory under the root. A cache the user placed
// somewhere writable is never moved, and the user's own caches are never
// made writable. Without a usable root, env is returned unchanged.
func redirectCaches(env []string, p Profile) []string {
	if !p.Enforced {
		return env
	}
	root, err := CacheRoot(p)
	if err != nil {
		return env
	}
	list := envList(env)
	u := userDirsOf(list)
	drop := map[string]bool{}
	var set []string
	for _, c := range toolCaches {
		where := c.fallback(u)
		if v := c.value(list, u); filepath.IsAbs(v) {
			where = v
		}
		if _, err := p.CanWrite(where); err == nil {
			continue
		}
		for _, n := range c.names {
			drop[n] = true
		}
		set = append(set, c.names[0]+"="+filepath.Join(root, c.sub))
		if c.names[0] == "GOMODCACHE" {
			for _, kv := range goModuleEnv(list, u, where, p) {
				name, _, _ := strings.Cut(kv, "=")
				drop[name] = true
				set = append(set, kv)
			}
		}
	}
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !drop[name] {
			out = append(out, kv)
		}
	}
	return append(out, set...)
}

// value is what the user set for c, in the environment or, for Go, with
// `go env -w`.
func (c toolCache) value(env envList, u userDirs) string {
	for _, n := range c.names {
		if v := env.get(n); v != "" {
			return v
		}
	}
	if c.goEnv {
		return u.goEnv[c.names[0]]
	}
	return ""
}

// CacheRoot is the directory holding the caches sandboxed commands under
// p use in place of the user's own, created if missing:
// $STATE/sandbox-cache when p can write quire's state dir (every built-in
// profile can), else $TMPDIR/quire-UID/sandbox-cache, which must be a
// directory this user owns that nobody else can enter. Commands under
// every profile share it; quire itself never runs anything from it.
func CacheRoot(p Profile) (string, error) {
	if r, err := p.CanWrite(filepath.Join(StateDir(), CacheDirName)); err == nil {
		if err := os.MkdirAll(r, 0o700); err != nil {
			return "", fmt.Errorf("create the sandbox cache %s: %w", r, err)
		}
		return r, nil
	}
	base := filepath.Join(os.TempDir(), fmt.Sprintf("quire-%d", os.Getuid()))
	if err := os.Mkdir(base, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("create the sandbox cache in %s: %w", base, err)
	}
	// Another user could have created the directory first, in a shared
	// /tmp, to read or poison what commands cache there.
	fi, err := os.Lstat(base)
	if err != nil {
		return "", fmt.Errorf("sandbox cache: %w", err)
	}
	if !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 || !ownedByUser(fi) {
		return "", fmt.Errorf("sandbox cache: %s is not a private directory of this user; remove it", base)
	}
	r, err := p.CanWrite(filepath.Join(base, CacheDirName))
	if err != nil {
		return "", fmt.Errorf("sandbox cache: %w", err)
	}
	if err := os.MkdirAll(r, 0o700); err != nil {
		return "", fmt.Errorf("create the sandbox cache %s: %w", r, err)
	}
	return r, nil
}

// envList is an environment as NAME=VALUE strings; the last definition of
// a name wins, as in exec.
type envList []string

func (e envList) lookup(name string) (string, bool) {
	for i := len(e) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(e[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}

func (e envList) get(name string) string {
	v, _ := e.lookup(name)
	return v
}

// absOr is the variable's value when it is an absolute path, else def
// (the XDG rule: relative values are ignored).
func (e envList) absOr(name, def string) string {
	if v := e.get(name); filepath.IsAbs(v) {
		return v
	}
	return def
}

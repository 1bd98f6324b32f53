//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// cacheVars are the variables redirectCaches may set.
var cacheVars = []string{"XDG_CACHE_HOME", "GOCACHE", "GOMODCACHE", "GOFLAGS", "npm_config_cache", "NPM_CONFIG_CACHE", "PIP_CACHE_DIR", "CARGO_HOME", "GOPROXY"}

func TestCommandEnvMovesUnwritableCaches(t *testing.T) {
	// Every variable a case does not mention must come out unset; "-"
	// also means unset. $ROOT, $WS, $TMP and $HOME are replaced.
	moved := map[string]string{
		"XDG_CACHE_HOME": "$ROOT", "GOCACHE": "$ROOT/go-build", "GOMODCACHE": "$ROOT/gomod",
		"GOFLAGS": "-modcacherw", "npm_config_cache": "$ROOT/npm", "PIP_CACHE_DIR": "$ROOT/pip", "CARGO_HOME": "$ROOT/cargo",
	}
	with := func(changes map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range moved {
			out[k] = v
		}
		for k, v := range changes {
			out[k] = v
		}
		return out
	}
	cases := []struct {
		name    string
		profile string
		env     map[string]string
		goEnv   string // contents of the `go env -w` file
		goRoot  string // contents of $GOROOT/go.env
		modc    bool   // the user has a module cache in ~/go/pkg/mod
		want    map[string]string
	}{
		{name: "defaults", profile: Workspace, want: moved},
		{name: "read-only", profile: ReadOnly, want: moved},
		{name: "strict", profile: Strict, want: moved},
		{name: "off changes nothing", profile: Off, want: map[string]string{}},
		{name: "writable GOCACHE is kept", profile: Workspace,
			env: map[string]string{"GOCACHE": "$WS/.gocache"}, want: with(map[string]string{"GOCACHE": "$WS/.gocache"})},
		{name: "GOCACHE in the working dir is moved under read-only", profile: ReadOnly,
			env: map[string]string{"GOCACHE": "$WS/.gocache"}, want: moved},
		{name: "unwritable GOCACHE is moved", profile: Workspace,
			env: map[string]string{"GOCACHE": "$HOME/gc"}, want: moved},
		{name: "GOCACHE=off is moved", profile: Workspace,
			env: map[string]string{"GOCACHE": "off"}, want: moved},
		{name: "writable XDG_CACHE_HOME keeps the caches under it", profile: Workspace,
			env:  map[string]string{"XDG_CACHE_HOME": "$TMP/xdg"},
			want: with(map[string]string{"XDG_CACHE_HOME": "$TMP/xdg", "GOCACHE": "-", "PIP_CACHE_DIR": "-"})},
		{name: "user GOFLAGS are kept", profile: Workspace,
			env: map[string]string{"GOFLAGS": "-mod=mod"}, want: with(map[string]string{"GOFLAGS": "-mod=mod -modcacherw"})},
		{name: "an explicit modcacherw choice wins", profile: Workspace,
			env: map[string]string{"GOFLAGS": "-modcacherw=false"}, want: with(map[string]string{"GOFLAGS": "-modcacherw=false"})},
		{name: "writable GOPATH keeps its module cache", profile: Workspace,
			env: map[string]string{"GOPATH": "$TMP/gopath:$HOME/go2"}, want: with(map[string]string{"GOMODCACHE": "-", "GOFLAGS": "-"})},
		{name: "go env -w values count", profile: Workspace,
			goEnv: "GOCACHE=$WS/gocache\nGOFLAGS=-trimpath\n",
			want:  with(map[string]string{"GOCACHE": "-", "GOFLAGS": "-trimpath -modcacherw"})},
		{name: "the environment beats go env -w", profile: Workspace,
			env: map[string]string{"GOCACHE": "$HOME/gc"}, goEnv: "GOCACHE=$WS/gocache\n", want: moved},
		{name: "every npm spelling is replaced", profile: Workspace,
			env: map[string]string{"NPM_CONFIG_CACHE": "$HOME/npm"}, want: moved},
		{name: "writable npm cache in either spelling is kept", profile: Workspace,
			env: map[string]string{"NPM_CONFIG_CACHE": "$TMP/npm"}, want: with(map[string]string{"NPM_CONFIG_CACHE": "$TMP/npm", "npm_config_cache": "-"})},
		{name: "the user's module cache serves as a proxy", profile: Workspace, modc: true,
			want: with(map[string]string{"GOPROXY": "file://$HOME/go/pkg/mod/cache/download," + defaultGOPROXY})},
		{name: "in front of the toolchain's proxy", profile: ReadOnly, modc: true, goRoot: "GOPROXY=https://corp.example/go\n",
			want: with(map[string]string{"GOPROXY": "file://$HOME/go/pkg/mod/cache/download,https://corp.example/go"})},
		{name: "in front of the user's proxy, even off", profile: Workspace, modc: true, env: map[string]string{"GOPROXY": "off"},
			want: with(map[string]string{"GOPROXY": "file://$HOME/go/pkg/mod/cache/download,off"})},
		{name: "strict cannot read the user's module cache", profile: Strict, modc: true, want: moved},
		{name: "no proxy for a module cache that is kept", profile: Workspace, modc: true, env: map[string]string{"GOMODCACHE": "$TMP/mod"},
			want: with(map[string]string{"GOMODCACHE": "$TMP/mod", "GOFLAGS": "-"})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			tmp := t.TempDir()
			root := filepath.Join(f.state, CacheDirName)
			expand := strings.NewReplacer("$ROOT", root, "$WS", f.ws, "$TMP", tmp, "$HOME", f.home).Replace
			for _, name := range append(cacheVars, "GOPATH", "GOENV") {
				t.Setenv(name, "")
				os.Unsetenv(name)
			}
			goRoot := filepath.Join(tmp, "goroot")
			os.MkdirAll(goRoot, 0o755)
			t.Setenv("GOROOT", goRoot)
			if c.goRoot != "" {
				if err := os.WriteFile(filepath.Join(goRoot, "go.env"), []byte(c.goRoot), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.modc {
				if err := os.MkdirAll(filepath.Join(f.home, "go", "pkg", "mod", "cache", "download"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for k, v := range c.env {
				t.Setenv(k, expand(v))
			}
			if c.goEnv != "" {
				dir := filepath.Join(f.home, ".config", "go")
				os.MkdirAll(dir, 0o755)
				if err := os.WriteFile(filepath.Join(dir, "env"), []byte(expand(c.goEnv)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := envList(CommandEnv(os.Environ(), f.profile(t, c.profile)))
			for _, name := range cacheVars {
				want, ok := c.want[name]
				if !ok || want == "-" {
					want = ""
				}
				want = expand(want)
				got, set := env.lookup(name)
				if got != want || set != (want != "") {
					t.Errorf("%s = %q (set %v), want %q", name, got, set, want)
				}
			}
		})
	}
}

func TestCacheRootFallsBackToPrivateTemp(t *testing.T) {
	f := newFixture(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cfg := "[sandbox.profiles.nostate]\ndeny = [\"" + f.state + "\"]\n"
	p := f.custom(t, cfg, "nostate")
	root, err := CacheRoot(p)
	want := filepath.Join(tmp, "quire-"+strconv.Itoa(os.Getuid()), CacheDirName)
	if err != nil || root != want {
		t.Fatalf("CacheRoot = %q, %v; want %q", root, err, want)
	}
	if fi, err := os.Stat(filepath.Dir(root)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the temp cache's parent is not private: %v %v", fi.Mode(), err)
	}
	if got := envList(CommandEnv(os.Environ(), p)).get("GOCACHE"); got != filepath.Join(want, "go-build") {
		t.Errorf("GOCACHE = %q, want the temp cache", got)
	}

	// A directory someone else could enter is not trusted, and then the
	// caches are left alone rather than moved into it.
	os.RemoveAll(filepath.Dir(root))
	if err := os.Mkdir(filepath.Dir(root), 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Dir(root), 0o777)
	if root, err := CacheRoot(p); err == nil {
		t.Fatalf("CacheRoot trusted a world-writable %s", root)
	}
	if got, set := envList(CommandEnv(os.Environ(), p)).lookup("GOCACHE"); set && strings.HasPrefix(got, tmp) {
		t.Errorf("GOCACHE = %q points into an untrusted directory", got)
	}
}

func TestCacheRootIsPrivate(t *testing.T) {
	f := newFixture(t)
	root, err := CacheRoot(f.profile(t, Workspace))
	if err != nil || root != filepath.Join(f.state, CacheDirName) {
		t.Fatalf("CacheRoot = %q, %v", root, err)
	}
	if fi, err := os.Stat(root); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("cache root mode %v, %v; want 0700", fi.Mode(), err)
	}
}

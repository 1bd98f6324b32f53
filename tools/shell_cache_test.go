package tools

import (
	"archive/zip"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-sh/quire/sandbox"
)

// goTestEnv is a sandboxed test environment with a clean Go configuration:
// no inherited cache settings, no network use and no toolchain switch.
func goTestEnv(t *testing.T, profile string) testEnv {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH, so there is no toolchain to build with")
	}
	te := newTestEnv(t, profile)
	requireSandbox(t, te.Env)
	for _, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV", "XDG_CACHE_HOME", "GOFLAGS", "GOBIN"} {
		t.Setenv(name, "")
		os.Unsetenv(name)
	}
	t.Setenv("GOTOOLCHAIN", "local")
	t.Setenv("GOPROXY", "off")
	return te
}

func TestShellGoUsesQuireCache(t *testing.T) {
	for _, profile := range []string{sandbox.Workspace, sandbox.ReadOnly, sandbox.Strict} {
		t.Run(profile, func(t *testing.T) {
			te := goTestEnv(t, profile)
			root := filepath.Join(te.base, "state", sandbox.CacheDirName)
			res := run(t, Shell{}, te.Env, obj{"command": "go env GOCACHE GOMODCACHE GOFLAGS"})
			want := strings.Join([]string{filepath.Join(root, "go-build"), filepath.Join(root, "gomod"), "-modcacherw"}, "\n")
			if !strings.HasPrefix(res.Output, want+"\n") {
				t.Fatalf("go env under %s:\n%s\nwant it to begin with:\n%s", profile, res.Output, want)
			}
		})
	}
}

func TestShellGoBuildLeavesUserCacheAlone(t *testing.T) {
	te := goTestEnv(t, sandbox.Workspace)
	t.Setenv("GOFLAGS", "-mod=mod")
	userCache := filepath.Join(te.home, ".cache", "go-build")
	planted := filepath.Join(userCache, "README")
	te.write(t, planted, "the user's own build cache\n")
	before := homeState(t, te.home)

	te.write(t, "go.mod", "module example.com/hello\n\ngo 1.21\n")
	te.write(t, "main.go", "package main\n\nfunc main() { println(\"hello from the sandbox\") }\n")
	res := run(t, Shell{}, te.Env, obj{"command": "go build -o hello . && ./hello", "timeout_ms": 120000})
	if res.ExitCode == nil || *res.ExitCode != 0 || !strings.Contains(res.Output, "hello from the sandbox") {
		t.Fatalf("go build inside the sandbox failed:\n%s", res.Output)
	}
	if entries, err := os.ReadDir(filepath.Join(te.base, "state", sandbox.CacheDirName, "go-build")); err != nil || len(entries) == 0 {
		t.Errorf("quire's Go build cache is empty after a build: %v", err)
	}
	if after := homeState(t, te.home); !maps.Equal(before, after) {
		t.Errorf("the build changed the user's home directory:\nbefore %v\nafter  %v", before, after)
	}
}

func TestShellKeepsWritableUserGOCACHE(t *testing.T) {
	te := goTestEnv(t, sandbox.Workspace)
	own := filepath.Join(te.ws, ".gocache")
	t.Setenv("GOCACHE", own)
	res := run(t, Shell{}, te.Env, obj{"command": "go env GOCACHE; echo \"xdg=$XDG_CACHE_HOME\""})
	root := filepath.Join(te.base, "state", sandbox.CacheDirName)
	if !strings.HasPrefix(res.Output, own+"\n") || !strings.Contains(res.Output, "xdg="+root+"\n") {
		t.Fatalf("want the user's GOCACHE %s kept and XDG_CACHE_HOME moved to %s:\n%s", own, root, res.Output)
	}
}

func TestShellGoReadsUserModulesWithoutWritingThem(t *testing.T) {
	te := goTestEnv(t, sandbox.Workspace)
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GONOSUMDB", "example.com") // no checksum database offline
	plantModule(t, filepath.Join(te.home, "go", "pkg", "mod", "cache", "download"), "example.com/dep", "v1.0.0",
		map[string]string{"go.mod": "module example.com/dep\n\ngo 1.21\n", "dep.go": "package dep\n\nconst Answer = 42\n"})
	before := homeState(t, te.home)

	te.write(t, "go.mod", "module example.com/app\n\ngo 1.21\n\nrequire example.com/dep v1.0.0\n")
	// GOPROXY=off: the module can only come from the user's cache.
	res := run(t, Shell{}, te.Env, obj{"command": "go mod download example.com/dep && go list -m -f '{{.Dir}}' example.com/dep"})
	dir := filepath.Join(te.base, "state", sandbox.CacheDirName, "gomod", "example.com", "dep@v1.0.0")
	if res.ExitCode == nil || *res.ExitCode != 0 || !strings.Contains(res.Output, dir+"\n") {
		t.Fatalf("want example.com/dep extracted into %s:\n%s", dir, res.Output)
	}
	// Files in a module directory the owner cannot write could not be
	// deleted.
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm()&0o200 == 0 {
		t.Errorf("the extracted module's directory is read-only (want GOFLAGS -modcacherw): %v", err)
	}
	if after := homeState(t, te.home); !maps.Equal(before, after) {
		t.Errorf("the download changed the user's home directory:\nbefore %v\nafter  %v", before, after)
	}
}

// plantModule writes module path at version into the download cache
// layout under dir, which the go command also serves as a file:// proxy.
func plantModule(t *testing.T, dir, path, version string, files map[string]string) {
	t.Helper()
	v := filepath.Join(dir, filepath.FromSlash(path), "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	var zipped strings.Builder
	zw := zip.NewWriter(&zipped)
	for name, content := range files {
		w, err := zw.Create(path + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"list":            version + "\n",
		version + ".info": `{"Version":"` + version + `","Time":"2024-01-01T00:00:00Z"}`,
		version + ".mod":  files["go.mod"],
		version + ".zip":  zipped.String(),
	} {
		if err := os.WriteFile(filepath.Join(v, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// homeState describes every file under dir by its mode, size and
// modification time.
func homeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fmt.Sprint(fi.Mode(), fi.Size(), fi.ModTime())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestShellPackageManagersUseQuireCache(t *testing.T) {
	cases := []struct {
		tool, command, sub string
	}{
		{"npm", "npm config get cache", "npm"},
		{"pip", "pip cache dir", "pip"},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			if _, err := exec.LookPath(c.tool); err != nil {
				t.Skipf("%s is not on PATH", c.tool)
			}
			te := newTestEnv(t, sandbox.Workspace)
			requireSandbox(t, te.Env)
			for _, name := range []string{"npm_config_cache", "NPM_CONFIG_CACHE", "PIP_CACHE_DIR", "PIP_NO_CACHE_DIR", "XDG_CACHE_HOME"} {
				t.Setenv(name, "")
				os.Unsetenv(name)
			}
			res := run(t, Shell{}, te.Env, obj{"command": c.command})
			want := filepath.Join(te.base, "state", sandbox.CacheDirName, c.sub)
			if !strings.HasPrefix(res.Output, want+"\n") {
				t.Fatalf("%s printed:\n%s\nwant %s", c.command, res.Output, want)
			}
		})
	}
}

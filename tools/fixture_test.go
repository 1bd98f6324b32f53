package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-sh/quire/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.MaybeLaunch()
	// Race-enabled launchers otherwise sleep a second at exit.
	os.Setenv("GORACE", "atexit_sleep_ms=0")
	os.Exit(m.Run())
}

// testEnv is a working directory ws with a sibling out, both outside the
// temp dirs (which every profile may write), quire's state in state and a
// fake $HOME in home.
type testEnv struct {
	*Env
	base, ws, out, home string
}

func newTestEnv(t *testing.T, profile string) testEnv {
	t.Helper()
	base := testBase(t, ".tools-test-")
	t.Cleanup(func() { os.RemoveAll(base) })
	base, _ = filepath.EvalSymlinks(base)
	te := testEnv{base: base, ws: filepath.Join(base, "ws"), out: filepath.Join(base, "out"), home: filepath.Join(base, "home")}
	for _, d := range []string{te.ws, te.out, filepath.Join(te.home, ".ssh"), filepath.Join(base, "state")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("QUIRE_HOME", filepath.Join(base, "state"))
	t.Setenv("HOME", te.home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(te.home, ".config"))
	p, err := sandbox.ProfileByName(profile, te.ws)
	if err != nil {
		t.Fatal(err)
	}
	te.Env, err = NewEnv(te.ws, p)
	if err != nil {
		t.Fatal(err)
	}
	return te
}

func (te testEnv) write(t *testing.T, rel, content string) string {
	t.Helper()
	p := filepath.Join(te.ws, rel)
	if filepath.IsAbs(rel) {
		p = rel
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (te testEnv) read(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(te.ws, rel)
	if filepath.IsAbs(rel) {
		p = rel
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func args(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func run(t *testing.T, tool Tool, env *Env, a any) Result {
	t.Helper()
	return tool.Run(context.Background(), env, Call{ID: "t", Args: args(t, a)})
}

type obj = map[string]any

// testBase makes a directory for a test tree outside every temp dir,
// because every profile may write those: the package directory, else the
// user cache directory, else the home directory. A checkout that itself
// lives under /tmp therefore still tests confinement for real.
func testBase(t *testing.T, pattern string) string {
	t.Helper()
	wd, _ := os.Getwd()
	cache, _ := os.UserCacheDir()
	home, _ := os.UserHomeDir()
	for _, dir := range []string{wd, cache, home} {
		if dir == "" || underTempDir(dir) {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			continue
		}
		if base, err := os.MkdirTemp(dir, pattern); err == nil {
			return base
		}
	}
	t.Skip("no writable directory outside the temp dirs for a test tree: every profile may write temp dirs, so confinement cannot be observed here")
	return ""
}

// underTempDir reports whether dir is inside $TMPDIR, /tmp, /var/tmp or
// /dev/shm (symlinks resolved).
func underTempDir(dir string) bool {
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	for _, tmp := range []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"} {
		if r, err := filepath.EvalSymlinks(tmp); err == nil {
			tmp = r
		}
		if dir == tmp || strings.HasPrefix(dir, tmp+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

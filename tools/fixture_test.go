package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/quire-sh/quire/sandbox"
	"github.com/quire-sh/quire/sandbox/sandboxtest"
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
	base := sandboxtest.Dir(t, ".tools-test-")
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

// run plans a call from disk and, when the plan is valid, runs it, as
// the engine does; a refused plan is the call's error result.
func run(t *testing.T, tool Tool, env *Env, a any) Result {
	t.Helper()
	return runRaw(t, tool, env, args(t, a), nil)
}

func runRaw(t *testing.T, tool Tool, env *Env, raw json.RawMessage, output func([]byte)) Result {
	t.Helper()
	return runCtx(context.Background(), tool, env, raw, output)
}

func runCtx(ctx context.Context, tool Tool, env *Env, raw json.RawMessage, output func([]byte)) Result {
	p, err := tool.Plan(env, nil, raw)
	if err != nil {
		return Result{Output: err.Error(), IsError: true}
	}
	return tool.Run(ctx, env, Call{ID: "t", Turn: 1, Plan: p, Output: output})
}

type obj = map[string]any

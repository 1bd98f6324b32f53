package e2e

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The trust-boundary tests run `quire exec` (no tmux needed) twice: as
// root and as an unprivileged user. Root drops to nobody (65534) in the
// child with SysProcAttr.Credential; a test run that is not root runs as
// itself, which is the unprivileged case, and skips the root one.

// execUser is who a run of quire is.
type execUser struct {
	name string
	cred *syscall.Credential // nil: this process's own user
}

// unprivilegedUID is the user root drops to: nobody.
const unprivilegedUID = 65534

// asEachUser runs f once per user this test can be.
func asEachUser(t *testing.T, f func(t *testing.T, u execUser)) {
	t.Run("root", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("not running as root: the unprivileged run covers this user")
		}
		f(t, execUser{name: "root"})
	})
	t.Run("unprivileged", func(t *testing.T) {
		if os.Geteuid() != 0 {
			f(t, execUser{name: "self"})
			return
		}
		f(t, execUser{name: "nobody", cred: &syscall.Credential{Uid: unprivilegedUID, Gid: unprivilegedUID}})
	})
}

// execEnv is a private world for one run: a working dir, a home, a state
// dir and a copy of the binary, all owned by the user and reachable by
// them (t.TempDir's parents are private to root).
type execEnv struct {
	t                    *testing.T
	user                 execUser
	base, bin, ws, home  string
	state, config, extra string
	env                  []string
}

func newExecEnv(t *testing.T, u execUser, baseURL string) *execEnv {
	t.Helper()
	base, err := os.MkdirTemp("", "quire-exec-e2e-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	e := &execEnv{t: t, user: u, base: base, bin: filepath.Join(base, "quire"),
		ws: filepath.Join(base, "ws"), home: filepath.Join(base, "home"), extra: filepath.Join(base, "outside")}
	e.state, e.config = filepath.Join(e.home, "state"), filepath.Join(e.home, ".config")
	for _, d := range []string{e.ws, e.state, e.config, e.extra} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyExecFile(t, quireBin, e.bin, 0o755)
	e.env = []string{
		"HOME=" + e.home, "XDG_CONFIG_HOME=" + e.config, "QUIRE_HOME=" + e.state,
		"OPENAI_BASE_URL=" + baseURL, "OPENAI_API_KEY=test", "QUIRE_MODEL=test-model",
		"PATH=" + os.Getenv("PATH"), "TMPDIR=" + filepath.Join(base, "tmp"),
	}
	os.MkdirAll(filepath.Join(base, "tmp"), 0o755)
	return e
}

// own gives everything under base to the run's user.
func (e *execEnv) own() {
	e.t.Helper()
	if e.user.cred == nil {
		return
	}
	uid, gid := int(e.user.cred.Uid), int(e.user.cred.Gid)
	filepath.Walk(e.base, func(p string, _ os.FileInfo, err error) error {
		if err == nil {
			os.Lchown(p, uid, gid)
		}
		return nil
	})
}

func copyExecFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, mode); err != nil {
		t.Fatal(err)
	}
}

// execResult is how a run ended.
type execResult struct {
	stdout, stderr string
	code           int
}

// command builds a command run as the env's user in its working dir.
func (e *execEnv) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = e.ws
	cmd.Env = e.env
	if e.user.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: e.user.cred}
	}
	return cmd
}

// quire runs the binary with args, files owned by the user first.
func (e *execEnv) quire(args ...string) execResult {
	e.t.Helper()
	e.own()
	cmd := e.command(e.bin, args...)
	var o, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &se
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(120 * time.Second):
		cmd.Process.Kill()
		e.t.Fatalf("quire %s did not finish; stderr so far: %s", strings.Join(args, " "), se.String())
	}
	r := execResult{stdout: o.String(), stderr: se.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// sessionIDs lists the ids of the stored sessions, from the state dir.
func (e *execEnv) sessionIDs() []string {
	e.t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(e.state, "sessions", "*", "2*"))
	var ids []string
	for _, d := range dirs {
		ids = append(ids, filepath.Base(d))
	}
	return ids
}

// oneLine reports whether s is exactly one line.
func isOneLine(s string) bool { return strings.Count(s, "\n") == 1 && strings.HasSuffix(s, "\n") }

// readAll reads r to the end, ignoring the EIO a pty master reports once
// the other side is closed.
func drainPTY(r io.Reader) string {
	var b bytes.Buffer
	io.Copy(&b, r)
	return b.String()
}

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
)

// quireBin is the binary under test, built once by TestMain.
var quireBin string

// noTmux says why the tests that drive a terminal cannot run, or "".
var noTmux string

func TestMain(m *testing.M) {
	if _, err := exec.LookPath("tmux"); err != nil {
		noTmux = "tmux is not installed (scripts/setup installs it)"
	}
	dir, err := os.MkdirTemp("", "quire-e2e-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	quireBin = filepath.Join(dir, "quire")
	build := exec.Command("go", "build", "-o", quireBin, "../cmd/quire")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building quire:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var paneSeq atomic.Int64

// timeoutSlack stretches every wait; see waitFor.
const timeoutSlack = 4

// pane is quire (or a shell) running in a detached tmux session of fixed
// size on a private tmux server.
type pane struct {
	t      *testing.T
	socket string
	name   string
	dir    string // the working directory of the program
	home   string // HOME and the state dir live here
}

// env is the environment every pane gets: a private home and state dir,
// a known TERM, and the test server as the model.
func (p *pane) env(baseURL string) []string {
	return []string{
		"HOME=" + p.home,
		"XDG_CONFIG_HOME=" + filepath.Join(p.home, ".config"),
		"QUIRE_HOME=" + filepath.Join(p.home, "state"),
		"OPENAI_BASE_URL=" + baseURL,
		"OPENAI_API_KEY=test",
		"QUIRE_MODEL=test-model",
		"TERM=xterm-256color",
		"COLORTERM=truecolor",
		"PATH=" + os.Getenv("PATH"),
		"PS1=$ ",
	}
}

// needTmux skips the test when tmux is missing, saying so, or fails it
// on CI, where scripts/setup should have installed it.
func needTmux(t *testing.T) {
	t.Helper()
	if noTmux == "" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("e2e: %s, and CI must run this suite", noTmux)
	}
	t.Skipf("e2e: %s", noTmux)
}

// newPane starts a shell in a w×h pane; run starts programs in it.
func newPane(t *testing.T, w, h int) *pane {
	t.Helper()
	needTmux(t)
	p := &pane{
		t:      t,
		socket: fmt.Sprintf("quire-e2e-%d-%d", os.Getpid(), paneSeq.Add(1)),
		name:   "main",
		dir:    t.TempDir(),
		home:   t.TempDir(),
	}
	cmd := exec.Command("tmux", "-L", p.socket, "-f", "/dev/null", "new-session", "-d", "-s", p.name,
		"-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-c", p.dir, "env -i bash --norc --noprofile")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	p.tmux("set-option", "-g", "history-limit", "20000")
	t.Cleanup(func() { exec.Command("tmux", "-L", p.socket, "kill-server").Run() })
	return p
}

func (p *pane) tmux(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", p.socket}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// run types a command line into the pane's shell, with the environment
// for a quire talking to baseURL, and an exit marker after it.
func (p *pane) run(baseURL string, args ...string) {
	p.t.Helper()
	var b strings.Builder
	for _, kv := range p.env(baseURL) {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "export %s=%q; ", k, v)
	}
	// The subshell keeps the exit marker in the same job as quire, so a
	// Ctrl+Z stops both and fg continues both.
	b.WriteString("clear; (")
	b.WriteString(quireBin)
	for _, a := range args {
		fmt.Fprintf(&b, " %q", a)
	}
	b.WriteString("; echo \"QUIRE-EXIT=$?\")")
	p.keys(b.String(), "Enter")
}

// keys sends tmux key names ("Enter", "C-c") or literal text.
func (p *pane) keys(keys ...string) {
	p.t.Helper()
	p.tmux(append([]string{"send-keys", "-t", p.name}, keys...)...)
}

// literal types text exactly, with no key-name interpretation.
func (p *pane) literal(text string) {
	p.t.Helper()
	p.tmux("send-keys", "-t", p.name, "-l", text)
}

// screen is what the pane shows now.
func (p *pane) screen() string { return p.tmux("capture-pane", "-p", "-t", p.name) }

// styled is the screen with its SGR escapes.
func (p *pane) styled() string { return p.tmux("capture-pane", "-p", "-e", "-t", p.name) }

// history is the pane's scrollback and screen.
func (p *pane) history() string { return p.tmux("capture-pane", "-p", "-S", "-", "-t", p.name) }

// waitFor polls the screen until cond holds, failing with the last screen
// after timeout.
func (p *pane) waitFor(what string, timeout time.Duration, cond func(screen string) bool) string {
	p.t.Helper()
	// The suite shares two cores with the rest of `make test`: timeouts
	// only bound how long a failure takes to report, so be generous.
	deadline := time.Now().Add(timeout * timeoutSlack)
	for {
		s := p.screen()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("timed out waiting for %s; the screen shows:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitText waits for text to appear on screen.
func (p *pane) waitText(text string, timeout time.Duration) string {
	p.t.Helper()
	return p.waitFor(fmt.Sprintf("%q", text), timeout, func(s string) bool { return strings.Contains(s, text) })
}

// resize changes the pane's size.
func (p *pane) resize(w, h int) {
	p.t.Helper()
	p.tmux("resize-window", "-t", p.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h))
}

// startServer runs the scripted model for one test.
func startServer(t *testing.T, script testserver.Script) *testserver.Server {
	t.Helper()
	srv, err := testserver.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// sttySane runs stty in the pane after quire exited and checks the tty is
// back in cooked mode with echo.
func (p *pane) sttySane() {
	p.t.Helper()
	p.keys(`stty -a | tr ' ;' '\n\n' | grep -E '^-?(icanon|echo)$' | tr '\n' ' '; printf 'STTY%s\n' -DONE`, "Enter")
	s := p.waitText("STTY-DONE", 5*time.Second)
	out := lineOf(s, "STTY-DONE")
	if !strings.HasPrefix(out, "icanon echo ") {
		p.t.Fatalf("the tty is not sane after quire exited: stty says %q\n%s", out, s)
	}
}

package e2e

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/sandbox/sandboxtest"
)

// The trust tests drive `quire exec` against the scripted server: the
// model's one tool call is an attack on the sandbox, run as a shell
// command, and the test checks what the sandbox refused, in the tool
// result the model got back and on disk. Each runs as the current user
// and, when that is root (as in CI), also as an unprivileged one.

// nobody is the unprivileged user the tests switch to when run as root.
const nobody = 65534

// trustBin holds copies of quire and of the probe (e2e/internal/probe)
// that an unprivileged user can run.
var trustBin struct {
	once         sync.Once
	err          string
	quire, probe string
}

func trustBinaries(t *testing.T) (quire, probe string) {
	t.Helper()
	trustBin.once.Do(func() {
		// Next to the harness's build of quire, which TestMain removes;
		// opened to every user so the unprivileged runs reach them.
		dir := filepath.Join(filepath.Dir(quireBin), "trust")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			trustBin.err = err.Error()
			return
		}
		os.Chmod(filepath.Dir(quireBin), 0o755)
		trustBin.quire = filepath.Join(dir, "quire")
		trustBin.probe = filepath.Join(dir, "probe")
		if b, err := os.ReadFile(quireBin); err != nil || os.WriteFile(trustBin.quire, b, 0o755) != nil {
			trustBin.err = fmt.Sprintf("copy quire: %v", err)
			return
		}
		build := exec.Command("go", "build", "-o", trustBin.probe, "./internal/probe")
		if out, err := build.CombinedOutput(); err != nil {
			trustBin.err = fmt.Sprintf("build the probe: %v\n%s", err, out)
		}
	})
	if trustBin.err != "" {
		t.Fatal(trustBin.err)
	}
	return trustBin.quire, trustBin.probe
}

// users runs body as the current user and, when that is root, as nobody.
func users(t *testing.T, body func(t *testing.T, uid int)) {
	t.Run(fmt.Sprintf("uid%d", os.Getuid()), func(t *testing.T) { body(t, os.Getuid()) })
	if os.Getuid() == 0 {
		t.Run(fmt.Sprintf("uid%d", nobody), func(t *testing.T) { body(t, nobody) })
	}
}

// trustEnv is a working directory and a home for one quire exec run,
// owned by the user it runs as.
type trustEnv struct {
	t        *testing.T
	uid      int
	ws, home string
	config   string // config.toml contents
	extraEnv []string
}

func newTrustEnv(t *testing.T, uid int) *trustEnv {
	t.Helper()
	// Outside the temp dirs (every profile may write those, and the home
	// inside one would change what the launcher sets up), and not
	// t.TempDir, whose parent is private to the user running the test.
	base := sandboxtest.Dir(t, ".e2e-trust-")
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	if !traversable(filepath.Dir(base)) {
		// The fallback (the user cache dir) lies in root's private
		// home: use a temp dir, which the unprivileged user can reach.
		os.RemoveAll(base)
		var err error
		if base, err = os.MkdirTemp("", "quire-e2e-trust-ws-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(base) })
		os.Chmod(base, 0o755)
	}
	e := &trustEnv{t: t, uid: uid, ws: filepath.Join(base, "ws"), home: filepath.Join(base, "home")}
	for _, d := range []string{e.ws, filepath.Join(e.home, ".config", "quire")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// traversable reports whether every user may enter dir.
func traversable(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == filepath.Dir(d) {
			return true
		}
	}
}

// chown gives the user every file made so far.
func (e *trustEnv) chown() {
	filepath.WalkDir(filepath.Dir(e.ws), func(p string, _ fs.DirEntry, err error) error {
		if err == nil {
			os.Lchown(p, e.uid, e.uid)
		}
		return nil
	})
}

// secret is the API key quire runs with; no command may see it.
const secret = "sk-e2e-trust-0123456789abcdefSECRET"

// attack runs `quire exec` whose model makes one shell call with command,
// and returns the tool result the model got back, and quire's stderr.
func (e *trustEnv) attack(command string, args ...string) (result, stderr string) {
	t := e.t
	t.Helper()
	quire, _ := trustBinaries(t)
	callArgs, _ := json.Marshal(map[string]string{"command": command})
	srv := startServer(t, testserver.Script{Respond: func(n int, req testserver.Request) testserver.Response {
		if n == 0 {
			return testserver.Call("c1", "shell", string(callArgs))
		}
		return testserver.Text("done")
	}})
	if e.config != "" {
		if err := os.WriteFile(filepath.Join(e.home, ".config", "quire", "config.toml"), []byte(e.config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.chown()
	// yolo unless the test says otherwise: the sandbox is under test,
	// not the approval gate.
	if !strings.Contains(strings.Join(args, " "), "--approval") {
		args = append(args, "--approval", "yolo")
	}
	cmd := exec.Command(quire, append(append([]string{"exec"}, args...), "go")...)
	cmd.Dir = e.ws
	cmd.Env = append([]string{
		"HOME=" + e.home,
		"XDG_CONFIG_HOME=" + filepath.Join(e.home, ".config"),
		"QUIRE_HOME=" + filepath.Join(e.home, "state"),
		"OPENAI_BASE_URL=" + srv.URL(),
		"OPENAI_API_KEY=" + secret,
		"QUIRE_MODEL=test-model",
		"PATH=" + os.Getenv("PATH"),
	}, e.extraEnv...)
	if e.uid != os.Getuid() {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(e.uid), Gid: uint32(e.uid)}}
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("quire exec: %v\nstdout: %s\nstderr: %s", err, out.String(), errb.String())
		}
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("quire exec hung\nstderr: %s", errb.String())
	}
	reqs := srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("the model was asked %d times; stderr: %s", len(reqs), errb.String())
	}
	last := reqs[1].LastMessage()
	if last.Role != "tool" {
		t.Fatalf("the second request does not end with the tool result: %+v", last)
	}
	if strings.Contains(last.Content, "needs a private user and mount namespace") {
		t.Skipf("this system refuses the user namespace the sandbox needs here: %s", last.Content)
	}
	if strings.Contains(string(reqs[1].Body), secret) {
		t.Errorf("the API key reached the model")
	}
	return last.Content, errb.String()
}

// digest hashes every path under root (names, modes, contents).
func digest(root string) string {
	h := sha256.New()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, _ := os.Lstat(p)
		fmt.Fprintf(h, "%s %v\n", p, fi.Mode())
		if fi.Mode().IsRegular() {
			f, _ := os.Open(p)
			io.Copy(h, f)
			f.Close()
		}
		return nil
	})
	return fmt.Sprintf("%x", h.Sum(nil))
}

func requireTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s is not installed", name)
	}
}

func TestTrustGitMetadataStaysOutOfReach(t *testing.T) {
	requireTool(t, "git")
	users(t, func(t *testing.T, uid int) {
		e := newTrustEnv(t, uid)
		init := exec.Command("git", "init", "-q", e.ws)
		if out, err := init.CombinedOutput(); err != nil {
			t.Fatalf("git init: %v %s", err, out)
		}
		e.chown()
		gitDir := filepath.Join(e.ws, ".git")
		before := digest(gitDir)
		result, _ := e.attack(`echo '[core] fsmonitor = "touch /tmp/pwned"' >> .git/config
mv .git .git-aside && mkdir .git && cp -a .git-aside/. .git/ && echo PLANTED > .git/hooks/pre-commit
here=$(pwd); cd .. && mv "$here" "$here-aside"
echo ATTACK-DONE`)
		if !strings.Contains(result, "ATTACK-DONE") {
			t.Fatalf("the attack did not run:\n%s", result)
		}
		if !strings.Contains(result, "Read-only file system") || !strings.Contains(result, "busy") {
			t.Errorf("the result does not show the refusals:\n%s", result)
		}
		if digest(gitDir) != before {
			t.Fatalf("the git dir changed:\n%s", result)
		}
	})
}

func TestTrustQuiresProcessStaysOutOfReach(t *testing.T) {
	users(t, func(t *testing.T, uid int) {
		_, probe := trustBinaries(t)
		e := newTrustEnv(t, uid)
		result, _ := e.attack(probe + " quire")
		if !strings.Contains(result, "denied environ") || !strings.Contains(result, "(quire)") {
			t.Fatalf("the probe did not run against quire:\n%s", result)
		}
		if strings.Contains(result, "LEAK") {
			t.Fatalf("a command got at quire:\n%s", result)
		}
		for _, want := range []string{"denied mem", "denied process_vm_readv", "denied ptrace"} {
			if !strings.Contains(result, want) {
				t.Errorf("no %q:\n%s", want, result)
			}
		}
	})
}

func TestTrustCredentialsStayOutOfCommands(t *testing.T) {
	users(t, func(t *testing.T, uid int) {
		e := newTrustEnv(t, uid)
		e.extraEnv = []string{"GITHUB_TOKEN=ghp_e2eTOKENe2eTOKENe2eTOKEN0123", "AWS_SECRET_ACCESS_KEY=e2e-aws-secret", "PASS_ME_TOKEN=passed-on-purpose"}
		e.config = "[sandbox]\npass_env = [\"PASS_ME_TOKEN\"]\n"
		result, _ := e.attack("env; echo ENV-DONE")
		if !strings.Contains(result, "ENV-DONE") {
			t.Fatalf("the command did not run:\n%s", result)
		}
		for _, leaked := range []string{"ghp_e2eTOKEN", "e2e-aws-secret", secret} {
			if strings.Contains(result, leaked) {
				t.Errorf("the command saw %s:\n%s", leaked, result)
			}
		}
		if !strings.Contains(result, "PASS_ME_TOKEN=passed-on-purpose") {
			t.Errorf("pass_env did not pass PASS_ME_TOKEN:\n%s", result)
		}
	})
}

// Every provider's key variable is quire's secret, not only the one in
// use: a preset's (ANTHROPIC_API_KEY) and a [providers] table's own
// api_key_env, whose name says nothing of a credential, are kept from
// commands under every profile, off included.
func TestTrustProviderKeysStayOutUnderEveryProfile(t *testing.T) {
	users(t, func(t *testing.T, uid int) {
		e := newTrustEnv(t, uid)
		e.extraEnv = []string{"ANTHROPIC_API_KEY=e2e-anthropic-key", "GATEWAYVAR=e2e-gateway-key", "HARMLESS_SETTING=kept"}
		e.config = "[providers.gw]\ntype = \"openai\"\nbase_url = \"http://127.0.0.1:1/v1\"\napi_key_env = \"GATEWAYVAR\"\n"
		for _, profile := range []string{"workspace", "off"} {
			result, _ := e.attack("env; echo ENV-DONE", "--sandbox", profile)
			if !strings.Contains(result, "ENV-DONE") {
				t.Fatalf("%s: the command did not run:\n%s", profile, result)
			}
			for _, leaked := range []string{"e2e-anthropic-key", "e2e-gateway-key", secret} {
				if strings.Contains(result, leaked) {
					t.Errorf("%s: the command saw %s:\n%s", profile, leaked, result)
				}
			}
			if !strings.Contains(result, "HARMLESS_SETTING=kept") {
				t.Errorf("%s: an ordinary variable was dropped too:\n%s", profile, result)
			}
		}
	})
}

func TestTrustAutoEditAllowlistNeedsExactOptions(t *testing.T) {
	users(t, func(t *testing.T, uid int) {
		e := newTrustEnv(t, uid)
		os.WriteFile(filepath.Join(e.ws, "in.txt"), []byte("b\na\n"), 0o644)
		result, stderr := e.attack("sort --out=pwned.txt in.txt", "--approval", "auto-edit")
		if _, err := os.Stat(filepath.Join(e.ws, "pwned.txt")); err == nil {
			t.Fatal("sort --out (an abbreviation of --output) ran unasked and wrote a file")
		}
		if !strings.Contains(result, "--approval auto-edit") || !strings.Contains(result, "--out") || strings.Contains(result, "--approval ask") {
			t.Errorf("the refusal does not name the mode in force and the option:\n%s", result)
		}
		if !strings.Contains(stderr, "--approval auto-edit") || !strings.Contains(stderr, "rerun with --approval yolo") {
			t.Errorf("stderr: %s", stderr)
		}
	})
}

func TestTrustProcessCapIsReported(t *testing.T) {
	users(t, func(t *testing.T, uid int) {
		e := newTrustEnv(t, uid)
		e.config = "[sandbox]\nmax_processes = 20\n"
		if why := noProcessCap(t, e); why != "" {
			t.Skipf("no process cap on this machine: %s", why)
		}
		result, _ := e.attack("sh -c 'for i in $(seq 60); do sleep 2 & done 2>/dev/null; wait; exit 3'")
		if !strings.Contains(result, "at most 20 processes and threads") {
			t.Fatalf("the result does not report the cap:\n%s", result)
		}
	})
}

// noProcessCap asks `quire doctor` whether commands get a process cap
// here, and returns why not ("" when they do).
func noProcessCap(t *testing.T, e *trustEnv) string {
	t.Helper()
	quire, _ := trustBinaries(t)
	os.WriteFile(filepath.Join(e.home, ".config", "quire", "config.toml"), []byte(e.config), 0o644)
	e.chown()
	cmd := exec.Command(quire, "doctor")
	cmd.Dir = e.ws
	cmd.Env = []string{"HOME=" + e.home, "XDG_CONFIG_HOME=" + filepath.Join(e.home, ".config"), "QUIRE_HOME=" + filepath.Join(e.home, "state"), "PATH=" + os.Getenv("PATH")}
	if e.uid != os.Getuid() {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(e.uid), Gid: uint32(e.uid)}}
	}
	out, _ := cmd.CombinedOutput()
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "process cap:") && strings.Contains(l, "NONE") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

func TestTrustUnixSocketsClosedUnderStrict(t *testing.T) {
	users(t, func(t *testing.T, uid int) {
		_, probe := trustBinaries(t)
		e := newTrustEnv(t, uid)
		sock := filepath.Join(e.ws, "agent.sock")
		ln, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		os.Chmod(sock, 0o777)
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		result, _ := e.attack(probe+" unix "+sock, "--sandbox", "strict")
		if !strings.Contains(result, "denied unix connect") {
			t.Fatalf("a pathname UNIX socket was reachable under strict:\n%s", result)
		}
		result, _ = e.attack(probe+" unix "+sock, "--sandbox", "workspace")
		if !strings.Contains(result, "OPEN unix connect") {
			t.Fatalf("under workspace (network open) the socket should be reachable, as documented:\n%s", result)
		}
	})
}

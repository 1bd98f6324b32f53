//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"golang.org/x/sys/unix"

	"github.com/quire-sh/quire/sandbox/sandboxtest"
)

func TestMain(m *testing.M) {
	helperMain()
	MaybeLaunch()
	// Race-enabled launchers otherwise sleep a second at exit.
	os.Setenv("GORACE", "atexit_sleep_ms=0")
	if os.Getenv(standInEnv) != "" {
		standInMain()
	}
	if os.Getenv(victimEnv) != "" {
		victimMain()
	}
	os.Exit(m.Run())
}

// standInEnv turns the test binary into a stand-in for quire that starts
// a command leaving a background process and then waits to be killed.
const standInEnv = "QUIRE_SANDBOX_TEST_STAND_IN"

func standInMain() {
	p, _ := ProfileByName(Off, ".")
	Run(context.Background(), p, Support{}, Command{Argv: []string{"bash", "-c", "sleep 1000 & echo $!; wait"}, Dir: ".", Output: os.Stdout})
	os.Exit(0)
}

// fixture is a directory tree outside every temp dir (temp dirs are
// writable under all profiles, so "outside" must not be one of them):
// ws is the working directory, out a sibling the profiles must protect,
// state quire's state dir and home a fake $HOME.
type fixture struct {
	base, ws, out, state, home string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	base := sandboxtest.Dir(t, ".sandbox-test-")
	t.Cleanup(func() { os.RemoveAll(base) })
	base, _ = filepath.EvalSymlinks(base)
	f := fixture{base: base, ws: filepath.Join(base, "ws"), out: filepath.Join(base, "out"),
		state: filepath.Join(base, "state"), home: filepath.Join(base, "home")}
	for _, d := range []string{f.ws, f.out, f.state, filepath.Join(f.home, ".ssh"), filepath.Join(f.ws, ".git", "hooks")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(f.home, ".ssh", "id_rsa"), []byte("PRIVATE KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("QUIRE_HOME", f.state)
	t.Setenv("HOME", f.home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(f.home, ".config"))
	return f
}

func requireLandlock(t *testing.T, needTCP bool) Support {
	t.Helper()
	s := Detect()
	if s.LandlockABI < minFilesystemABI {
		t.Skipf("Landlock ABI %d < %d (%s): nothing to enforce with", s.LandlockABI, minFilesystemABI, s.LandlockReason)
	}
	if needTCP && !s.TCPRules() {
		t.Skipf("Landlock ABI %d has no TCP rules (needs %d)", s.LandlockABI, minNetworkABI)
	}
	return s
}

func (f fixture) profile(t *testing.T, name string) Profile {
	t.Helper()
	p, err := ProfileByName(name, f.ws)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// settings decodes the [sandbox] table of a config.toml, as package
// config hands it over.
func settings(t *testing.T, configTOML string) Settings {
	t.Helper()
	var file struct {
		Sandbox Settings `toml:"sandbox"`
	}
	if _, err := toml.Decode(configTOML, &file); err != nil {
		t.Fatal(err)
	}
	return file.Sandbox
}

// custom builds a profile the configuration defines.
func (f fixture) custom(t *testing.T, configTOML, name string) Profile {
	t.Helper()
	p, err := settings(t, configTOML).Profile(name, f.ws)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sh runs script with bash under p in the fixture's working directory.
func sh(t *testing.T, p Profile, s Support, script string, env ...string) (Exit, string) {
	t.Helper()
	var out syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	exit, err := Run(ctx, p, s, Command{
		Argv:   []string{"bash", "-c", script},
		Dir:    p.Dir,
		Env:    append(CommandEnv(os.Environ(), p), env...),
		Output: &out,
	})
	if err != nil {
		t.Fatalf("Run(%q): %v", script, err)
	}
	return exit, out.String()
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

func TestProfilesConfineWrites(t *testing.T) {
	f := newFixture(t)
	s := requireLandlock(t, false)
	tmp := t.TempDir()
	cases := []struct {
		profile string
		target  string
		allowed bool
	}{
		{Workspace, filepath.Join(f.ws, "in_ws.txt"), true},
		{Workspace, filepath.Join(tmp, "t"), true},
		{Workspace, filepath.Join(f.state, "t"), true},
		{Workspace, filepath.Join(f.out, "outside_ws.txt"), false},
		{Workspace, filepath.Join(f.home, "outside_ws.txt"), false},
		{Workspace, filepath.Join(f.ws, ".git", "hooks", "pre-commit"), false},
		{ReadOnly, filepath.Join(f.ws, "x"), false},
		{ReadOnly, filepath.Join(tmp, "ro"), true},
		{Strict, filepath.Join(f.ws, "x"), true},
		{Strict, filepath.Join(f.out, "x"), false},
	}
	for _, c := range cases {
		t.Run(c.profile+"/"+strings.TrimPrefix(c.target, f.base), func(t *testing.T) {
			p := f.profile(t, c.profile)
			exit, out := sh(t, p, s, fmt.Sprintf("echo x > %q", c.target))
			if got := exists(c.target); got != c.allowed {
				t.Fatalf("file written = %v, want %v (exit %d, output %q)", got, c.allowed, exit.Code, out)
			}
			if !c.allowed {
				if exit.Code == 0 {
					t.Fatalf("exit 0 for a refused write; output %q", out)
				}
				if !strings.Contains(out, "Permission denied") && !strings.Contains(out, "Read-only file system") {
					t.Fatalf("output %q does not report EACCES/EROFS", out)
				}
			}
		})
	}
}

func TestWorkspaceReadsEverything(t *testing.T) {
	f := newFixture(t)
	s := requireLandlock(t, false)
	exit, out := sh(t, f.profile(t, Workspace), s, "cat /etc/os-release >/dev/null && cat \"$HOME/.ssh/id_rsa\"")
	if exit.Code != 0 || !strings.Contains(out, "PRIVATE KEY") {
		t.Fatalf("workspace should read the whole disk (documented non-protection): exit %d, %q", exit.Code, out)
	}
}

func TestStrictHidesHome(t *testing.T) {
	f := newFixture(t)
	s := requireLandlock(t, false)
	p := f.profile(t, Strict)
	exit, out := sh(t, p, s, "cat \"$HOME/.ssh/id_rsa\"")
	if exit.Code == 0 || strings.Contains(out, "PRIVATE KEY") || !strings.Contains(out, "Permission denied") {
		t.Fatalf("strict read a planted key: exit %d, %q", exit.Code, out)
	}
	exit, out = sh(t, p, s, "ls /usr/bin >/dev/null && echo ok > ./x && cat ./x")
	if exit.Code != 0 || !strings.Contains(out, "ok") {
		t.Fatalf("strict should read system paths and write the working dir: exit %d, %q", exit.Code, out)
	}
}

func TestChildNetwork(t *testing.T) {
	f := newFixture(t)
	s := requireLandlock(t, true)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	tcp := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port)
	udp := "exec 3<>/dev/udp/127.0.0.1/9 && echo udp-open"
	for _, c := range []struct {
		profile string
		open    bool
	}{{Workspace, true}, {ReadOnly, false}, {Strict, false}} {
		p := f.profile(t, c.profile)
		exit, out := sh(t, p, s, tcp)
		if got := exit.Code == 0 && strings.Contains(out, "connected"); got != c.open {
			t.Errorf("%s: TCP connect succeeded = %v, want %v (output %q)", c.profile, got, c.open, out)
		}
		exit, out = sh(t, p, s, udp)
		if got := exit.Code == 0 && strings.Contains(out, "udp-open"); got != c.open {
			t.Errorf("%s: UDP socket succeeded = %v, want %v (output %q)", c.profile, got, c.open, out)
		}
		if !c.open && !strings.Contains(out, "not permitted") {
			t.Errorf("%s: UDP refusal should be EPERM, got %q", c.profile, out)
		}
	}
}

func TestConfinementSurvivesEscapes(t *testing.T) {
	f := newFixture(t)
	s := requireLandlock(t, false)
	p := f.profile(t, Workspace)
	target := filepath.Join(f.out, "escaped")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wideSpec, _ := json.Marshal(launchSpec{Profile: Profile{Name: "wide", Enforced: true, ReadAll: true, Write: []string{"/"}, Network: true}})
	wide := string(wideSpec)
	for _, script := range []string{
		fmt.Sprintf("sh -c 'sh -c \"echo x > %s\"'", target),
		fmt.Sprintf("unshare -m sh -c 'echo x > %s'", target),
		fmt.Sprintf("unshare -m sh -c 'umount %s/.git/hooks; echo x > %s/.git/hooks/post-checkout'", f.ws, f.ws),
		fmt.Sprintf("(echo x > %s) & wait", target),
		// A fresh, wider Landlock ruleset stacks on the old one: access
		// needs both, so nothing widens.
		fmt.Sprintf("%q %s %q sh -c 'echo x > %s'", self, LauncherArg, wide, target),
	} {
		sh(t, p, s, script)
		if exists(target) || exists(filepath.Join(f.ws, ".git", "hooks", "post-checkout")) {
			t.Fatalf("%q escaped the sandbox", script)
		}
	}
}

func TestCustomDenyProfile(t *testing.T) {
	f := newFixture(t)
	s := requireLandlock(t, false)
	os.MkdirAll(filepath.Join(f.ws, "secrets"), 0o755)
	os.WriteFile(filepath.Join(f.ws, "secrets", "key"), []byte("TOPSECRET\n"), 0o644)
	os.WriteFile(filepath.Join(f.ws, "public.txt"), []byte("PUBLIC\n"), 0o644)
	cfg := "[sandbox.profiles.nosecrets]\nextends = \"workspace\"\ndeny = [\"secrets\"]\nnetwork = false\n"
	p := f.custom(t, cfg, "nosecrets")
	if p.Network {
		t.Fatal("network = false was not applied")
	}
	exit, out := sh(t, p, s, "cat secrets/key")
	if exit.Code == 0 || strings.Contains(out, "TOPSECRET") {
		t.Fatalf("denied file was readable: %q", out)
	}
	exit, out = sh(t, p, s, "cat public.txt && echo more >> public.txt")
	if exit.Code != 0 || !strings.Contains(out, "PUBLIC") {
		t.Fatalf("siblings of a denied path must stay usable: exit %d, %q", exit.Code, out)
	}
	if names := settings(t, cfg).Names(); !contains(names, "nosecrets") {
		t.Fatalf("Names() = %v lacks the custom profile", names)
	}
}

func TestConfigRejectsAmbiguousPaths(t *testing.T) {
	f := newFixture(t)
	for _, entry := range []string{`"~/.ssh/*"`, `"a\nb"`, `""`} {
		cfg := "[sandbox.profiles.bad]\ndeny = [" + entry + "]\n"
		if _, err := settings(t, cfg).Profile("bad", f.ws); err == nil {
			t.Errorf("deny entry %s was accepted", entry)
		}
	}
	if _, err := ProfileByName("nope", f.ws); err == nil || !strings.Contains(err.Error(), "workspace") {
		t.Errorf("unknown profile error should list the choices, got %v", err)
	}
}

func TestFailClosed(t *testing.T) {
	f := newFixture(t)
	target := filepath.Join(f.ws, "ran")
	for _, s := range []Support{{LandlockABI: 0, LandlockReason: "simulated"}, {LandlockABI: 2}} {
		for _, name := range []string{Workspace, ReadOnly, Strict} {
			p := f.profile(t, name)
			_, err := Run(context.Background(), p, s, Command{Argv: []string{"touch", target}, Dir: f.ws})
			if err == nil || !strings.Contains(err.Error(), "Landlock") || !strings.Contains(err.Error(), "--sandbox") {
				t.Fatalf("%s on ABI %d: err = %v, want a refusal naming Landlock and --sandbox", name, s.LandlockABI, err)
			}
			if exists(target) {
				t.Fatalf("%s on ABI %d ran the command", name, s.LandlockABI)
			}
		}
	}
	// off needs nothing from the kernel.
	p := f.profile(t, Off)
	if _, err := Run(context.Background(), p, Support{}, Command{Argv: []string{"touch", target}, Dir: f.ws}); err != nil || !exists(target) {
		t.Fatalf("off profile: err %v, ran %v", err, exists(target))
	}
}

func TestNoTerminalAndOwnSession(t *testing.T) {
	f := newFixture(t)
	s := requireLandlock(t, false)
	exit, out := sh(t, f.profile(t, Workspace), s,
		`[ -t 0 ] && echo stdin-tty; [ -t 1 ] && echo stdout-tty; (: </dev/tty) 2>/dev/null && echo has-ctty; read -r line; echo "read=$?"; echo "sid=$(ps -o sid= -p $$ | tr -d ' ') ppid=$PPID"`)
	if exit.Code != 0 {
		t.Fatalf("exit %d: %q", exit.Code, out)
	}
	for _, bad := range []string{"stdin-tty", "stdout-tty", "has-ctty"} {
		if strings.Contains(out, bad) {
			t.Errorf("child has a terminal (%s): %q", bad, out)
		}
	}
	if !strings.Contains(out, "read=1") {
		t.Errorf("stdin is not /dev/null (EOF): %q", out)
	}
	var sid, ppid int
	if i := strings.Index(out, "sid="); i < 0 {
		t.Fatalf("no sid in %q", out)
	} else if _, err := fmt.Sscanf(out[i:], "sid=%d ppid=%d", &sid, &ppid); err != nil || sid != ppid {
		t.Errorf("the command's session is not the launcher's: %q", out)
	}
	if own, _ := unix.Getsid(0); own == sid {
		t.Errorf("the command shares quire's session %d", own)
	}
}

// grandchild starts `sleep 1000 &` under p, waits until its pid is
// printed, and returns it with the channel Run's result arrives on.
func grandchild(t *testing.T, ctx context.Context, p Profile, s Support) (int, chan Exit) {
	t.Helper()
	pidLine := make(chan int, 1)
	w := &pidWriter{ch: pidLine}
	done := make(chan Exit, 1)
	go func() {
		exit, err := Run(ctx, p, s, Command{Argv: []string{"bash", "-c", "sleep 1000 & echo $!; wait"}, Dir: p.Dir, Env: CommandEnv(os.Environ(), p), Output: w, Grace: 200 * time.Millisecond})
		if err != nil {
			t.Error(err)
		}
		done <- exit
	}()
	select {
	case pid := <-pidLine:
		return pid, done
	case <-time.After(10 * time.Second):
		t.Fatal("the command never printed its background pid")
	}
	return 0, nil
}

type pidWriter struct {
	buf  []byte
	ch   chan int
	sent bool
}

func (w *pidWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	if i := bytes.IndexByte(w.buf, '\n'); i >= 0 && !w.sent {
		var pid int
		fmt.Sscanf(string(w.buf[:i]), "%d", &pid)
		w.ch <- pid
		w.sent = true
	}
	return len(p), nil
}

// gone reports whether pid no longer runs (absent or a zombie waiting
// for a reaper that is not us).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return true
	}
	p, ok := readProc(pid)
	return !ok || p.zombie
}

func TestCancelAndTimeoutKillTheGroup(t *testing.T) {
	f := newFixture(t)
	s := requireLandlock(t, false)
	p := f.profile(t, Workspace)

	ctx, cancel := context.WithCancel(context.Background())
	pid, done := grandchild(t, ctx, p, s)
	cancel()
	exit := <-done
	if !exit.Cancelled || !gone(pid) {
		t.Fatalf("cancel: exit %+v, grandchild %d gone = %v", exit, pid, gone(pid))
	}

	ctx, cancel = context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	pid, done = grandchild(t, ctx, p, s)
	exit = <-done
	if !exit.Cancelled || !gone(pid) {
		t.Fatalf("timeout: exit %+v, grandchild %d gone = %v", exit, pid, gone(pid))
	}
}

func TestLeftoversDieWithTheCommand(t *testing.T) {
	f := newFixture(t)
	p := f.profile(t, Off)
	var out syncBuffer
	exit, err := Run(context.Background(), p, Support{}, Command{
		Argv: []string{"bash", "-c", "sleep 1000 >/dev/null 2>&1 & echo $!"}, Dir: f.ws, Output: &out, Grace: 200 * time.Millisecond})
	if err != nil || exit.Code != 0 {
		t.Fatalf("exit %+v, err %v", exit, err)
	}
	var pid int
	fmt.Sscanf(out.String(), "%d", &pid)
	if pid == 0 || !gone(pid) {
		t.Fatalf("background process %d outlived its command", pid)
	}
}

func TestCheckAndReport(t *testing.T) {
	f := newFixture(t)
	full := Support{LandlockABI: 7, Seccomp: true}
	for _, name := range Builtins() {
		if err := f.profile(t, name).Check(full); err != nil {
			t.Errorf("%s on ABI 7: %v", name, err)
		}
	}
	if err := f.profile(t, ReadOnly).Check(Support{LandlockABI: 7}); err == nil || !strings.Contains(err.Error(), "seccomp") {
		t.Errorf("read-only without seccomp: %v", err)
	}
	r := Report(full, f.ws, Settings{})
	for _, want := range []string{"Landlock ABI:        7", "TCP rules:  yes", "strict", "enforceable"} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
}

func TestSelfTest(t *testing.T) {
	newFixture(t)
	s := requireLandlock(t, true)
	for _, f := range SelfTest(context.Background(), s) {
		if !f.OK {
			t.Errorf("%s: failed (%s)", f.Check, f.Detail)
		}
	}
}

// BenchmarkRun measures what confinement adds to starting a command:
// the re-exec, Landlock, the seccomp filter and, with a .git directory,
// the private mount namespace.
func BenchmarkRun(b *testing.B) {
	s := Detect()
	for _, name := range []string{Off, Workspace, Strict} {
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755)
			p, err := ProfileByName(name, dir)
			if err != nil {
				b.Fatal(err)
			}
			if p.Check(s) != nil {
				b.Skip("not enforceable here")
			}
			for b.Loop() {
				if _, err := Run(context.Background(), p, s, Command{Argv: []string{"true"}, Dir: dir}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestNothingOutlivesQuire(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	quire := exec.Command(self)
	quire.Env = append(os.Environ(), standInEnv+"=1")
	out, err := quire.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := quire.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Fscanf(out, "%d\n", &pid); err != nil {
		t.Fatal(err)
	}
	quire.Process.Kill() // quire dies without any chance to clean up
	quire.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for !gone(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !gone(pid) {
		t.Fatalf("background process %d outlived quire", pid)
	}
}

func TestSetsidEscapeeIsEnded(t *testing.T) {
	f := newFixture(t)
	p := f.profile(t, Off)
	var out syncBuffer
	exit, err := Run(context.Background(), p, Support{}, Command{
		Argv: []string{"bash", "-c", "setsid sleep 1000 >/dev/null 2>&1 < /dev/null & echo $!"}, Dir: f.ws, Output: &out, Grace: 200 * time.Millisecond})
	if err != nil || exit.Code != 0 {
		t.Fatalf("exit %+v, err %v", exit, err)
	}
	var pid int
	fmt.Sscanf(out.String(), "%d", &pid)
	if pid == 0 || !gone(pid) {
		t.Fatalf("a process that left the group with setsid (%d) outlived its command", pid)
	}
}

func TestExitStatusAndSignal(t *testing.T) {
	f := newFixture(t)
	p := f.profile(t, Off)
	for _, c := range []struct {
		script string
		code   int
		signal string
	}{{"exit 7", 7, ""}, {"kill -TERM $$", 128 + 15, "SIGTERM"}, {"true", 0, ""}} {
		exit, err := Run(context.Background(), p, Support{}, Command{Argv: []string{"bash", "-c", c.script}, Dir: f.ws})
		if err != nil || exit.Code != c.code || exit.Signal != c.signal {
			t.Errorf("%q: exit %+v, err %v; want code %d signal %q", c.script, exit, err, c.code, c.signal)
		}
	}
}

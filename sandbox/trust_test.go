//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

// victimEnv turns the test binary into a stand-in for quire holding a
// secret in its environment: it hardens itself as quire's main does, then
// runs, under the profile named by the variable, a command that attacks
// it (see attackProcess), and prints what the command printed.
const victimEnv = "QUIRE_SANDBOX_TEST_VICTIM"

// secretEnv holds the victim's secret; its name looks like a credential
// so no command inherits it.
const victimSecretEnv = "QUIRE_TEST_API_KEY"

func victimMain() {
	if err := Harden(); err != nil {
		fmt.Println("harden:", err)
		os.Exit(1)
	}
	ws, _ := os.Getwd()
	// The settings come from the config file, as package config reads it.
	var file struct {
		Sandbox Settings `toml:"sandbox"`
	}
	if _, err := toml.DecodeFile(ConfigFile(), &file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Println("config:", err)
		os.Exit(1)
	}
	p, err := file.Sandbox.Profile(os.Getenv(victimEnv), ws)
	if err != nil {
		fmt.Println("profile:", err)
		os.Exit(1)
	}
	self, _ := os.Executable()
	script := fmt.Sprintf("%q %s %d %q; env | grep -c %q", self, attackArg, os.Getpid(), os.Getenv(victimSecretEnv), os.Getenv(victimSecretEnv))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	exit, err := Run(ctx, p, Detect(), Command{Argv: []string{"bash", "-c", script}, Dir: ws, Env: CommandEnv(os.Environ(), p), Output: os.Stdout})
	if err != nil {
		fmt.Println("run:", err)
		os.Exit(1)
	}
	fmt.Printf("exit %d\n", exit.Code)
	os.Exit(0)
}

func TestQuireIsOutOfTheCommandsReach(t *testing.T) {
	bothUsers(t, func(t *testing.T) {
		requireLandlock(t, false)
		for _, c := range []struct{ profile, config string }{
			{Workspace, ""},
			{Strict, ""},
			// Without a user namespace for the process cap, an
			// unprivileged command shares quire's namespace: only
			// quire's being non-dumpable keeps it out.
			{Workspace, "[sandbox]\nmax_processes = 0\n"},
		} {
			t.Run(c.profile+strings.ReplaceAll(c.config, "\n", " "), func(t *testing.T) {
				f := newFixture(t)
				os.RemoveAll(filepath.Join(f.ws, ".git")) // no private namespace needed for binds
				if c.config != "" {
					os.MkdirAll(filepath.Join(f.home, ".config", "quire"), 0o755)
					os.WriteFile(filepath.Join(f.home, ".config", "quire", "config.toml"), []byte(c.config), 0o644)
				}
				secret := fmt.Sprintf("sk-secret-%d-%d", os.Getpid(), time.Now().UnixNano())
				victim := exec.Command(selfBinary(t))
				victim.Dir = f.ws
				victim.Env = append(os.Environ(), victimEnv+"="+c.profile, victimSecretEnv+"="+secret, "OPENAI_API_KEY="+secret)
				out, err := victim.CombinedOutput()
				if err != nil || !strings.Contains(string(out), "exit ") {
					t.Fatalf("victim: %v\n%s", err, out)
				}
				if leaks := lines(string(out), "LEAK"); len(leaks) > 0 {
					t.Fatalf("the command got at quire:\n%s", out)
				}
				for _, want := range []string{"denied environ", "denied mem", "denied ptrace", "denied process_vm_readv", "denied pidfd_getfd"} {
					if !strings.Contains(string(out), want) {
						t.Errorf("no %q line: the attack did not run\n%s", want, out)
					}
				}
				if !strings.Contains(string(out), "\n0\n") {
					t.Errorf("the command's environment held the secret:\n%s", out)
				}
			})
		}
	})
}

func TestCredentialsNeverReachCommands(t *testing.T) {
	f := newFixture(t)
	base := []string{
		"PATH=/usr/bin", "HOME=/home/u", "PWD=/w", "OLDPWD=/", "LANG=C.UTF-8", "KEYMAP=us", "TERM_PROGRAM=x",
		"OPENAI_API_KEY=sk-a", "QUIRE_API_KEY=q", "MY_PROVIDER_KEY=p",
		"GITHUB_TOKEN=t", "GH_TOKEN=t", "AWS_SECRET_ACCESS_KEY=s", "AWS_ACCESS_KEY_ID=AKIAABCDEFGHIJKLMNOP", "AWS_SESSION_TOKEN=t",
		"NPM_TOKEN=t", "PGPASSWORD=p", "MYSQL_PWD=p", "DATABASE_URL=postgres://u:hunter2@db/x", "SSH_AUTH_SOCK=/tmp/s",
		"STRIPE_KEY=k", "SLACK_WEBHOOK=h", "SENTRY_DSN=https://k@sentry.io/1", "CI_JOB_JWT=j", "DOCKER_AUTH_CONFIG=x",
		"HARMLESS=ghp_0123456789abcdefghijABCDEFGHIJ0123", "LD_PRELOAD=/x.so", "BASH_FUNC_ls%%=() { rm -rf ~; }",
		"GITHUB_PAT=x", "LDAP_BIND_PW=x", "PAYMENTS=sk_live_0123456789abcdefABCD", "ID=eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.sig",
		"TF_VAR_db_password=x", "AZURE_STORAGE_CONNECTION_STRING=x", "REDIS_URL=redis://:hunter2@cache:6379",
		"DB_URL=postgres://db/x?user=u&password=hunter2", "JDBC_URL=jdbc:mysql://db/x?pwd=p", "UPLOAD_URL=https://s3.example/b/o?X-Amz-Signature=abc123",
		"NOTIFY_URL=https://hooks.slack.com/services/T000/B000/XXXXXXXX", "DOCS_URL=https://example.com/page?id=42&lang=en",
	}
	kept := []string{"PATH", "HOME", "PWD", "OLDPWD", "LANG", "KEYMAP", "TERM_PROGRAM", "DOCS_URL"}
	secrets := []string{"DB_URL", "JDBC_URL", "UPLOAD_URL", "NOTIFY_URL", "OPENAI_API_KEY", "QUIRE_API_KEY", "MY_PROVIDER_KEY", "GITHUB_TOKEN", "GH_TOKEN", "AWS_SECRET_ACCESS_KEY",
		"AWS_ACCESS_KEY_ID", "AWS_SESSION_TOKEN", "NPM_TOKEN", "PGPASSWORD", "MYSQL_PWD", "DATABASE_URL", "SSH_AUTH_SOCK",
		"STRIPE_KEY", "SLACK_WEBHOOK", "SENTRY_DSN", "CI_JOB_JWT", "DOCKER_AUTH_CONFIG", "HARMLESS",
		"GITHUB_PAT", "LDAP_BIND_PW", "PAYMENTS", "ID", "TF_VAR_db_password", "AZURE_STORAGE_CONNECTION_STRING", "REDIS_URL"}
	for _, name := range []string{Workspace, ReadOnly, Strict} {
		p := f.profile(t, name)
		p.SecretEnv = []string{"MY_PROVIDER_KEY"}
		env := envList(CommandEnv(base, p))
		for _, k := range kept {
			if _, ok := env.lookup(k); !ok {
				t.Errorf("%s dropped %s", name, k)
			}
		}
		for _, k := range append(secrets, "LD_PRELOAD", "BASH_FUNC_ls%%") {
			if _, ok := env.lookup(k); ok {
				t.Errorf("%s passed %s", name, k)
			}
		}
		dropped := map[string]bool{}
		for _, d := range DroppedEnv(base, p) {
			dropped[d.Name] = d.Reason != ""
		}
		for _, k := range secrets {
			if !dropped[k] {
				t.Errorf("%s: DroppedEnv does not list %s", name, k)
			}
		}
	}
	// pass_env passes named variables on purpose, never loader hooks.
	p := f.custom(t, "[sandbox]\npass_env = [\"GITHUB_TOKEN\", \"SSH_AUTH_SOCK\"]\n", Workspace)
	env := envList(CommandEnv(base, p))
	for _, k := range []string{"GITHUB_TOKEN", "SSH_AUTH_SOCK"} {
		if _, ok := env.lookup(k); !ok {
			t.Errorf("pass_env did not pass %s", k)
		}
	}
	if _, ok := env.lookup("GH_TOKEN"); ok {
		t.Error("pass_env passed a variable it does not name")
	}
	if _, err := settings(t, "[sandbox]\npass_env = [\"LD_PRELOAD\"]\n").Profile(Workspace, f.ws); err == nil || !strings.Contains(err.Error(), "LD_PRELOAD") {
		t.Errorf("pass_env = [LD_PRELOAD] was accepted: %v", err)
	}
	// off confines nothing but still keeps quire's own keys.
	env = envList(CommandEnv(base, f.profile(t, Off)))
	if _, ok := env.lookup("OPENAI_API_KEY"); ok {
		t.Error("off passed quire's API key")
	}
}

func TestCommandsGetNoCredentials(t *testing.T) {
	f := newFixture(t)
	s := requireLandlock(t, false)
	var buf syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := f.profile(t, Workspace)
	env := CommandEnv(append(os.Environ(), "GITHUB_TOKEN=ghp_x", "AWS_SECRET_ACCESS_KEY=y", "DATABASE_URL=postgres://a:b@c/d"), p)
	if _, err := Run(ctx, p, s, Command{Argv: []string{"env"}, Dir: f.ws, Env: env, Output: &buf}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "DATABASE_URL"} {
		if strings.Contains(buf.String(), k+"=") {
			t.Errorf("the command saw %s", k)
		}
	}
}

func TestUnixSocketsClosedWithoutNetwork(t *testing.T) {
	bothUsers(t, func(t *testing.T) {
		s := requireLandlock(t, true)
		f := newFixture(t)
		path := filepath.Join(f.ws, "agent.sock")
		abstract := fmt.Sprintf("quire-test-%d", os.Getpid())
		for _, addr := range []string{path, "@" + abstract} {
			ln, err := net.Listen("unix", addr)
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
		}
		script := fmt.Sprintf("%q __unix %q %q", selfBinary(t), path, abstract)
		for _, c := range []struct {
			profile string
			open    []string
			closed  []string
		}{
			{Workspace, []string{"pathname", "abstract", "socketpair stream", "socketpair dgram"}, nil},
			{ReadOnly, []string{"socketpair stream", "socketpair seqpacket"}, []string{"pathname", "abstract", "socketpair dgram", "socketpair dgram with high bits", "socket with high bits"}},
			{Strict, []string{"socketpair stream", "socketpair seqpacket"}, []string{"pathname", "abstract", "socketpair dgram", "socketpair dgram with high bits", "socket with high bits"}},
		} {
			_, out := sh(t, f.profile(t, c.profile), s, script)
			for _, k := range c.open {
				if !strings.Contains(out, "OPEN "+k+"\n") {
					t.Errorf("%s: %s should work:\n%s", c.profile, k, out)
				}
			}
			for _, k := range c.closed {
				if !strings.Contains(out, "denied "+k+":") {
					t.Errorf("%s: %s should be refused:\n%s", c.profile, k, out)
				}
			}
		}
	})
}

func TestProcessCap(t *testing.T) {
	bothUsers(t, func(t *testing.T) {
		s := requireLandlock(t, false)
		f := newFixture(t)
		p := f.custom(t, "[sandbox]\nmax_processes = 40\n", Workspace)
		if p.MaxProcesses != 40 {
			t.Fatalf("max_processes = 40 gave %d", p.MaxProcesses)
		}
		var out syncBuffer
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		exit, err := Run(ctx, p, s, Command{Argv: []string{selfBinary(t), "__forks", "200"}, Dir: f.ws, Env: CommandEnv(os.Environ(), p), Output: &out})
		if err != nil {
			t.Fatal(err)
		}
		cap := exit.Processes
		t.Logf("cap %+v: %s", cap, out.String())
		if cap.Limit == 0 {
			t.Skipf("no process cap on this machine: %s", cap.Why)
		}
		var started, asked int
		if _, err := fmt.Sscanf(out.String(), "started %d of %d", &started, &asked); err != nil {
			t.Fatalf("no report from the command: %q", out.String())
		}
		if started >= 40 || started == 0 {
			t.Fatalf("started %d children under a cap of 40 (%s)", started, cap.Method)
		}
		if cap.Measured && !cap.Reached {
			t.Errorf("%s: the cap was reached but not reported", cap.Method)
		}
		// An ordinary command under the same cap does not report it.
		exit, err = Run(ctx, p, s, Command{Argv: []string{"true"}, Dir: f.ws, Env: CommandEnv(os.Environ(), p)})
		if err != nil || exit.Code != 0 || exit.Processes.Reached {
			t.Fatalf("a plain command: %+v, %v", exit, err)
		}
	})
}

func TestRootCommandsKeepOnlyFileCapabilities(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("capabilities are dropped only when quire runs as root")
	}
	f := newFixture(t)
	s := requireLandlock(t, false)
	for _, c := range []struct {
		profile string
		want    uint64
	}{
		{Workspace, 1<<0 | 1<<1 | 1<<3 | 1<<4 | 1<<10 | 1<<13}, // CHOWN DAC_OVERRIDE FOWNER FSETID NET_BIND_SERVICE NET_RAW
		{Strict, 1<<0 | 1<<1 | 1<<3 | 1<<4},
	} {
		_, out := sh(t, f.profile(t, c.profile), s, "grep -E '^Cap(Prm|Eff|Bnd|Amb|Inh):' /proc/self/status; mknod ./disk b 8 0 && echo MKNOD-OK")
		for _, field := range []string{"CapPrm", "CapEff", "CapBnd"} {
			i := strings.Index(out, field+":")
			if i < 0 {
				t.Fatalf("%s: no %s in %q", c.profile, field, out)
			}
			v, err := strconv.ParseUint(strings.Fields(out[i+len(field)+1:])[0], 16, 64)
			if err != nil || v != c.want {
				t.Errorf("%s: %s = %x, want %x", c.profile, field, v, c.want)
			}
		}
		if strings.Contains(out, "MKNOD-OK") {
			t.Errorf("%s: root made a device node", c.profile)
		}
	}
}

// TestMetadataOutsideTheWorkspaceStaysOpen pins a documented gap: Landlock
// does not restrict chmod, chown or utimes, so a command may change the
// mode and times of files it can reach outside the writable trees
// (contents stay out of reach).
func TestMetadataOutsideTheWorkspaceStaysOpen(t *testing.T) {
	bothUsers(t, func(t *testing.T) {
		f := newFixture(t)
		s := requireLandlock(t, false)
		target := filepath.Join(f.out, "file")
		os.WriteFile(target, []byte("x\n"), 0o644)
		_, out := sh(t, f.profile(t, Strict), s, fmt.Sprintf("chmod 600 %q && echo CHMOD; touch -d 2001-01-01 %q && echo TOUCH; echo y >> %q || echo WRITE-REFUSED", target, target, target))
		fi, _ := os.Stat(target)
		if !strings.Contains(out, "WRITE-REFUSED") {
			t.Fatalf("the content outside was writable: %s", out)
		}
		if fi.Mode().Perm() != 0o600 || !strings.Contains(out, "CHMOD") {
			t.Fatalf("the documented gap closed (chmod outside refused): update the package doc; %s", out)
		}
	})
}

// The file tools run inside quire: every /proc path to one of its threads
// is its environment, API key included.
func TestFileToolsCannotReadQuiresProcess(t *testing.T) {
	f := newFixture(t)
	p := f.profile(t, Workspace)
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skip(err)
	}
	paths := []string{"/proc/self/environ", "/proc/thread-self/environ", fmt.Sprintf("/proc/%d/environ", os.Getpid())}
	for _, task := range tasks {
		paths = append(paths, "/proc/"+task.Name()+"/environ", fmt.Sprintf("/proc/%d/task/%s/environ", os.Getpid(), task.Name()))
	}
	for _, path := range paths {
		if _, err := p.CanRead(path); err == nil {
			t.Errorf("the file tools may read %s", path)
		}
	}
	if _, err := p.CanRead("/dev/sda"); err == nil {
		t.Error("the file tools may read a raw disk")
	}
	if _, err := p.CanRead("/dev/null"); err != nil {
		t.Errorf("/dev/null: %v", err)
	}
}

func TestQuireConfigIsOutOfReach(t *testing.T) {
	f := newFixture(t)
	s := requireLandlock(t, false)
	cfgDir := filepath.Join(f.home, ".config", "quire")
	os.MkdirAll(cfgDir, 0o755)
	cfg := filepath.Join(cfgDir, "config.toml")
	os.WriteFile(cfg, []byte("api_key = \"sk-in-the-config-file\"\n"), 0o600)
	for _, name := range []string{Workspace, ReadOnly, Strict} {
		p := f.profile(t, name)
		_, out := sh(t, p, s, fmt.Sprintf("cat %q", cfg))
		if strings.Contains(out, "sk-in-the-config-file") {
			t.Errorf("%s: a command read quire's configuration:\n%s", name, out)
		}
		if _, err := p.CanRead(cfg); err == nil || !strings.Contains(err.Error(), "API keys") {
			t.Errorf("%s: the file tools may read quire's configuration: %v", name, err)
		}
	}
}

package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/quire-sh/quire/sandbox"
)

func requireSandbox(t *testing.T, env *Env) {
	t.Helper()
	if err := env.Profile.Check(env.Support); err != nil {
		t.Skipf("sandbox not enforceable here: %v", err)
	}
}

func TestShellRunsSandboxed(t *testing.T) {
	te := newTestEnv(t, "workspace")
	requireSandbox(t, te.Env)
	outside := filepath.Join(te.out, "x")
	var mu sync.Mutex
	var streamed strings.Builder
	res := runRaw(t, Shell{}, te.Env, args(t, obj{"command": fmt.Sprintf("echo hello; echo inside > in.txt; echo nope > %s; exit 3", outside)}),
		func(b []byte) { mu.Lock(); streamed.Write(b); mu.Unlock() })
	if res.ExitCode == nil || *res.ExitCode != 3 || !strings.Contains(res.Output, "[exit code 3]") {
		t.Fatalf("%+v", res)
	}
	if !strings.Contains(res.Output, "hello") || !strings.Contains(res.Output, "Permission denied") {
		t.Fatalf("output %q", res.Output)
	}
	mu.Lock()
	if !strings.Contains(streamed.String(), "hello") {
		t.Errorf("nothing streamed: %q", streamed.String())
	}
	mu.Unlock()
	if te.read(t, "in.txt") != "inside\n" {
		t.Error("write inside the working dir failed")
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("write outside the working dir succeeded")
	}
}

func TestShellEnvironment(t *testing.T) {
	te := newTestEnv(t, "workspace")
	requireSandbox(t, te.Env)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("BASH_ENV", "/nonexistent")
	res := run(t, Shell{}, te.Env, obj{"command": `echo "pager=$PAGER editor=$GIT_EDITOR gpg=[$GPG_TTY] key=[$OPENAI_API_KEY] bashenv=[$BASH_ENV]"; tty; pwd`, "workdir": "."})
	for _, want := range []string{"pager=cat", "editor=true", "gpg=[]", "key=[]", "bashenv=[]", "not a tty", te.ws} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("lacks %q: %s", want, res.Output)
		}
	}
}

func TestShellTimeoutKillsGrandchildren(t *testing.T) {
	te := newTestEnv(t, "workspace")
	requireSandbox(t, te.Env)
	start := time.Now()
	res := run(t, Shell{}, te.Env, obj{"command": "sleep 1000 & echo $!; wait", "timeout_ms": 2000})
	if !res.IsError || !strings.Contains(res.Output, "timed out after 2s") {
		t.Fatalf("%+v", res)
	}
	var pid int
	fmt.Sscanf(res.Output, "%d", &pid)
	if pid == 0 {
		t.Fatalf("no pid in %q", res.Output)
	}
	if syscall.Kill(pid, 0) == nil && !zombie(pid) {
		t.Fatalf("grandchild %d survived the timeout", pid)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatalf("took %v", time.Since(start))
	}
}

func TestShellCancel(t *testing.T) {
	te := newTestEnv(t, "workspace")
	requireSandbox(t, te.Env)
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan int, 1)
	go func() {
		var buf []byte
		sent := false
		res := runCtx(ctx, Shell{}, te.Env, args(t, obj{"command": "sleep 1000 & echo $!; wait"}), func(b []byte) {
			buf = append(buf, b...)
			var pid int
			if !sent && strings.Contains(string(buf), "\n") {
				fmt.Sscanf(string(buf), "%d", &pid)
				got <- pid
				sent = true
			}
		})
		if !res.IsError || !strings.Contains(res.Output, "cancelled") {
			t.Errorf("%+v", res)
		}
		close(got)
	}()
	pid := <-got
	cancel()
	for range got {
	}
	if syscall.Kill(pid, 0) == nil && !zombie(pid) {
		t.Fatalf("grandchild %d survived cancel", pid)
	}
}

func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && i+2 < len(b) && (b[i+2] == 'Z' || b[i+2] == 'X')
}

func TestShellHugeOutputIsBounded(t *testing.T) {
	te := newTestEnv(t, "workspace")
	requireSandbox(t, te.Env)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := run(t, Shell{}, te.Env, obj{"command": "head -c 10000000 /dev/zero | tr '\\0' 'a'; echo; echo THE-END"})
	runtime.ReadMemStats(&after)
	if !res.Truncated || len(res.Output) > shellLimitBytes+1000 {
		t.Fatalf("truncated %v, %d bytes", res.Truncated, len(res.Output))
	}
	if !strings.Contains(res.Output, "output truncated") || !strings.Contains(res.Output, "THE-END") || !strings.HasPrefix(res.Output, "aaaa") {
		t.Fatalf("head/tail/marker missing: %.200q … %q", res.Output, res.Output[len(res.Output)-200:])
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Fatalf("reading 10 MB of output allocated %d bytes", grew)
	}
}

func TestShellRefusesUnenforceableProfile(t *testing.T) {
	te := newTestEnv(t, "strict")
	te.Support = sandbox.Support{LandlockABI: 0, LandlockReason: "simulated"}
	res := run(t, Shell{}, te.Env, obj{"command": "touch ran"})
	if !res.IsError || !strings.Contains(res.Output, "was not run") || !strings.Contains(res.Output, "--sandbox") {
		t.Fatalf("%+v", res)
	}
	if _, err := os.Stat(filepath.Join(te.ws, "ran")); err == nil {
		t.Fatal("the command ran")
	}
}

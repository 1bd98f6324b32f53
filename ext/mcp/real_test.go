package mcp

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quire-sh/quire/ext/mcp/mcptest"
	"github.com/quire-sh/quire/sandbox"
)

// Tests against servers other people wrote: the reference "everything"
// server over stdio and over streamable HTTP, and the filesystem server.

func TestEverythingOverStdio(t *testing.T) {
	npm := mcptest.Need(t)
	f := start(t, sandbox.Workspace, Server{Name: "everything", Origin: OriginConfig, Config: func() ServerConfig {
		c := ServerConfig{Command: npm.Node, Args: []string{npm.Everything, "stdio"}, Enabled: true}
		c.check("everything")
		return c
	}()})
	if sandbox.Detect().LandlockABI < 3 {
		// Without Landlock the workspace profile cannot be enforced: the
		// server must fail to start, saying so.
		f.settle()
		if st := f.state("everything"); st.State != Failed {
			t.Fatalf("an unenforceable profile started the server: %+v", st)
		}
		t.Skip("Landlock is not available: the rest needs the server running sandboxed")
	}
	f.settle()
	st := f.state("everything")
	if st.State != Ready || len(st.Tools) < 5 || st.Prompts == 0 || !st.Resources {
		t.Fatalf("status %+v", st)
	}
	res, err := f.call(context.Background(), "mcp__everything__echo", `{"message":"hello from quire"}`)
	if err != nil || res.IsError || !strings.Contains(res.Output, "hello from quire") {
		t.Fatalf("echo: %+v %v", res, err)
	}
	echo, _ := f.reg.Lookup("mcp__everything__echo")
	if !echo.Spec().ReadOnlyHint {
		t.Error("echo's readOnlyHint was not read")
	}
	res, _ = f.call(context.Background(), "mcp__everything__get-env", `{}`)
	if !strings.Contains(res.Output, `"QUIRE_SESSION_ID": "s-1"`) || !strings.Contains(res.Output, `"QUIRE_PROJECT_DIR": "`+f.dir+`"`) {
		t.Errorf("get-env lacks quire's identity:\n%.2000s", res.Output)
	}
	res, _ = f.call(context.Background(), "mcp__everything__get-sum", `{"a":2,"b":3}`)
	if !strings.Contains(res.Output, "5") {
		t.Errorf("get-sum: %+v", res)
	}
	if _, err := f.call(context.Background(), "mcp__everything__get-sum", `{"a":"two"}`); err == nil {
		t.Error("get-sum with a string for a number passed the schema check")
	}
	res, _ = f.call(context.Background(), "mcp__everything__get-tiny-image", `{}`)
	if !strings.Contains(res.Output, "[image: image/png") {
		t.Errorf("image: %q", res.Output)
	}
	res, _ = f.call(context.Background(), "mcp_read_resource", `{"server":"everything","uri":"demo://resource/static/document/architecture.md"}`)
	if res.IsError || len(res.Output) < 100 {
		t.Errorf("resource: %+v", res)
	}
	text, err := f.m.RunPrompt(context.Background(), "mcp__everything__args-prompt", []string{"Paris"})
	if err != nil || !strings.Contains(text, "Paris") {
		t.Errorf("prompt: %q %v", text, err)
	}
}

// freePort finds a TCP port nothing listens on.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// serveEverything runs the everything server over HTTP in mode on port
// until the test ends.
func serveEverything(t *testing.T, npm mcptest.Servers, mode, ready string, port int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(npm.Node, npm.Everything, mode)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	listening := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), ready) {
				listening <- true
			}
		}
	}()
	select {
	case <-listening:
	case <-time.After(30 * time.Second):
		t.Fatal("the HTTP server did not start")
	}
	return cmd
}

// The older HTTP+SSE transport, as a .mcp.json's "type": "sse" asks.
func TestEverythingOverSSE(t *testing.T) {
	npm := mcptest.Need(t)
	port := freePort(t)
	serveEverything(t, npm, "sse", "running on port", port)
	servers, err := ParseProject([]byte(fmt.Sprintf(`{"mcpServers":{"old":{"type":"sse","url":"http://127.0.0.1:%d/sse"}}}`, port)), os.Getenv)
	if err != nil || servers["old"].Problem != "" {
		t.Fatal(err, servers)
	}
	c := servers["old"]
	c.StartupTimeout = 10 * time.Second
	f := start(t, sandbox.Off, Server{Name: "old", Origin: OriginProject, Config: c})
	f.settle()
	if st := f.state("old"); st.State != Ready {
		t.Fatalf("status %+v", st)
	}
	res, err := f.call(context.Background(), "mcp__old__echo", `{"message":"over sse"}`)
	if err != nil || !strings.Contains(res.Output, "over sse") {
		t.Fatalf("echo: %+v %v; status %+v", res, err, f.state("old"))
	}
}

func TestEverythingOverStreamableHTTP(t *testing.T) {
	npm := mcptest.Need(t)
	port := freePort(t)
	cmd := serveEverything(t, npm, "streamableHttp", "listening", port)
	t.Setenv("QUIRE_TEST_TOKEN", "t0ken")
	c := ServerConfig{URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port), BearerTokenEnv: "QUIRE_TEST_TOKEN", Headers: map[string]string{"X-From": "quire"}, Enabled: true}
	if p := c.check("remote"); len(p) > 0 {
		t.Fatal(p)
	}
	f := start(t, sandbox.Off, Server{Name: "remote", Origin: OriginConfig, Config: c})
	f.settle()
	if st := f.state("remote"); st.State != Ready || st.Transport != "http" {
		t.Fatalf("status %+v", st)
	}
	res, err := f.call(context.Background(), "mcp__remote__echo", `{"message":"over http"}`)
	if err != nil || res.IsError || !strings.Contains(res.Output, "over http") {
		t.Fatalf("echo: %+v %v", res, err)
	}
	// The server going away is noticed, and it reconnects by itself once
	// it is back.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	res, _ = f.call(context.Background(), "mcp__remote__echo", `{"message":"gone"}`)
	if !res.IsError {
		t.Errorf("a call to a dead server: %+v", res)
	}
	began := time.Now()
	f.waitState("remote", Failed)
	t.Logf("the loss was noticed after %s", time.Since(began))
	cmd = exec.Command(npm.Node, npm.Everything, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f.waitState("remote", Ready)
	f.waitTool("mcp__remote__echo")
	res, _ = f.call(context.Background(), "mcp__remote__echo", `{"message":"back again"}`)
	if !strings.Contains(res.Output, "back again") {
		t.Errorf("after the reconnect: %+v", res)
	}
}

func TestFilesystemServer(t *testing.T) {
	npm := mcptest.Need(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("the filesystem server read this\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := ServerConfig{Command: npm.Node, Args: []string{npm.Filesystem, dir}, Enabled: true}
	c.check("fs")
	f := startIn(t, dir, sandbox.Off, Server{Name: "fs", Origin: OriginConfig, Config: c})
	f.settle()
	st := f.state("fs")
	if st.State != Ready {
		t.Fatalf("status %+v", st)
	}
	res, err := f.call(context.Background(), "mcp__fs__read_text_file", fmt.Sprintf(`{"path":%q}`, filepath.Join(dir, "notes.txt")))
	if err != nil || res.IsError || !strings.Contains(res.Output, "the filesystem server read this") {
		t.Fatalf("read: %+v %v", res, err)
	}
	// Its write tools do not claim to be read-only, so auto-edit asks.
	if w, ok := f.reg.Lookup("mcp__fs__write_file"); !ok || w.Spec().ReadOnlyHint {
		t.Errorf("write_file: %v", ok)
	}
	res, _ = f.call(context.Background(), "mcp__fs__read_text_file", `{"path":"/etc/passwd"}`)
	if !res.IsError {
		t.Errorf("the server read outside its directory: %.200s", res.Output)
	}
}

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
)

// buildQuire builds the binary for a test.
func buildQuire(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "quire")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

func runQuire(t *testing.T, bin string, env []string, args ...string) (stdout, stderr string, code int, cmd *exec.Cmd) {
	t.Helper()
	home := t.TempDir()
	cmd = exec.Command(bin, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + home, "XDG_STATE_HOME=" + home, "QUIRE_SANDBOX=off"}, env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code, cmd
}

func TestExecCommand(t *testing.T) {
	bin := buildQuire(t)
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{testserver.Text("The answer is 42."), testserver.Text("Read it.")}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env := []string{"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=k", "QUIRE_MODEL=test-model"}

	out, errOut, code, _ := runQuire(t, bin, env, "exec", "what is the answer?")
	if code != 0 || out != "The answer is 42.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if r := srv.Requests(); len(r) != 1 || r[0].Model != "test-model" || r[0].LastMessage().Content != "what is the answer?" {
		t.Fatalf("requests %+v", r)
	}

	// No key for the default endpoint: one clear line, status 1.
	_, errOut, code, _ = runQuire(t, bin, nil, "exec", "hi")
	if code != 1 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "OPENAI_API_KEY") {
		t.Fatalf("missing key: exit %d, stderr %q", code, errOut)
	}

	// The prompt from stdin.
	cmd := exec.Command(bin, "exec", "-")
	cmd.Dir = t.TempDir()
	cmd.Env = append([]string{"HOME=" + t.TempDir(), "QUIRE_SANDBOX=off"}, env...)
	cmd.Stdin = strings.NewReader("from stdin\n")
	if got, err := cmd.Output(); err != nil || string(got) != "Read it.\n" {
		t.Fatalf("stdin prompt: %q, %v", got, err)
	}
	if r := srv.Requests(); len(r) != 2 || r[1].LastMessage().Content != "from stdin" {
		t.Fatalf("stdin prompt: %+v", r[len(r)-1].LastMessage())
	}

	// No prompt: a usage error.
	if _, _, code, _ = runQuire(t, bin, env, "exec"); code != 2 {
		t.Fatalf("no prompt: exit %d", code)
	}

	t.Run("interrupted", func(t *testing.T) { testExecInterrupted(t, bin) })
	t.Run("real tools", func(t *testing.T) { testExecRealTools(t, bin) })
}

// The built-in tools are wired: a read runs, a write is denied under ask
// and done under yolo.
func testExecRealTools(t *testing.T, bin string) {
	script := func() testserver.Script {
		return testserver.Script{Responses: []testserver.Response{
			{ToolCalls: []testserver.ToolCall{
				{ID: "r", Name: "read_file", Arguments: `{"path":"notes.txt"}`},
				{ID: "w", Name: "write_file", Arguments: `{"path":"out.txt","content":"written\n"}`},
			}},
			testserver.Text("Done."),
		}}
	}
	for _, mode := range []string{"ask", "yolo"} {
		srv, err := testserver.Start(script())
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		home, dir := t.TempDir(), t.TempDir()
		os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("remember the milk\n"), 0o644)
		cmd := exec.Command(bin, "exec", "--approval", mode, "go")
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_STATE_HOME=" + home, "QUIRE_SANDBOX=off", "PATH=" + os.Getenv("PATH"),
			"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=k", "QUIRE_MODEL=m"}
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, errOut.String())
		}
		reqs := srv.Requests()
		if len(reqs) != 2 {
			t.Fatalf("%s: %d requests", mode, len(reqs))
		}
		tools := map[string]string{}
		for _, m := range reqs[1].Messages {
			if m.Role == "tool" {
				tools[m.ToolCallID] = m.Content
			}
		}
		if !strings.Contains(tools["r"], "remember the milk") {
			t.Errorf("%s: read result %q", mode, tools["r"])
		}
		written, _ := os.ReadFile(filepath.Join(dir, "out.txt"))
		switch mode {
		case "ask":
			if len(written) != 0 || !strings.Contains(errOut.String(), "denied write_file") || !strings.Contains(tools["w"], "unattended") {
				t.Errorf("ask: file %q, stderr %q, result %q", written, errOut.String(), tools["w"])
			}
		case "yolo":
			if string(written) != "written\n" {
				t.Errorf("yolo: file %q, result %q", written, tools["w"])
			}
		}
		if out.String() != "Done.\n" {
			t.Errorf("%s: stdout %q", mode, out.String())
		}
	}
}

func testExecInterrupted(t *testing.T, bin string) {
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{{Fault: testserver.FaultHang}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	home := t.TempDir()
	cmd := exec.Command(bin, "exec", "--json", "wait forever")
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_STATE_HOME=" + home, "QUIRE_SANDBOX=off",
		"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=k", "QUIRE_MODEL=m"}
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(srv.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v", err)
	}
	if !strings.Contains(out.String(), `"state":"cancelled"`) {
		t.Fatalf("events %s", out.String())
	}
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/quire-sh/quire/sandbox"
)

// quire doctor says, for the profile in force, the git rule, which
// variables commands do not get (every provider's key included), the
// process cap, how guarded writes resolve paths and the kernel's
// features.
func TestDoctorReportsWhatTheSandboxEnforces(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox report is Linux's")
	}
	bin := buildQuire(t)
	env := []string{"ANTHROPIC_API_KEY=doctor-test-key", "GITHUB_TOKEN=doctor-test-token", "HARMLESS_SETTING=x"}
	out, errOut, _, _ := runQuire(t, bin, env, "doctor", "--skip-self-test")
	for _, want := range []string{"Landlock ABI:", "seccomp filters:", "guarded writes:", "Profile off,", "environment:      commands do not get ANTHROPIC_API_KEY (quire's API key)"} {
		if !strings.Contains(out, want) {
			t.Errorf("profile off: no %q in:\n%s%s", want, out, errOut)
		}
	}
	if strings.Contains(out, "HARMLESS_SETTING") || strings.Contains(out, "doctor-test-") {
		t.Errorf("doctor names an ordinary variable or prints a value:\n%s", out)
	}
	if p, _ := (sandbox.Settings{}).Profile("workspace", t.TempDir()); p.Check(sandbox.Detect()) != nil {
		t.Skip("the workspace profile is not enforceable here; its report is not shown")
	}
	out, errOut, _, _ = runQuire(t, bin, append(env, "QUIRE_SANDBOX=workspace"), "doctor", "--skip-self-test")
	for _, want := range []string{"Profile workspace,", "git metadata:", "git_writes = true", "ANTHROPIC_API_KEY (quire's API key)", "GITHUB_TOKEN (looks like a credential)", "process cap:", "quire's process:"} {
		if !strings.Contains(out, want) {
			t.Errorf("profile workspace: no %q in:\n%s%s", want, out, errOut)
		}
	}
}

// A trusted project's settings that tighten the profile are the ones
// doctor reports, as a session there would use them.
func TestDoctorReportsATrustedProjectsProfile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox report is Linux's")
	}
	if p, _ := (sandbox.Settings{}).Profile("read-only", t.TempDir()); p.Check(sandbox.Detect()) != nil {
		t.Skip("the read-only profile is not enforceable here")
	}
	bin := buildQuire(t)
	home, dir := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".quire"), 0o755)
	os.WriteFile(filepath.Join(dir, ".quire", "config.toml"), []byte("sandbox = \"read-only\"\n"), 0o644)
	run := func(args ...string) string {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + home, "XDG_STATE_HOME=" + home}
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	if out := run("doctor", "--skip-self-test"); !strings.Contains(out, "Profile workspace,") {
		t.Fatalf("before trust:\n%s", out)
	}
	run("trust", "--yes")
	if out := run("doctor", "--skip-self-test"); !strings.Contains(out, "Profile read-only,") {
		t.Fatalf("after trust, doctor does not report the project's profile:\n%s", out)
	}
}

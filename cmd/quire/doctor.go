package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/fsguard"
	"github.com/quire-sh/quire/sandbox"
	"github.com/quire-sh/quire/session"
	"github.com/quire-sh/quire/term"
)

// runDoctor is `quire doctor`: what this machine enforces (sandbox) and
// what the terminal supports.
func runDoctor(std stdio, args []string) int {
	c := newCommandLine("quire doctor", "Usage: quire doctor [--skip-self-test]\n\nShows what this machine enforces (sandbox) and what the terminal supports.")
	skip := c.fs.Bool("skip-self-test", false, "only report kernel features; do not run sandboxed probe commands")
	pos, err := c.parse(args)
	if err != nil {
		return c.exit(std, err)
	}
	if len(pos) > 0 {
		return usageExit(std, c.name, usagef("unexpected argument %q", pos[0]))
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fail(std, err)
	}
	// The custom profiles come from the configuration; a configuration
	// that does not load is reported, and the built-ins still are.
	var profiles sandbox.Settings
	cfg, cerr := config.Load(nil, os.Getenv)
	if cerr == nil {
		// A trusted project's settings may tighten the profile: doctor
		// reports the one a session here would use.
		cfg = session.ProjectConfig(cfg, cwd)
		profiles = cfg.SandboxSettings
	}
	s := sandbox.Detect()
	fmt.Fprintln(std.out, "Sandbox")
	if cerr != nil {
		fmt.Fprintf(std.out, "  custom profiles not read: %v\n", cerr)
	}
	fmt.Fprint(std.out, indent(sandbox.Report(s, cwd, profiles)))
	fmt.Fprintf(std.out, "  guarded writes:      %s; no symlink followed, no setuid bits, no exec bits into git hooks\n", fsguard.Resolution())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ok := true
	if cerr != nil {
		ok = false
	} else if p, err := cfg.SandboxProfile(cwd); err != nil {
		fmt.Fprintf(std.out, "  profile %s: %v\n", cfg.Sandbox, err)
		ok = false
	} else {
		fmt.Fprint(std.out, indent(sandbox.ProfileReport(ctx, p, s, os.Environ(), !*skip && p.Check(s) == nil)))
	}
	if !*skip {
		fmt.Fprintln(std.out, "  Self-test (real commands through the launcher):")
		for _, f := range sandbox.SelfTest(ctx, s) {
			mark := "ok  "
			if !f.OK {
				mark, ok = "FAIL", false
			}
			fmt.Fprintf(std.out, "    %s %s (%s)\n", mark, f.Check, f.Detail)
		}
	}
	fmt.Fprintln(std.out, "Terminal")
	for _, line := range term.DetectCaps(os.Getenv).Describe() {
		fmt.Fprintln(std.out, "  "+line)
	}
	if !ok {
		return 1
	}
	return 0
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

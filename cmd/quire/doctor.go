package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/sandbox"
	"github.com/quire-sh/quire/term"
)

// runDoctor is `quire doctor`: what this machine enforces (sandbox) and
// what the terminal supports.
func runDoctor(args []string) int {
	fs := newFlagSet("quire doctor")
	skip := fs.Bool("skip-self-test", false, "only report kernel features; do not run sandboxed probe commands")
	if err := fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fail(err)
	}
	s := sandbox.Detect()
	fmt.Println("Sandbox")
	fmt.Print(indent(sandbox.Report(s, cwd)))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ok := true
	if cfg, err := app.LoadConfig(nil, os.Getenv); err != nil {
		fmt.Printf("  configuration: %v\n", err)
		ok = false
	} else if p, err := sandbox.ProfileByName(cfg.Sandbox, cwd); err != nil {
		fmt.Printf("  profile %s: %v\n", cfg.Sandbox, err)
		ok = false
	} else {
		fmt.Print(indent(sandbox.ProfileReport(ctx, p, s, os.Environ(), !*skip && p.Check(s) == nil)))
	}
	if !*skip {
		fmt.Println("  Self-test (real commands through the launcher):")
		for _, f := range sandbox.SelfTest(ctx, s) {
			mark := "ok  "
			if !f.OK {
				mark, ok = "FAIL", false
			}
			fmt.Printf("    %s %s (%s)\n", mark, f.Check, f.Detail)
		}
	}
	fmt.Println("Terminal")
	for _, line := range term.DetectCaps(os.Getenv).Describe() {
		fmt.Println("  " + line)
	}
	if !ok {
		return 1
	}
	return 0
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

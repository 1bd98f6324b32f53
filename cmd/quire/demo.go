package main

import (
	"context"

	"github.com/quire-sh/quire/app"
)

// runDemo is `quire demo`: a real session against a scripted model on
// 127.0.0.1, in a temporary copy of a sample project. No API key needed.
func runDemo(args []string) int {
	sf := newSessionFlags("quire demo")
	if err := sf.fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	cfg, err := sf.config()
	if err != nil {
		return fail(err)
	}
	if err := needTerminal(); err != nil {
		return fail(err)
	}
	return exitStatus(app.Demo(context.Background(), app.DemoOptions{Config: cfg}))
}

package main

import (
	"context"
	"os/signal"
	"syscall"

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
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := app.Demo(ctx, app.DemoOptions{Config: cfg}); err != nil {
		return fail(err)
	}
	return 0
}

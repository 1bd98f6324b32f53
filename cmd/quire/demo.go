package main

import (
	"github.com/quire-sh/quire/demo"
)

// runDemo is `quire demo`: a real session against a scripted model on
// 127.0.0.1, in a temporary copy of a sample project. No API key needed.
func runDemo(std stdio, args []string) int {
	sf := newSessionFlags("quire demo", "Usage: quire demo [flags]\n\nWatch quire fix a bug in a sample project, against a built-in scripted model\n(no API key needed; nothing is stored).")
	pos, err := sf.parse(args)
	if err != nil {
		return sf.exit(std, err)
	}
	if len(pos) > 0 {
		return usageExit(std, sf.name, usagef("unexpected argument %q", pos[0]))
	}
	cfg, err := sf.config()
	if err != nil {
		return fail(std, err)
	}
	if err := needTerminal(); err != nil {
		return fail(std, err)
	}
	d, err := demo.Open(demo.Options{Config: cfg})
	if err != nil {
		return fail(std, err)
	}
	defer d.Close()
	return exitStatus(std, runApp(d.AppOptions(), d.Session))
}

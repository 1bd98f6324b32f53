package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine/store"
)

// runSessions is `quire sessions`: the stored sessions, newest first.
func runSessions(std stdio, args []string) int {
	c := newCommandLine("quire sessions", "Usage: quire sessions [--cwd DIR | --here] [-n N] [--json]\n\nLists the stored sessions, newest first. A subagent's session follows the\nsession that started it, marked └ (↳ when that session is not listed).")
	cwd := c.fs.String("cwd", "", "only sessions started in `DIR`")
	here := c.fs.Bool("here", false, "only sessions started in the current directory")
	limit := c.fs.Int("n", 0, "show at most `N` sessions (0: all)")
	asJSON := c.fs.Bool("json", false, "print JSON instead of a table")
	pos, err := c.parse(args)
	if err != nil {
		return c.exit(std, err)
	}
	switch {
	case len(pos) > 0:
		return usageExit(std, c.name, usagef("unexpected argument %q", pos[0]))
	case *limit < 0:
		return usageExit(std, c.name, usagef("-n must be 0 or more, got %d", *limit))
	case *here && *cwd != "":
		return usageExit(std, c.name, usagef("--here and --cwd choose the same thing; give one"))
	}
	dir := *cwd
	if *here {
		wd, err := os.Getwd()
		if err != nil {
			return fail(std, err)
		}
		dir = wd
	}
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return fail(std, err)
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		dir = abs
	}
	st, err := store.Open(config.StateDir(os.Getenv), store.Options{})
	if err != nil {
		return fail(std, err)
	}
	l, err := st.List(context.Background(), store.ListOptions{Cwd: dir, Limit: *limit, Verify: true})
	if err != nil {
		return fail(std, err)
	}
	for _, p := range l.Problems {
		fmt.Fprintf(std.err, "quire: session %s cannot be read: %v\n", p.ID, p.Err)
	}
	if *asJSON {
		err = store.WriteJSON(std.out, l.Sessions)
	} else if len(l.Sessions) == 0 {
		fmt.Fprintln(std.err, "no sessions")
	} else {
		home, _ := os.UserHomeDir()
		err = store.WriteTable(std.out, l.Sessions, time.Now(), home)
	}
	if err != nil {
		return fail(std, err)
	}
	return 0
}

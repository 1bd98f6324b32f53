package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/engine/store"
)

// runSessions is `quire sessions`: the stored sessions, newest first.
func runSessions(args []string) int {
	fs := newFlagSet("quire sessions")
	cwd := fs.String("cwd", "", "only sessions started in `DIR`")
	here := fs.Bool("here", false, "only sessions started in the current directory")
	limit := fs.Int("n", 0, "show at most `N` sessions (0: all)")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: quire sessions [--cwd DIR | --here] [-n N] [--json]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "quire sessions: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	dir := *cwd
	if *here {
		wd, err := os.Getwd()
		if err != nil {
			return fail(err)
		}
		dir = wd
	}
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return fail(err)
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		dir = abs
	}
	st, err := store.Open(app.StateDir(os.Getenv), store.Options{})
	if err != nil {
		return fail(err)
	}
	l, err := st.List(context.Background(), store.ListOptions{Cwd: dir, Limit: *limit, Verify: true})
	if err != nil {
		return fail(err)
	}
	for _, p := range l.Problems {
		fmt.Fprintf(os.Stderr, "quire: session %s cannot be read: %v\n", p.ID, p.Err)
	}
	if *asJSON {
		err = store.WriteJSON(os.Stdout, l.Sessions)
	} else if len(l.Sessions) == 0 {
		fmt.Fprintln(os.Stderr, "no sessions")
	} else {
		home, _ := os.UserHomeDir()
		err = store.WriteTable(os.Stdout, l.Sessions, time.Now(), home)
	}
	if err != nil {
		return fail(err)
	}
	return 0
}

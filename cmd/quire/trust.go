package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/session"
	"github.com/quire-sh/quire/trust"
)

// runTrust is `quire trust [--yes | --revoke] [DIR]`: the project's own
// files that need the user's trust, and what was decided about them.
func runTrust(std stdio, args []string) int {
	c := newCommandLine("quire trust", "Usage: quire trust [--yes | --revoke] [DIR]\n\n"+
		"Lists the files of the project in DIR (default: here) that make quire run\n"+
		"programs or change settings, and whether you trust them as they are now.\n"+
		"quire uses none of them until you do; an interactive session asks at its start.")
	yes := c.fs.Bool("yes", false, "trust the files as they are now (what they do is printed first)")
	revoke := c.fs.Bool("revoke", false, "forget every decision about this project: quire asks again")
	pos, err := c.parse(args)
	if err != nil {
		return c.exit(std, err)
	}
	switch {
	case len(pos) > 1:
		return usageExit(std, c.name, usagef("takes one directory, got %d arguments", len(pos)))
	case *yes && *revoke:
		return usageExit(std, c.name, usagef("--yes and --revoke do opposite things; give one"))
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	st := session.TrustStore()
	if *revoke {
		root, err := session.ProjectRoot(dir)
		if err != nil {
			return fail(std, err)
		}
		n, err := st.Forget(root)
		if err != nil {
			return fail(std, err)
		}
		fmt.Fprintf(std.out, "forgot %d %s about %s; quire will ask about its files again\n", n, plural(n, "decision", "decisions"), shown(root))
		return 0
	}
	p := session.ScanProject(dir, st)
	if p.Err != nil {
		return fail(std, p.Err)
	}
	if len(p.Files) == 0 {
		var names []string
		for _, k := range session.ProjectFiles {
			names = append(names, k.Name)
		}
		fmt.Fprintf(std.out, "%s has none of the files quire asks about (%s)\n", shown(p.Dir), strings.Join(names, ", "))
		return 0
	}
	if *yes {
		return trustAll(std, st, p)
	}
	fmt.Fprintf(std.out, "project %s\n", shown(p.Dir))
	w := 0
	for _, f := range p.Files {
		w = max(w, len(f.Name))
	}
	undecided := false
	for _, f := range p.Files {
		state := stateOf(f, p.Before[f.Name])
		undecided = undecided || f.Decision != trust.Trusted
		fmt.Fprintf(std.out, "  %-*s  %-22s %s\n", w, f.Name, state, f.What)
	}
	if undecided {
		fmt.Fprintln(std.out, "\nquire trust --yes shows what they do and trusts them as they are now.")
	}
	fmt.Fprintln(std.out, "quire trust --revoke forgets every decision about this project.")
	return 0
}

// stateOf says what was decided about a file's content.
func stateOf(f trust.File, before trust.Decision) string {
	switch f.Decision {
	case trust.Trusted:
		return "trusted"
	case trust.Declined:
		return "declined"
	}
	switch before {
	case trust.Trusted:
		return "changed since trusted"
	case trust.Declined:
		return "changed since declined"
	}
	return "not trusted yet"
}

// trustAll prints what each file not yet trusted does, then trusts it.
func trustAll(std stdio, st *trust.Store, p session.Project) int {
	n := 0
	for _, f := range p.Files {
		if f.Decision == trust.Trusted {
			continue
		}
		fmt.Fprintf(std.out, "%s — %s\n", f.Name, f.What)
		lines := strings.Split(strings.TrimRight(string(f.Content), "\n"), "\n")
		if f.Summary != nil {
			lines = f.Summary(f.Content)
		}
		printIndented(std.out, lines)
		if err := st.Decide(p.Dir, f.Name, f.Content, trust.Trusted); err != nil {
			return fail(std, err)
		}
		n++
	}
	if n == 0 {
		fmt.Fprintf(std.out, "nothing to do: every file of %s is trusted as it is now\n", shown(p.Dir))
		return 0
	}
	fmt.Fprintf(std.out, "trusted %d %s of %s as %s now; quire uses %s from its next start\n",
		n, plural(n, "file", "files"), shown(p.Dir), plural(n, "it is", "they are"), plural(n, "it", "them"))
	return 0
}

// printIndented prints lines a project's file gave, which may hold any
// text: control characters are printed as visible glyphs.
func printIndented(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintf(w, "    %s\n", render.Sanitize(l))
	}
}

// shown is a path as printed.
func shown(path string) string { return render.Sanitize(path) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Command quire is a terminal AI coding agent. This file parses the command
// line and dispatches to one subcommand; every subcommand lives in a file of
// its own and only wires packages together.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/quire-sh/quire/sandbox"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// command is one subcommand of quire.
type command struct {
	name    string
	summary string
	// run receives the arguments after the subcommand's name and returns
	// the process exit status.
	run    func(args []string) int
	hidden bool
}

// commands lists every subcommand. Keep it sorted by name, hidden ones last.
func commands() []command {
	return []command{
		{name: "config", summary: "show every setting, its value and where it came from", run: runConfig},
		{name: "demo", summary: "watch quire work against a built-in scripted model (no API key)", run: runDemo},
		{name: "doctor", summary: "show what this machine enforces (sandbox) and what the terminal supports", run: runDoctor},
		{name: "exec", summary: "run one prompt headless and print the answer (--json: events as JSONL)", run: runExec},
		{name: "export", summary: "write a session as a JSONL transcript", run: runExport},
		{name: "help", summary: "show this help", run: runHelp},
		{name: "replay", summary: "play a stored session or exported transcript (--print to stdout)", run: runReplay},
		{name: "resume", summary: "continue a stored session (the latest here without an ID)", run: runResume},
		{name: "sessions", summary: "list stored sessions, newest first", run: runSessions},
		{name: "version", summary: "print quire's version", run: runVersion},
	}
}

func main() {
	// The sandbox launcher re-executes this binary; it never returns.
	sandbox.MaybeLaunch()
	stopProfile := startProfile()
	code := run(os.Args[1:])
	stopProfile()
	os.Exit(code)
}

func run(args []string) int {
	if len(args) > 0 {
		for _, c := range commands() {
			if c.name == args[0] {
				return c.run(args[1:])
			}
		}
		switch args[0] {
		case "-h", "-help", "--help":
			return runHelp(nil)
		case "-version", "--version":
			return runVersion(nil)
		}
	}
	return runDefault(args)
}

func runVersion(args []string) int {
	fmt.Println("quire", version)
	return 0
}

func runHelp(args []string) int {
	sf, _ := defaultFlags()
	printDefaultUsage(os.Stdout, sf)
	return 0
}

func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("quire: a terminal AI coding agent\n\n")
	b.WriteString("Usage:\n  quire [flags] [PROMPT]   start an interactive session\n  quire COMMAND [flags]\n\nCommands:\n")
	for _, c := range commands() {
		if c.hidden {
			continue
		}
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
	}
	b.WriteString("\nRun `quire COMMAND --help` for a command's flags.\n")
	io.WriteString(w, b.String())
}

// newFlagSet returns a flag set that reports errors instead of exiting, so
// every command shares one error path.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	return fs
}

// exitUsage turns a flag parsing error into the exit status: 0 for -h, 2
// for a bad flag (the flag package has already said what was wrong).
func exitUsage(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// fail prints one line naming the problem and returns exit status 1.
func fail(err error) int {
	fmt.Fprintln(os.Stderr, "quire:", err)
	return 1
}

// Command quire is a terminal AI coding agent. This file parses the command
// line and dispatches to one subcommand; every subcommand lives in a file of
// its own and only wires packages together.
package main

import (
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
	run    func(std stdio, args []string) int
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
		{name: "mcp", summary: "list, add, remove or test MCP servers", run: runMCP},
		{name: "models", summary: "list providers, whether their keys are set, and their models with windows and prices", run: runModels},
		{name: "replay", summary: "play a stored session or exported transcript (--print to stdout)", run: runReplay},
		{name: "resume", summary: "continue a stored session (the latest here without an ID)", run: runResume},
		{name: "sessions", summary: "list stored sessions, newest first", run: runSessions},
		{name: "trust", summary: "show, trust or forget this project's own config, hooks and servers", run: runTrust},
		{name: "version", summary: "print quire's version", run: runVersion},
	}
}

func main() {
	// The sandbox launcher re-executes this binary; it never returns.
	sandbox.MaybeLaunch()
	capProcs()
	std := stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}
	// Before any secret (the API key in the environment or the config)
	// is read: nothing else running as this user may read quire's memory.
	if err := sandbox.Harden(); err != nil {
		os.Exit(fail(std, err))
	}
	stopProfile := startProfile()
	code := runReporting(os.Args[1:], std)
	stopProfile()
	os.Exit(code)
}

// runReporting is run with a panic reported (redacted) instead of
// crashing with the raw value.
func runReporting(args []string, std stdio) (code int) {
	defer reportPanic(&code)
	return run(args, std)
}

func run(args []string, std stdio) int {
	if len(args) > 0 {
		for _, c := range commands() {
			if c.name == args[0] {
				return c.run(std, args[1:])
			}
		}
		switch args[0] {
		case "-h", "-help", "--help":
			return runHelp(std, nil)
		case "-version", "--version":
			return runVersion(std, nil)
		}
	}
	return runDefault(std, args)
}

func runVersion(std stdio, args []string) int {
	if len(args) > 0 {
		return usageExit(std, "quire version", usagef("takes no arguments"))
	}
	fmt.Fprintln(std.out, "quire", version)
	return 0
}

func runHelp(std stdio, args []string) int {
	sf, _ := defaultFlags()
	printDefaultUsage(std.out, sf)
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

// fail prints the problem, starting with a line naming it, and returns
// exit status 1.
func fail(std stdio, err error) int {
	fmt.Fprintln(redactingWriter(std.err), "quire:", err)
	return 1
}

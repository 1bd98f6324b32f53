package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// stdio is where a command reads and writes; tests pass buffers.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// command line is a subcommand's flags and how to print its usage.
type commandLine struct {
	// name is the command as typed: "quire exec".
	name string
	fs   *flag.FlagSet
	// synopsis is the first lines of --help, before the flags.
	synopsis string
}

func newCommandLine(name, synopsis string) *commandLine {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // every message is ours
	return &commandLine{name: name, fs: fs, synopsis: synopsis}
}

// errHelp is returned by parse for -h, -help and --help.
var errHelp = errors.New("help requested")

// usageError is a command line quire cannot take.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// parse reads flags wherever they stand among the positional arguments
// (`quire exec "PROMPT" --json` as well as `quire exec --json "PROMPT"`)
// and returns the positional ones in order. "--" ends the flags: what
// follows is positional even if it starts with a dash; a lone "-" is
// positional (it means standard input). A flag is -name or --name, its
// value after '=' or, unless it is a boolean, in the next argument.
func (c *commandLine) parse(args []string) ([]string, error) {
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(pos, args[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		value, hasValue := "", false
		if eq := strings.IndexByte(name, '='); eq >= 0 {
			name, value, hasValue = name[:eq], name[eq+1:], true
		}
		shown := "--" + name
		if name == "h" || name == "help" {
			return nil, errHelp
		}
		f := c.fs.Lookup(name)
		if name == "" || f == nil {
			return nil, usagef("unknown flag %s", shownFlag(a))
		}
		b, isBool := f.Value.(interface{ IsBoolFlag() bool })
		isBool = isBool && b.IsBoolFlag()
		switch {
		case isBool && !hasValue:
			value = "true"
		case !hasValue:
			if i+1 >= len(args) {
				return nil, usagef("flag %s needs a value", shown)
			}
			i++
			value = args[i]
		}
		if err := c.fs.Set(name, value); err != nil {
			switch {
			case isBool:
				return nil, usagef("flag %s takes true or false, not %q", shown, value)
			case err.Error() == "parse error": // the flag package's numbers
				return nil, usagef("flag %s takes a number, not %q", shown, value)
			}
			return nil, usagef("flag %s: %v", shown, err)
		}
	}
	return pos, nil
}

// shownFlag is a flag as the user typed it, without a value given with
// '=' (which could be long, or a secret).
func shownFlag(a string) string {
	if eq := strings.IndexByte(a, '='); eq >= 0 {
		return a[:eq]
	}
	return a
}

// usage prints --help: the synopsis, then the flags.
func (c *commandLine) usage(w io.Writer) {
	fmt.Fprintln(w, c.synopsis)
	if hasFlags(c.fs) {
		fmt.Fprintln(w, "\nFlags:")
		c.fs.SetOutput(w)
		c.fs.PrintDefaults()
		c.fs.SetOutput(io.Discard)
	}
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// exit turns a parse error into the exit status: --help prints the usage
// and exits 0; a usage error prints one line naming the problem and a
// pointer to --help, and exits 2.
func (c *commandLine) exit(std stdio, err error) int {
	if errors.Is(err, errHelp) {
		c.usage(std.out)
		return 0
	}
	return usageExit(std, c.name, err)
}

// usageExit prints a usage error of command name and returns 2.
func usageExit(std stdio, name string, err error) int {
	fmt.Fprintf(std.err, "%s: %v\nRun '%s --help' for usage.\n", name, err, name)
	return 2
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/quire-sh/quire/app"
	xterm "golang.org/x/term"
)

// sessionFlags are the flags shared by `quire` and `quire resume`. Only
// the flags the user set are passed on, so that the environment and the
// config file keep their say (app.LoadConfig applies the precedence).
type sessionFlags struct {
	fs  *flag.FlagSet
	set map[string]string
}

func newSessionFlags(name string) *sessionFlags {
	sf := &sessionFlags{fs: newFlagSet(name), set: map[string]string{}}
	str := func(key, usage string) {
		sf.fs.Func(strings.ReplaceAll(key, "_", "-"), usage, func(v string) error { sf.set[key] = v; return nil })
	}
	str("model", "`model`, or PROVIDER/MODEL (default $QUIRE_MODEL or config)")
	str("provider", "`provider` name; quire models lists them (default $QUIRE_PROVIDER or config)")
	str("approval", "approval `mode`: ask, auto-edit or yolo")
	str("sandbox", "sandbox `profile`: off, workspace, read-only, strict or a custom one")
	str("theme", "markdown `theme`: dark or light")
	str("record", "write what the terminal is sent to `file`, with timings (asciicast v2: asciinema play file)")
	sf.fs.BoolFunc("minimal", "run inline in the terminal's own scrollback instead of full-screen", func(string) error {
		sf.set["minimal"] = "true"
		return nil
	})
	sf.fs.BoolFunc("no-mouse", "do not capture the mouse (the terminal selects text)", func(string) error {
		sf.set["mouse"] = "false"
		return nil
	})
	return sf
}

func (sf *sessionFlags) config() (*app.Config, error) {
	return app.LoadConfig(sf.set, os.Getenv)
}

// runDefault is `quire [flags] [PROMPT]`: the interactive session.
func runDefault(args []string) int {
	sf, cont := defaultFlags()
	sf.fs.Usage = func() { printDefaultUsage(os.Stderr, sf) }
	if err := sf.fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	cfg, err := sf.config()
	if err != nil {
		return fail(err)
	}
	return interactive(app.RunOptions{
		SessionOptions: app.SessionOptions{Config: cfg, Version: version, Continue: *cont},
		Prompt:         strings.Join(sf.fs.Args(), " "),
	})
}

// defaultFlags are the flags of `quire [flags] [PROMPT]`.
func defaultFlags() (*sessionFlags, *bool) {
	sf := newSessionFlags("quire")
	cont := sf.fs.Bool("continue", false, "continue the latest session started in this directory")
	return sf, cont
}

// printDefaultUsage is `quire --help`: the commands, then the flags of the
// interactive session.
func printDefaultUsage(w io.Writer, sf *sessionFlags) {
	usage(w)
	fmt.Fprintln(w, "\nFlags of `quire [flags] [PROMPT]` (resume, demo and replay take the same, but --continue):")
	sf.fs.SetOutput(w)
	sf.fs.PrintDefaults()
	fmt.Fprintln(w, "\nSettings also come from the environment and config.toml; `quire config` shows them.")
}

// runResume is `quire resume [ID]`.
func runResume(args []string) int {
	sf := newSessionFlags("quire resume")
	if err := sf.fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	cfg, err := sf.config()
	if err != nil {
		return fail(err)
	}
	opt := app.SessionOptions{Config: cfg, Version: version}
	switch sf.fs.NArg() {
	case 0:
		opt.Continue = true
	case 1:
		opt.Resume = sf.fs.Arg(0)
	default:
		return fail(fmt.Errorf("resume takes one session id, got %d arguments", sf.fs.NArg()))
	}
	return interactive(app.RunOptions{SessionOptions: opt})
}

func interactive(opt app.RunOptions) int {
	if err := needTerminal(); err != nil {
		return fail(err)
	}
	return exitStatus(app.Run(context.Background(), opt))
}

// needTerminal refuses to start a full-screen or inline session without a
// terminal, before anything is created on disk.
func needTerminal() error {
	if !xterm.IsTerminal(int(os.Stdin.Fd())) || !xterm.IsTerminal(int(os.Stdout.Fd())) {
		return errors.New("this needs a terminal; for scripts and pipes use `quire exec PROMPT` (or `quire replay --print`)")
	}
	return nil
}

// exitStatus maps how an interactive run ended to the process status: 0,
// 128+N after signal N (SIGTERM, SIGHUP: the session is saved and
// resumable, nothing more to say), or 1 with the error on stderr.
func exitStatus(err error) int {
	var sig *app.SignalError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &sig):
		return sig.ExitCode()
	}
	return fail(err)
}

// runConfig is `quire config`: every setting's effective value and where it
// came from.
func runConfig(args []string) int {
	sf := newSessionFlags("quire config")
	if err := sf.fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	cfg, err := sf.config()
	if err != nil {
		return fail(err)
	}
	fmt.Printf("config file: %s\n\n", cfg.File)
	fmt.Printf("%-17s %-28s %s\n", "SETTING", "VALUE", "FROM")
	for _, l := range cfg.Describe() {
		fmt.Println(l)
	}
	return 0
}

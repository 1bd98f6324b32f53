package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/session"
	xterm "golang.org/x/term"
)

// sessionFlags are the flags shared by `quire`, `quire resume`, the demo
// and replay. Only the flags the user set are passed on, so that the
// environment and the config file keep their say (config.Load applies
// the precedence).
type sessionFlags struct {
	*commandLine
	set map[string]string
}

func newSessionFlags(name, synopsis string) *sessionFlags {
	sf := &sessionFlags{commandLine: newCommandLine(name, synopsis), set: map[string]string{}}
	str := func(key, usage string) {
		sf.fs.Func(strings.ReplaceAll(key, "_", "-"), usage, func(v string) error { sf.set[key] = v; return nil })
	}
	str("model", "`model`, or PROVIDER/MODEL (default $QUIRE_MODEL or config)")
	str("provider", "`provider` name; quire models lists them (default $QUIRE_PROVIDER or config)")
	str("approval", "approval `mode`: ask, auto-edit or yolo")
	str("sandbox", "sandbox `profile`: off, workspace, read-only, strict or a custom one")
	str("theme", "markdown `theme`: dark or light")
	str("record", "write what the terminal is sent to `file`, with timings (asciicast v2: asciinema play file)")
	sf.fs.BoolFunc("minimal", "run inline in the terminal's own scrollback instead of full-screen", func(v string) error {
		b, err := strconv.ParseBool(v)
		sf.set["minimal"] = strconv.FormatBool(b)
		return err
	})
	sf.fs.BoolFunc("no-mouse", "do not capture the mouse (the terminal selects text)", func(v string) error {
		b, err := strconv.ParseBool(v)
		if b {
			sf.set["mouse"] = "false"
		}
		return err
	})
	return sf
}

func (sf *sessionFlags) config() (*config.Config, error) { return loadConfig(sf.set) }

// runDefault is `quire [flags] [PROMPT]`: the interactive session.
func runDefault(std stdio, args []string) int {
	sf, cont := defaultFlags()
	pos, err := sf.parse(args)
	if errors.Is(err, errHelp) {
		printDefaultUsage(std.out, sf)
		return 0
	}
	if err != nil {
		return usageExit(std, "quire", err)
	}
	cfg, err := sf.config()
	if err != nil {
		return fail(std, err)
	}
	return interactive(std, session.Options{Config: cfg, Version: version, Continue: *cont, AskTrust: true}, strings.Join(pos, " "))
}

// defaultFlags are the flags of `quire [flags] [PROMPT]`.
func defaultFlags() (*sessionFlags, *bool) {
	sf := newSessionFlags("quire", "")
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
	sf.fs.SetOutput(io.Discard)
	fmt.Fprintln(w, "\nFlags may also follow the prompt; -- ends them. Settings also come from the")
	fmt.Fprintln(w, "environment and config.toml; `quire config` shows them.")
}

// runResume is `quire resume [ID]`.
func runResume(std stdio, args []string) int {
	sf := newSessionFlags("quire resume", "Usage: quire resume [flags] [ID]\n\nContinues a stored session (by id or unique prefix), or without an ID the\nlatest one started in this directory.")
	pos, err := sf.parse(args)
	if err != nil {
		return sf.exit(std, err)
	}
	if len(pos) > 1 {
		return usageExit(std, sf.name, usagef("takes one session id, got %d arguments", len(pos)))
	}
	cfg, err := sf.config()
	if err != nil {
		return fail(std, err)
	}
	opt := session.Options{Config: cfg, Version: version, Continue: len(pos) == 0, AskTrust: true}
	if len(pos) == 1 {
		opt.Resume = pos[0]
	}
	return interactive(std, opt, "")
}

// interactive runs a session in this terminal and says, after the
// terminal is restored, how to continue it.
func interactive(std stdio, opt session.Options, prompt string) int {
	if err := needTerminal(); err != nil {
		return fail(std, err)
	}
	h, err := session.Open(opt)
	if err != nil {
		return fail(std, err)
	}
	aopt := h.AppOptions()
	aopt.Prompt = prompt
	err = runApp(aopt, h)
	h.Close()
	switch id, serr := h.Saved(); {
	case id != "" && serr != nil:
		if err == nil {
			err = fmt.Errorf("%w; what was not saved is lost, the rest can be continued with: quire resume %s", serr, id)
		}
	case id != "":
		fmt.Fprintf(std.err, "session %s saved; continue it with: quire resume %s\n", id, id)
	}
	return exitStatus(std, err)
}

// runApp opens the terminal and runs the app on s. The terminal is
// restored on every way out, a panic included.
func runApp(opt app.Options, s app.Session) error {
	t, closeTerm, err := app.OpenTerminal(opt)
	if err != nil {
		return err
	}
	defer closeTerm()
	return app.Run(context.Background(), t, s, opt)
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
func exitStatus(std stdio, err error) int {
	var sig *app.SignalError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &sig):
		return sig.ExitCode()
	}
	return fail(std, err)
}

// runConfig is `quire config`: every setting's effective value and where it
// came from.
func runConfig(std stdio, args []string) int {
	sf := newSessionFlags("quire config", "Usage: quire config [flags]\n\nShows every setting, its value and where it came from (the flags below\nshow what they would change).")
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
	if cwd, err := os.Getwd(); err == nil {
		cfg = session.ProjectConfig(cfg, cwd)
	}
	for _, l := range cfg.DescribeLayers() {
		fmt.Fprintln(std.out, render.Sanitize(l))
	}
	fmt.Fprintln(std.out)
	for _, l := range cfg.Describe() {
		fmt.Fprintln(std.out, l)
	}
	return 0
}

// loadConfig loads the configuration with the flags given by key.
func loadConfig(flags map[string]string) (*config.Config, error) {
	return config.Load(flags, os.Getenv)
}

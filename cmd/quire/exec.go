package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
)

// runExec is `quire exec [flags] PROMPT`: one turn, headless. The answer
// goes to stdout (--json: every event as JSONL), progress to stderr when
// it is a terminal. Exit status: 0 completed, 1 failed, 130 interrupted.
func runExec(args []string) int {
	fs := newFlagSet("quire exec")
	set := map[string]string{}
	str := func(key, usage string) {
		fs.Func(key, usage, func(v string) error { set[key] = v; return nil })
	}
	str("model", "model, or PROVIDER/MODEL (default $QUIRE_MODEL or config)")
	str("provider", "provider name; quire models lists them (default $QUIRE_PROVIDER or config)")
	str("approval", "approval mode: ask (deny what would need asking), auto-edit or yolo")
	str("sandbox", "sandbox profile: off, workspace, read-only, strict or a custom one")
	jsonOut := fs.Bool("json", false, "print every event as one JSON object per line instead of the answer")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "Usage: quire exec [flags] PROMPT\n\nRuns one turn in the current directory and prints the answer.\nA PROMPT of - is read from stdin.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	prompt := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if prompt == "-" {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return fail(fmt.Errorf("read the prompt from stdin: %w", err))
		}
		prompt = strings.TrimSpace(string(b))
	}
	if prompt == "" {
		fmt.Fprintln(os.Stderr, "quire exec: no prompt (usage: quire exec [flags] PROMPT)")
		return 2
	}
	cfg, err := app.LoadConfig(set, os.Getenv)
	if err != nil {
		return fail(err)
	}
	p, err := app.Prepare(app.SessionOptions{Config: cfg, Version: version, Unattended: true})
	if err != nil {
		return fail(err)
	}
	defer p.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	state, err := engine.Exec(ctx, p.Engine, engine.ExecOptions{
		Prompt:   prompt,
		Stdout:   os.Stdout,
		Stderr:   os.Stderr,
		JSON:     *jsonOut,
		Progress: term.IsTerminal(int(os.Stderr.Fd())),
	})
	switch {
	case err != nil:
		return fail(err)
	case state == event.TurnCancelled && ctx.Err() != nil:
		return 130
	case state != event.TurnCompleted:
		return 1
	}
	return 0
}

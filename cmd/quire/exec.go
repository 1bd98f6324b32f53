package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/session"
)

const execHelp = `Usage: quire exec [flags] PROMPT

Runs one turn in the current directory and prints the answer.
A PROMPT of - is read from stdin; flags may come before or after it.

Output: when stdout (or stderr) is a terminal, control characters in what
the model and tools wrote (escape sequences that could set the clipboard,
retitle the window or clear the screen) are drawn visibly, as the
interactive view draws them (ESC as ␛); newlines and tabs stay. A pipe or
file gets the answer byte for byte as the model sent it: clean it before
showing it on a terminal. --json escapes every control character, so its
lines are safe anywhere.

Exit status: 0 completed, 1 the turn failed or the session could not be
saved (stderr says why in one line), 130 interrupted.`

// runExec is `quire exec [flags] PROMPT`: one turn, headless. The answer
// goes to stdout (--json: every event as JSONL), progress to stderr when
// it is a terminal. Exit status: 0 completed, 1 failed, 130 interrupted.
func runExec(std stdio, args []string) int {
	c := newCommandLine("quire exec", execHelp)
	set := map[string]string{}
	str := func(key, usage string) {
		c.fs.Func(key, usage, func(v string) error { set[key] = v; return nil })
	}
	str("model", "model `name`, or PROVIDER/MODEL (default $QUIRE_MODEL or config)")
	str("provider", "provider `name`; quire models lists them (default $QUIRE_PROVIDER or config)")
	str("approval", "approval `mode`: ask (deny what would need asking), auto-edit or yolo")
	str("sandbox", "sandbox `profile`: off, workspace, read-only, strict or a custom one")
	jsonOut := c.fs.Bool("json", false, "print every event as one JSON object per line instead of the answer")
	pos, err := c.parse(args)
	if err != nil {
		return c.exit(std, err)
	}
	prompt := strings.TrimSpace(strings.Join(pos, " "))
	if prompt == "-" {
		b, err := io.ReadAll(std.in)
		if err != nil {
			return fail(std, fmt.Errorf("read the prompt from stdin: %w", err))
		}
		prompt = strings.TrimSpace(string(b))
	}
	if prompt == "" {
		return usageExit(std, c.name, usagef("no prompt"))
	}
	cfg, err := loadConfig(set)
	if err != nil {
		return fail(std, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	state, err := session.Exec(ctx, session.Options{Config: cfg, Version: version}, session.ExecOptions{
		Prompt:   prompt,
		Stdout:   forTerminal(std.out),
		Stderr:   redactingWriter(forTerminal(std.err)),
		JSON:     *jsonOut,
		Progress: term.IsTerminal(int(os.Stderr.Fd())),
	})
	switch {
	case errors.Is(err, session.ErrNotSaved):
		return 1 // Exec has said why, in one line
	case err != nil:
		return fail(std, err)
	case state == event.TurnCancelled && ctx.Err() != nil:
		return 130
	case state != event.TurnCompleted:
		return 1
	}
	return 0
}

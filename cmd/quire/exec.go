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

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
)

const execHelp = `Usage: quire exec [flags] PROMPT

Runs one turn in the current directory and prints the answer.
A PROMPT of - is read from stdin.

Output: when stdout (or stderr) is a terminal, control characters in what
the model and tools wrote (escape sequences that could set the clipboard,
retitle the window or clear the screen) are drawn visibly, as the
interactive view draws them (ESC as ␛); newlines and tabs stay. A pipe or
file gets the answer byte for byte as the model sent it: clean it before
showing it on a terminal. --json escapes every control character, so its
lines are safe anywhere.

Exit status: 0 completed, 1 the turn failed or the session could not be
saved (stderr says why in one line), 130 interrupted.

Flags:
`

// runExec is `quire exec [flags] PROMPT`: one turn, headless. The answer
// goes to stdout (--json: every event as JSONL), progress to stderr when
// it is a terminal. Exit status: 0 completed, 1 failed, 130 interrupted.
func runExec(args []string) int {
	fs := newFlagSet("quire exec")
	set := map[string]string{}
	str := func(key, usage string) {
		fs.Func(key, usage, func(v string) error { set[key] = v; return nil })
	}
	str("model", "model name (default $QUIRE_MODEL or config)")
	str("approval", "approval mode: ask (deny what would need asking), auto-edit or yolo")
	str("sandbox", "sandbox profile: off, workspace, read-only, strict or a custom one")
	jsonOut := fs.Bool("json", false, "print every event as one JSON object per line instead of the answer")
	fs.Usage = func() {
		fmt.Fprint(os.Stderr, execHelp)
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
	if cfg.APIKey == "" && strings.Contains(cfg.BaseURL, "api.openai.com") {
		return fail(errors.New("no API key: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server"))
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
		Stdout:   forTerminal(os.Stdout),
		Stderr:   redactingWriter(forTerminal(os.Stderr)),
		JSON:     *jsonOut,
		Progress: term.IsTerminal(int(os.Stderr.Fd())),
	})
	switch {
	case errors.Is(err, engine.ErrNotSaved):
		return 1 // Exec has said why, in one line
	case err != nil:
		return fail(err)
	case state == event.TurnCancelled && ctx.Err() != nil:
		return 130
	case state != event.TurnCompleted:
		return 1
	}
	return 0
}

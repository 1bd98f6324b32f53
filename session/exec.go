package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
)

// ErrNotSaved is wrapped by Exec's error when the session could not be
// saved; Exec has then said why on ExecOptions.Stderr.
var ErrNotSaved = engine.ErrNotSaved

// ExecOptions configure Exec: the prompt, where the answer (or, with
// JSON, every event) and the progress go.
type ExecOptions = engine.ExecOptions

// Exec is `quire exec`: one turn of a new, unattended session wired as
// opt says, run until it ends (cancelling ctx cancels it). Calls that
// would need approval are denied and reported. A prompt that is a custom
// command (/review main.go) sends its expansion, as the interactive
// prompt does; quire's own /commands have no meaning here. It returns
// how the turn ended.
func Exec(ctx context.Context, opt Options, eo ExecOptions) (event.TurnState, error) {
	opt.Unattended = true
	p, err := Prepare(opt)
	if err != nil {
		return event.TurnFailed, err
	}
	defer p.Close()
	if eo.Command == "" {
		if eo, err = expandCommand(ctx, eo, p.ext.commands); err != nil {
			return event.TurnFailed, err
		}
	}
	return engine.Exec(ctx, p.Engine, eo)
}

// expandCommand turns a prompt that names a custom command into the
// command's prompt.
func expandCommand(ctx context.Context, eo ExecOptions, cmds []app.Command) (ExecOptions, error) {
	inv, isCmd, err := app.ParseSlash(eo.Prompt, cmds...)
	switch {
	case !isCmd:
		return eo, nil
	case err != nil:
		return eo, err
	case inv.External == nil:
		return eo, fmt.Errorf("/%s is a command of the interactive prompt; quire exec runs only custom commands", inv.Name)
	}
	text, err := inv.External.Expand(ctx, inv.Rest)
	if err != nil {
		return eo, err
	}
	eo.Command, eo.Prompt = strings.TrimSpace(eo.Prompt), text
	return eo, nil
}

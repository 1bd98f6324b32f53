package session

import (
	"context"

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
// would need approval are denied and reported. It returns how the turn
// ended.
func Exec(ctx context.Context, opt Options, eo ExecOptions) (event.TurnState, error) {
	opt.Unattended = true
	p, err := Prepare(opt)
	if err != nil {
		return event.TurnFailed, err
	}
	defer p.Close()
	return engine.Exec(ctx, p.Engine, eo)
}

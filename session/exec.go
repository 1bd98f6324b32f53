package session

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/tools"
)

// ExecOptions configure Exec: the prompt, where the answer (or, with
// JSON, every event) and the progress go.
type ExecOptions = engine.ExecOptions

// Exec is `quire exec`: one turn of a new, unattended session wired as
// opt says, run until it ends (cancelling ctx cancels it). Calls that
// would need approval are denied and reported. The MCP servers start
// with it (its first request waits for them) and stop after it; what
// happens to them is reported on eo.Stderr. It returns how the turn
// ended.
func Exec(ctx context.Context, opt Options, eo ExecOptions) (event.TurnState, error) {
	opt.Unattended = true
	opt.registry = tools.NewRegistry(tools.Builtin()...)
	p, err := Prepare(opt)
	if err != nil {
		return event.TurnFailed, err
	}
	defer p.Close()
	stderr := &lockedWriter{w: eo.Stderr}
	eo.Stderr = stderr
	mopt, problems := mcpOptions(opt.Config, p.Env, opt.registry, p.Engine.SessionID, opt.Version)
	mopt.Notify = func(level, text string) {
		if level == "warn" || eo.Progress {
			fmt.Fprintf(stderr, "quire: %s\n", text)
		}
	}
	m := mcp.Start(mopt)
	defer m.Close()
	for _, pr := range problems {
		mopt.Notify("warn", pr)
	}
	return engine.Exec(ctx, p.Engine, eo)
}

// lockedWriter serialises writes from the turn and from the MCP servers'
// goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

package session

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/ext/mcp"
)

// ErrNotSaved is wrapped by Exec's error when the session could not be
// saved; Exec has then said why on ExecOptions.Stderr.
var ErrNotSaved = engine.ErrNotSaved

// ExecOptions configure Exec: the prompt, where the answer (or, with
// JSON, every event) and the progress go.
type ExecOptions = engine.ExecOptions

// Exec is `quire exec`: one turn of a new, unattended session wired as
// opt says, run until it ends (cancelling ctx cancels it). Calls that
// would need approval are denied and reported. The MCP servers start
// with it (its first request waits for them) and stop after it; what
// happens to them is reported on eo.Stderr. A prompt that is a custom
// command (/review main.go) or an MCP prompt's command
// (/mcp__SERVER__PROMPT …) sends its expansion, as the interactive
// prompt does; quire's own /commands have no meaning here. It returns
// how the turn ended.
func Exec(ctx context.Context, opt Options, eo ExecOptions) (event.TurnState, error) {
	opt.Unattended = true
	p, err := Prepare(opt)
	if err != nil {
		return event.TurnFailed, err
	}
	defer p.Close()
	stderr := &lockedWriter{w: eo.Stderr}
	eo.Stderr = stderr
	mopt, problems := mcpOptions(p.Config, p.Env, p.Engine.Tools, p.project, p.Engine.SessionID, opt.Version)
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
	if eo.Command == "" {
		if eo, err = expandCommand(ctx, eo, p.ext.commands, m); err != nil {
			return event.TurnFailed, err
		}
	}
	return engine.Exec(ctx, p.Engine, eo)
}

// expandCommand turns a prompt that names a custom command or an MCP
// prompt into the command's prompt. The MCP servers are waited for only
// when the prompt is a command that no custom command is.
func expandCommand(ctx context.Context, eo ExecOptions, cmds []app.Command, m *mcp.Manager) (ExecOptions, error) {
	inv, isCmd, err := app.ParseSlash(eo.Prompt, cmds...)
	if isCmd && inv.External == nil {
		if werr := m.Wait(ctx); werr != nil {
			return eo, werr
		}
		cmds = append(append([]app.Command(nil), cmds...), promptCommands(m.Prompts(), m.RunPrompt)...)
		cmds, _ = app.CheckCommands(cmds)
		inv, isCmd, err = app.ParseSlash(eo.Prompt, cmds...)
	}
	switch {
	case !isCmd:
		return eo, nil
	case err != nil:
		return eo, err
	case inv.External == nil:
		return eo, fmt.Errorf("/%s is a command of the interactive prompt; quire exec runs only custom commands and MCP prompts", inv.Name)
	}
	text, err := inv.External.Expand(ctx, inv.Rest)
	if err != nil {
		return eo, err
	}
	eo.Command, eo.Prompt = strings.TrimSpace(eo.Prompt), text
	return eo, nil
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

package session

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/sandbox"
	"github.com/quire-sh/quire/tools"
)

// projectServers are the servers of the project's .mcp.json when the user
// trusted its content (ProjectFiles lists it, so the one trust question,
// `quire trust` and the notices about files left out cover it). notice is
// why a trusted file gives no servers, "" otherwise.
func projectServers(p *Project) (servers map[string]mcp.ServerConfig, notice string) {
	content, ok := p.trusted(mcp.ProjectFile)
	if !ok {
		return nil, ""
	}
	servers, err := mcp.ParseProject(content, os.Getenv)
	if err != nil {
		return nil, err.Error() + "; its MCP servers are off"
	}
	return servers, ""
}

// mcpOptions are what a session's MCP manager needs: the servers of the
// settings and of the project's trusted .mcp.json, the sandbox, the
// environment and the session's identity. Problems (a wrong server, a
// .mcp.json that does not read) are returned as notices, one line each.
func mcpOptions(cfg *config.Config, env *tools.Env, reg *tools.Registry, p *Project, sessionID, version string) (mcp.Options, []string) {
	project, notice := projectServers(p)
	servers, problems := mcp.Servers(cfg.MCP, project)
	if notice != "" {
		problems = append(problems, notice)
	}
	for _, s := range servers {
		if s.Config.Problem != "" {
			problems = append(problems, "MCP server "+s.Name+" is off: "+s.Config.Problem)
		}
	}
	return mcp.Options{
		Servers: servers, Registry: reg, Dir: env.Dir,
		Profile: env.Profile, Support: env.Support,
		ProfileFor: func(name string) (sandbox.Profile, error) { return cfg.NamedSandboxProfile(name, env.Dir) },
		Environ:    os.Environ(), Getenv: os.Getenv,
		Identity: identity(sessionID, env.Dir),
		Version:  version,
	}, problems
}

// identity are the variables that tell a stdio server which session and
// project it serves; they are set last, so no setting can forge them.
func identity(sessionID, dir string) []string {
	out := []string{"QUIRE_PROJECT_DIR=" + dir}
	if sessionID != "" {
		out = append(out, "QUIRE_SESSION_ID="+sessionID)
	}
	return out
}

// promptCommands are the MCP servers' prompts as commands from outside
// the app's table: /mcp__SERVER__PROMPT sends the prompt's messages,
// which run gets (it is called with the command's name and the words
// typed after it, at the time the command runs).
func promptCommands(prompts []mcp.PromptCommand, run func(ctx context.Context, name string, words []string) (string, error)) []app.Command {
	out := make([]app.Command, 0, len(prompts))
	for _, p := range prompts {
		summary := p.Description
		if summary == "" {
			summary = "prompt " + mcp.Printable(p.Prompt) + " of MCP server " + p.Server
		}
		name := p.Name
		out = append(out, app.Command{
			Name: name, Args: strings.Join(p.Args, " "), Summary: summary,
			Source: "mcp " + p.Server, Origin: "MCP server " + p.Server,
			Expand: func(ctx context.Context, args string) (string, error) {
				return run(ctx, name, strings.Fields(args))
			},
		})
	}
	return out
}

// startMCP starts the handle's MCP servers in the background for the
// session running in env with the effective configuration cfg and the
// project p: their news reaches the transcript as notices, the status
// line through ExtensionsChanged and the app's commands through
// CommandUpdates.
func (h *Handle) startMCP(cfg *config.Config, env *tools.Env, p *Project, sessionID string) {
	opt, problems := mcpOptions(cfg, env, h.opt.registry, p, sessionID, h.opt.Version)
	opt.Notify = h.notify
	opt.Changed = h.extensionsChanged
	m := mcp.Start(opt)
	h.extMu.Lock()
	h.mcp = m
	h.extMu.Unlock()
	for _, text := range problems {
		h.notify("warn", text)
	}
	// A change the servers announced before h.mcp was set found none.
	h.extensionsChanged()
}

// stopMCP stops the handle's MCP servers and takes their tools and
// prompts away.
func (h *Handle) stopMCP() {
	h.extMu.Lock()
	m := h.mcp
	h.mcp = nil
	h.extMu.Unlock()
	if m != nil {
		m.Close()
		h.extensionsChanged()
	}
}

// manager is the handle's MCP manager, nil when it runs none.
func (h *Handle) manager() *mcp.Manager {
	h.extMu.Lock()
	defer h.extMu.Unlock()
	return h.mcp
}

// notify shows a notice in the current session's transcript.
func (h *Handle) notify(level, text string) {
	h.do(func(s *engine.Session) { s.Notify(level, text) })
}

// extensionsChanged is called, from any goroutine, when the MCP servers'
// state or lists changed: the status line is told, and a new list of
// commands (the custom commands, then the servers' prompts, checked with
// app.CheckCommands) is sent when it differs from the last one. A list
// the app has not read yet is replaced, so the latest always wins. It
// never blocks.
func (h *Handle) extensionsChanged() {
	select {
	case h.extChanged <- struct{}{}:
	default:
	}
	// The list is made under the lock, so of two changes at once the
	// later one's list is the one sent last.
	h.cmdMu.Lock()
	defer h.cmdMu.Unlock()
	var prompts []mcp.PromptCommand
	if m := h.manager(); m != nil {
		prompts = m.Prompts()
	}
	cmds := append(append([]app.Command(nil), h.commands...), promptCommands(prompts, h.runPrompt)...)
	kept, notices := app.CheckCommands(cmds)
	sig := commandsSignature(kept)
	if sig == h.sentSig {
		return
	}
	h.sentSig = sig
	for _, text := range notices {
		if !h.told[text] {
			h.told[text] = true
			h.notify("warn", text)
		}
	}
	select {
	case <-h.cmdUpdates:
	default:
	}
	h.cmdUpdates <- kept
}

// commandsSignature tells one list of commands from another, as /help and
// Tab show them.
func commandsSignature(cmds []app.Command) string {
	var b strings.Builder
	for _, c := range cmds {
		fmt.Fprintf(&b, "%q %q %q %q\n", c.Name, c.Args, c.Summary, c.Source)
	}
	return b.String()
}

// runPrompt runs an MCP prompt's command with the servers of the moment.
func (h *Handle) runPrompt(ctx context.Context, name string, words []string) (string, error) {
	m := h.manager()
	if m == nil {
		return "", fmt.Errorf("/%s: this session runs no MCP servers", name)
	}
	return m.RunPrompt(ctx, name, words)
}

// ExtensionsChanged is signalled when the MCP servers' state changed.
func (h *Handle) ExtensionsChanged() <-chan struct{} { return h.extChanged }

// CommandUpdates delivers the commands from outside the app's table each
// time the MCP servers' prompts change: the custom commands, then the
// prompts.
func (h *Handle) CommandUpdates() <-chan []app.Command { return h.cmdUpdates }

// ExtensionSummary is the status line's word on the MCP servers.
func (h *Handle) ExtensionSummary() string {
	m := h.manager()
	if m == nil {
		return ""
	}
	return mcp.Summary(m.Status())
}

// MCP is /mcp: the servers, their tools, prompts and resources; with
// "restart NAME" it reconnects one.
func (h *Handle) MCP(ctx context.Context, args []string) (lines []string, notice string, err error) {
	m := h.manager()
	if m == nil {
		return nil, "", fmt.Errorf("this session runs no MCP servers")
	}
	switch {
	case len(args) == 0:
		return m.Lines(ctx), "", nil
	case args[0] == "restart" && len(args) == 2:
		if err := m.Restart(args[1]); err != nil {
			return nil, "", err
		}
		return nil, "restarting MCP server " + args[1] + "…", nil
	}
	return nil, "", fmt.Errorf("/mcp takes nothing, or restart NAME")
}

package session

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/sandbox"
	"github.com/quire-sh/quire/tools"
	"github.com/quire-sh/quire/trust"
)

// TrustKinds are the kinds of a project's own files quire uses only once
// the user has trusted their content (package trust): the startup prompt
// and `quire trust` ask about each.
func TrustKinds() []trust.Kind {
	return []trust.Kind{mcpKind}
}

// mcpKind is a project's .mcp.json.
var mcpKind = trust.Kind{Name: mcp.ProjectFile, What: "MCP servers for quire to start (programs it runs, or addresses it connects to)"}

// projectServers reads the project's .mcp.json if the user trusted its
// current content. Otherwise none of its servers is used, and notice
// says so and how to trust it ("" when there is no such file).
func projectServers(store *trust.Store, dir string) (servers map[string]mcp.ServerConfig, notice string) {
	files, err := store.Scan(dir, []trust.Kind{mcpKind})
	if err != nil {
		return nil, fmt.Sprintf("%s was not read: %v; its MCP servers are off", mcp.ProjectFile, err)
	}
	if len(files) == 0 {
		return nil, ""
	}
	f := files[0]
	parsed, perr := mcp.ParseProject(f.Content, os.Getenv)
	if f.Decision != trust.Trusted {
		names := make([]string, 0, len(parsed))
		for n := range parsed {
			names = append(names, mcp.Printable(n))
		}
		sort.Strings(names)
		what := "its servers"
		if len(names) > 0 {
			what = "its servers (" + strings.Join(names, ", ") + ")"
		}
		how := "you have not trusted it yet"
		if f.Decision == trust.Declined {
			how = "you declined it"
		}
		return nil, fmt.Sprintf("This project's %s was not used and none of %s was started: %s. Review the file, then run `quire trust` here to use it.", mcp.ProjectFile, what, how)
	}
	if perr != nil {
		return nil, perr.Error() + "; its MCP servers are off"
	}
	return parsed, ""
}

// mcpOptions are what a session's MCP manager needs: the servers of the
// settings and of a trusted .mcp.json, the sandbox, the environment and
// the session's identity. Problems (a wrong server, an untrusted file)
// are returned as notices, one line each.
func mcpOptions(cfg *config.Config, env *tools.Env, reg *tools.Registry, sessionID, version string) (mcp.Options, []string) {
	project, notice := projectServers(trust.Open(config.StateDir(os.Getenv)), env.Dir)
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
		ProfileFor: func(name string) (sandbox.Profile, error) { return cfg.SandboxSettings.Profile(name, env.Dir) },
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

// startMCP starts the handle's MCP servers in the background; their
// news reaches the transcript as notices and the status line through
// ExtensionsChanged.
func (h *Handle) startMCP(cfg *config.Config, env *tools.Env, sessionID string) {
	opt, problems := mcpOptions(cfg, env, h.opt.registry, sessionID, h.opt.Version)
	opt.Notify = func(level, text string) {
		h.do(func(s *engine.Session) { s.Notify(level, text) })
	}
	opt.Changed = func() {
		select {
		case h.extChanged <- struct{}{}:
		default:
		}
	}
	h.mcp = mcp.Start(opt)
	for _, p := range problems {
		opt.Notify("warn", p)
	}
}

// ExtensionsChanged is signalled when the MCP servers' state or lists
// changed.
func (h *Handle) ExtensionsChanged() <-chan struct{} { return h.extChanged }

// ExtensionSummary is the status line's word on the MCP servers.
func (h *Handle) ExtensionSummary() string {
	if h.mcp == nil {
		return ""
	}
	return mcp.Summary(h.mcp.Status())
}

// Commands are the MCP servers' prompts as slash commands.
func (h *Handle) Commands() []app.ExtensionCommand {
	if h.mcp == nil {
		return nil
	}
	var out []app.ExtensionCommand
	for _, p := range h.mcp.Prompts() {
		help := p.Description
		if help == "" {
			help = "prompt " + mcp.Printable(p.Prompt) + " of MCP server " + p.Server
		}
		out = append(out, app.ExtensionCommand{Name: p.Name, Args: strings.Join(p.Args, " "), Help: help})
	}
	return out
}

// MCP is /mcp: the servers, their tools, prompts and resources; with
// "restart NAME" it reconnects one.
func (h *Handle) MCP(ctx context.Context, args []string) (lines []string, notice string, err error) {
	if h.mcp == nil {
		return nil, "", fmt.Errorf("this session runs no MCP servers")
	}
	switch {
	case len(args) == 0:
		return h.mcp.Lines(ctx), "", nil
	case args[0] == "restart" && len(args) == 2:
		if err := h.mcp.Restart(args[1]); err != nil {
			return nil, "", err
		}
		return nil, "restarting MCP server " + args[1] + "…", nil
	}
	return nil, "", fmt.Errorf("/mcp takes nothing, or restart NAME")
}

// RunCommand runs an MCP prompt's command: the prompt's messages come
// back as the text to send.
func (h *Handle) RunCommand(ctx context.Context, name string, args []string) (string, error) {
	if h.mcp == nil {
		return "", fmt.Errorf("/%s: this session runs no MCP servers", name)
	}
	return h.mcp.RunPrompt(ctx, name, args)
}

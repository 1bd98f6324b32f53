package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/tools"
	"github.com/quire-sh/quire/trust"
)

// MCPList is `quire mcp list`: every server of config.toml and of the
// project's .mcp.json in dir, what it runs or reaches, whether it is on,
// and whether the project file is trusted. Nothing is started.
func MCPList(cfg *config.Config, dir string) []string {
	var lines []string
	describe := func(name, origin string, c mcp.ServerConfig, note string) {
		what := c.URL
		if c.Command != "" {
			what = strings.Join(append([]string{c.Command}, c.Args...), " ")
		}
		state := "on"
		switch {
		case c.Problem != "":
			state = "off: " + c.Problem
		case !c.Enabled:
			state = "off (enabled = false)"
		case note != "":
			state = note
		}
		lines = append(lines, fmt.Sprintf("%-16s %-11s %-6s %s", mcp.Printable(name), origin, c.Transport, mcp.Printable(what)))
		lines = append(lines, "  "+mcp.Printable(state))
	}
	lines = append(lines, fmt.Sprintf("%-16s %-11s %-6s %s", "NAME", "FROM", "KIND", "RUNS OR REACHES"))
	user, problems := mcp.Servers(cfg.MCP, nil)
	for _, s := range user {
		describe(s.Name, s.Origin, s.Config, "")
	}
	for _, p := range problems {
		lines = append(lines, "problem: "+mcp.Printable(p))
	}
	proj := ScanProject(dir, TrustStore())
	f, found := proj.file(mcp.ProjectFile)
	switch {
	case proj.Err != nil:
		lines = append(lines, fmt.Sprintf("%s: %s", mcp.ProjectFile, mcp.Printable(proj.Err.Error())))
	case found:
		servers, perr := mcp.ParseProject(f.Content, os.Getenv)
		note := ""
		switch f.Decision {
		case trust.Declined:
			note = "off: you declined " + mcp.ProjectFile + " as it is now (`quire trust` here reviews it again)"
		case trust.Unknown:
			note = "off: " + mcp.ProjectFile + " is not trusted (run `quire trust` here to review it)"
		}
		if perr != nil {
			lines = append(lines, fmt.Sprintf("%s: %s", mcp.ProjectFile, mcp.Printable(perr.Error())))
		}
		for _, name := range sortedNames(servers) {
			c := servers[name]
			if _, dup := cfg.MCP.Servers[name]; dup {
				c.Problem = "config.toml defines a server of this name, which is used instead"
			}
			describe(name, mcp.OriginProject, c, note)
		}
	}
	if len(lines) == 1 {
		return []string{"No MCP servers are configured. Add one with: quire mcp add NAME -- COMMAND [ARGS…]"}
	}
	return lines
}

func sortedNames(m map[string]mcp.ServerConfig) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// MCPTest is `quire mcp test NAME`: it starts the one server as a
// session would (the session's sandbox, with a trusted project's
// settings; a trusted .mcp.json only), waits
// for it and lists its tools, prompts and resources. The error is one
// line saying why the server did not come up.
func MCPTest(ctx context.Context, cfg *config.Config, dir, name, version string) ([]string, error) {
	proj := ScanProject(dir, TrustStore())
	cfg = wire(cfg, &proj, true, os.Getenv).cfg
	env, err := newEnv(cfg, dir)
	if err != nil {
		return nil, err
	}
	reg := tools.NewRegistry()
	opt, _ := mcpOptions(cfg, env, reg, &proj, "", version)
	var one []mcp.Server
	for _, s := range opt.Servers {
		if s.Name == name {
			one = append(one, s)
		}
	}
	if len(one) == 0 {
		if _, err := os.Stat(filepath.Join(env.Dir, mcp.ProjectFile)); err == nil {
			return nil, fmt.Errorf("no MCP server %q in config.toml or a trusted %s (quire mcp list shows them)", mcp.Printable(name), mcp.ProjectFile)
		}
		return nil, fmt.Errorf("no MCP server %q in config.toml (quire mcp list shows them)", mcp.Printable(name))
	}
	if c := one[0].Config; c.Problem != "" {
		return nil, errors.New(c.Problem)
	} else if !c.Enabled {
		one[0].Config.Enabled = true // testing a disabled server is how to see whether to enable it
	}
	opt.Servers = one
	opt.Notify = func(level, text string) {}
	m := mcp.Start(opt)
	defer m.Close()
	if err := m.Wait(ctx); err != nil {
		return nil, fmt.Errorf("MCP server %s: %w", name, err)
	}
	st := m.Status()[0]
	if st.State != mcp.Ready {
		return nil, fmt.Errorf("MCP server %s %s: %s", name, st.State, mcp.Printable(st.Error))
	}
	lines := m.Lines(ctx)
	return lines[2:], nil
}

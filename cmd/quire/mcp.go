package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/session"
)

const mcpSynopsis = `Usage:
  quire mcp list                         the configured MCP servers (nothing is started)
  quire mcp add NAME [flags] -- COMMAND [ARG…]   add a stdio server to config.toml
  quire mcp add NAME --url URL [flags]           add a streamable-HTTP server
  quire mcp remove NAME                  remove a server from config.toml
  quire mcp test NAME                    start one server, list its tools, prompts and resources

A project's .mcp.json is listed too; its servers start only once you have
trusted its content (quire trust).`

// errNoConfigFile is why add and remove cannot edit config.toml without a
// home directory.
var errNoConfigFile = errors.New("there is no config.toml to edit: with neither $XDG_CONFIG_HOME nor $HOME an absolute path, quire reads no user config")

// runMCP is `quire mcp`.
func runMCP(std stdio, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(std.err, mcpSynopsis)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(std.out, mcpSynopsis)
		return 0
	case "list":
		return runMCPList(std, args[1:])
	case "add":
		return runMCPAdd(std, args[1:])
	case "remove", "rm":
		return runMCPRemove(std, args[1:])
	case "test":
		return runMCPTest(std, args[1:])
	}
	return usageExit(std, "quire mcp", usagef("unknown subcommand %q (list, add, remove or test)", args[0]))
}

func runMCPList(std stdio, args []string) int {
	c := newCommandLine("quire mcp list", "Usage: quire mcp list\n\nLists the MCP servers of config.toml and of this directory's .mcp.json.")
	pos, err := c.parse(args)
	if err != nil {
		return c.exit(std, err)
	}
	if len(pos) > 0 {
		return usageExit(std, c.name, usagef("unexpected argument %q", pos[0]))
	}
	cfg, err := loadConfig(nil)
	if err != nil {
		return fail(std, err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return fail(std, err)
	}
	for _, l := range session.MCPList(cfg, wd) {
		fmt.Fprintln(std.out, l)
	}
	return 0
}

// pairs is a repeatable KEY=VALUE flag.
type pairs map[string]string

func (p pairs) String() string { return "" }
func (p pairs) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not KEY=VALUE", v)
	}
	p[k] = val
	return nil
}

// list is a repeatable flag.
type list []string

func (l *list) String() string     { return "" }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

var serverName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,40}$`)

func runMCPAdd(std stdio, args []string) int {
	c := newCommandLine("quire mcp add", "Usage: quire mcp add NAME [flags] -- COMMAND [ARG…]\n       quire mcp add NAME --url URL [flags]\n\nAppends a [mcp.servers.NAME] table to config.toml; the rest of the file is kept as it is.")
	env := pairs{}
	headers := pairs{}
	var envVars list
	c.fs.Var(env, "env", "set `KEY=VALUE` in the server's environment (repeatable)")
	c.fs.Var(&envVars, "env-var", "pass the variable `NAME` through from quire's environment (repeatable)")
	url := c.fs.String("url", "", "the `URL` of a streamable-HTTP server")
	c.fs.Var(headers, "header", "send the header `NAME=VALUE` to an HTTP server (repeatable)")
	bearer := c.fs.String("bearer-token-env", "", "send Authorization: Bearer $`VAR` to an HTTP server")
	sandboxName := c.fs.String("sandbox", "", "run a stdio server under the sandbox profile `NAME` (default: the session's)")
	pos, err := c.parse(args)
	if err != nil {
		return c.exit(std, err)
	}
	if len(pos) == 0 {
		return usageExit(std, c.name, usagef("give the server a NAME"))
	}
	name, command := pos[0], pos[1:]
	if !serverName.MatchString(name) {
		return usageExit(std, c.name, usagef("a server's name is 1 to 40 letters, digits, - or _ (it is part of every tool name)"))
	}
	keys := map[string]config.Value{}
	switch {
	case *url != "" && len(command) > 0:
		return usageExit(std, c.name, usagef("give a command or --url, not both"))
	case *url == "" && len(command) == 0:
		return usageExit(std, c.name, usagef("give the server's command after --, or --url"))
	case *url != "":
		if len(env)+len(envVars) > 0 || *sandboxName != "" {
			return usageExit(std, c.name, usagef("--env, --env-var and --sandbox are for command servers"))
		}
		keys["url"] = *url
		if len(headers) > 0 {
			keys["headers"] = map[string]string(headers)
		}
		if *bearer != "" {
			keys["bearer_token_env"] = *bearer
		}
	default:
		if len(headers) > 0 || *bearer != "" {
			return usageExit(std, c.name, usagef("--header and --bearer-token-env are for --url servers"))
		}
		keys["command"] = command[0]
		if len(command) > 1 {
			keys["args"] = command[1:]
		}
		if len(env) > 0 {
			keys["env"] = map[string]string(env)
		}
		if len(envVars) > 0 {
			keys["env_vars"] = []string(envVars)
		}
		if *sandboxName != "" {
			keys["sandbox"] = *sandboxName
		}
	}
	cfg, err := loadConfig(nil)
	if err != nil {
		return fail(std, err)
	}
	if cfg.File == "" {
		return fail(std, errNoConfigFile)
	}
	if err := config.AppendTable(cfg.File, toml.Key{"mcp", "servers", name}, keys); err != nil {
		return fail(std, err)
	}
	// Read back what was written, so a mistake is said now, not at the
	// next start.
	cfg, err = loadConfig(nil)
	if err != nil {
		return fail(std, err)
	}
	if p := cfg.MCP.Servers[name].Problem; p != "" {
		if err := config.RemoveTable(cfg.File, toml.Key{"mcp", "servers", name}); err != nil {
			return fail(std, fmt.Errorf("%s, and taking it out again failed: %w", p, err))
		}
		return fail(std, fmt.Errorf("not added: %s", p))
	}
	fmt.Fprintf(std.out, "added MCP server %s to %s (quire mcp test %s tries it)\n", name, cfg.File, name)
	return 0
}

// oneServer parses a command line that names one server and loads the
// configuration; when ok is false the command exits with code.
func oneServer(std stdio, c *commandLine, args []string) (name string, cfg *config.Config, code int, ok bool) {
	pos, err := c.parse(args)
	if err != nil {
		return "", cfg, c.exit(std, err), false
	}
	if len(pos) != 1 {
		return "", cfg, usageExit(std, c.name, usagef("give the NAME of one server")), false
	}
	cfg, err = loadConfig(nil)
	if err != nil {
		return "", cfg, fail(std, err), false
	}
	return pos[0], cfg, 0, true
}

func runMCPRemove(std stdio, args []string) int {
	c := newCommandLine("quire mcp remove", "Usage: quire mcp remove NAME\n\nCuts the [mcp.servers.NAME] table out of config.toml; the rest of the file is kept as it is.")
	name, cfg, code, ok := oneServer(std, c, args)
	if !ok {
		return code
	}
	if cfg.File == "" {
		return fail(std, errNoConfigFile)
	}
	if err := config.RemoveTable(cfg.File, toml.Key{"mcp", "servers", name}); err != nil {
		return fail(std, err)
	}
	fmt.Fprintf(std.out, "removed MCP server %s from %s\n", name, cfg.File)
	return 0
}

func runMCPTest(std stdio, args []string) int {
	c := newCommandLine("quire mcp test", "Usage: quire mcp test NAME\n\nStarts the server as a session would, waits for it (its startup_timeout)\nand lists its tools, prompts and resources. Exits 1 with one line saying\nwhy when it does not come up.")
	name, cfg, code, ok := oneServer(std, c, args)
	if !ok {
		return code
	}
	wd, err := os.Getwd()
	if err != nil {
		return fail(std, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	lines, err := session.MCPTest(ctx, cfg, wd, name, version)
	if err != nil {
		return fail(std, err)
	}
	for _, l := range lines {
		fmt.Fprintln(std.out, l)
	}
	return 0
}

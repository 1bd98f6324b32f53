package mcp

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Settings is the [mcp] table of config.toml:
//
//	[mcp.servers.NAME]
//	command = "npx"              # a stdio server: the program and its args
//	args = ["-y", "@modelcontextprotocol/server-everything"]
//	env = { KEY = "value" }      # added to the server's environment
//	env_vars = ["GITHUB_TOKEN"]  # passed through from quire's environment
//	cwd = "subdir"               # relative to the project (default: the project)
//	sandbox = "off"              # a profile name; default: the session's profile
//	url = "https://…/mcp"        # or a streamable-HTTP server
//	headers = { X-Team = "a" }   # sent with every HTTP request
//	env_headers = { X-Key = "MY_KEY" }  # header values read from the environment
//	bearer_token_env = "MY_TOKEN"       # Authorization: Bearer $MY_TOKEN
//	enabled = false              # keep it configured but off
//	enabled_tools = ["a", "b"]   # offer only these tools (the server's names)
//	disabled_tools = ["c"]       # never offer these
//	startup_timeout = "30s"      # how long connecting may take
//	tool_timeout = "120s"        # how long one call may take
//
// Config decodes it through UnmarshalTOML, which never fails: a server
// whose table is wrong is kept with its Problem set, so quire starts and
// says, in one line, why that server is off.
type Settings struct {
	Servers map[string]ServerConfig
	// Problems are what is wrong with the table outside any one server.
	Problems []string
}

// ServerConfig is one server's settings, from config.toml or a project's
// .mcp.json.
type ServerConfig struct {
	Command string
	Args    []string
	Env     map[string]string
	EnvVars []string
	Cwd     string
	Sandbox string

	URL            string
	Headers        map[string]string
	EnvHeaders     map[string]string
	BearerTokenEnv string
	// Transport is "stdio", "http" (streamable HTTP) or "sse" (the older
	// HTTP+SSE transport, from .mcp.json's type); derived when empty.
	Transport string

	Enabled       bool
	EnabledTools  []string
	DisabledTools []string

	StartupTimeout time.Duration
	ToolTimeout    time.Duration

	// Problem, when set, is why this server cannot be used; it stays off.
	Problem string
}

const (
	defaultStartupTimeout = 30 * time.Second
	defaultToolTimeout    = 120 * time.Second
)

// validName is what a server may be called: its name is part of every
// tool name (mcp__NAME__TOOL), which providers restrict to these
// characters.
var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,40}$`)

// UnmarshalTOML decodes the [mcp] table. It reports no error: what is
// wrong is kept in Problems and in each server's Problem.
func (s *Settings) UnmarshalTOML(v any) error {
	*s = Settings{Servers: map[string]ServerConfig{}}
	t, ok := v.(map[string]any)
	if !ok {
		s.Problems = append(s.Problems, "[mcp] must be a table; MCP servers are off")
		return nil
	}
	keys := sortedKeys(t)
	for _, k := range keys {
		if k != "servers" {
			s.Problems = append(s.Problems, fmt.Sprintf("unknown setting mcp.%s (servers are [mcp.servers.NAME] tables)", k))
		}
	}
	raw, ok := t["servers"]
	if !ok {
		return nil
	}
	servers, ok := raw.(map[string]any)
	if !ok {
		s.Problems = append(s.Problems, "mcp.servers must be a table of [mcp.servers.NAME] tables; MCP servers are off")
		return nil
	}
	for _, name := range sortedKeys(servers) {
		s.Servers[name] = decodeServer(name, servers[name])
	}
	return nil
}

// decodeServer reads one [mcp.servers.NAME] table; anything wrong is
// its Problem.
func decodeServer(name string, raw any) ServerConfig {
	c := ServerConfig{Enabled: true}
	where := "[mcp.servers." + name + "]"
	t, ok := raw.(map[string]any)
	if !ok {
		c.Problem = where + " must be a table"
		return c
	}
	var problems []string
	bad := func(key, want string) {
		problems = append(problems, fmt.Sprintf("%s must be %s", key, want))
	}
	for _, k := range sortedKeys(t) {
		v := t[k]
		var ok bool
		switch k {
		case "command":
			c.Command, ok = v.(string)
		case "args":
			c.Args, ok = stringList(v)
		case "env":
			c.Env, ok = stringMap(v)
		case "env_vars":
			c.EnvVars, ok = stringList(v)
		case "cwd":
			c.Cwd, ok = v.(string)
		case "sandbox":
			c.Sandbox, ok = v.(string)
		case "url":
			c.URL, ok = v.(string)
		case "headers":
			c.Headers, ok = stringMap(v)
		case "env_headers":
			c.EnvHeaders, ok = stringMap(v)
		case "bearer_token_env":
			c.BearerTokenEnv, ok = v.(string)
		case "transport":
			c.Transport, ok = v.(string)
		case "enabled":
			c.Enabled, ok = v.(bool)
		case "enabled_tools":
			c.EnabledTools, ok = stringList(v)
		case "disabled_tools":
			c.DisabledTools, ok = stringList(v)
		case "startup_timeout":
			c.StartupTimeout, ok = duration(v)
		case "tool_timeout":
			c.ToolTimeout, ok = duration(v)
		default:
			problems = append(problems, fmt.Sprintf("unknown key %q", k))
			continue
		}
		if !ok {
			switch k {
			case "args", "env_vars", "enabled_tools", "disabled_tools":
				bad(k, "a list of strings")
			case "env", "headers", "env_headers":
				bad(k, "a table of strings")
			case "enabled":
				bad(k, "true or false")
			case "startup_timeout", "tool_timeout":
				bad(k, `a positive duration such as "30s" (or a number of seconds)`)
			default:
				bad(k, "a string")
			}
		}
	}
	problems = append(problems, c.check(name)...)
	if len(problems) > 0 {
		c.Problem = where + ": " + strings.Join(problems, "; ")
	}
	return c
}

// check is what is wrong with a server's settings as a whole; it also
// fills in the transport and the timeouts' defaults.
func (c *ServerConfig) check(name string) []string {
	var problems []string
	if !validName.MatchString(name) {
		problems = append(problems, "the name must be 1 to 40 letters, digits, - or _ (it is part of every tool name)")
	}
	switch {
	case c.Command == "" && c.URL == "":
		problems = append(problems, "it needs a command (a stdio server) or a url (an HTTP server)")
	case c.Command != "" && c.URL != "":
		problems = append(problems, "it has both a command and a url; keep one")
	case c.Command != "":
		if c.Transport != "" && c.Transport != "stdio" {
			problems = append(problems, fmt.Sprintf("transport %q does not go with a command", c.Transport))
		}
		c.Transport = "stdio"
		if len(c.Headers)+len(c.EnvHeaders) > 0 || c.BearerTokenEnv != "" {
			problems = append(problems, "headers and bearer tokens are for url servers")
		}
	default:
		switch c.Transport {
		case "":
			c.Transport = "http"
		case "http", "sse":
		default:
			problems = append(problems, fmt.Sprintf("transport %q is not http or sse", c.Transport))
		}
		if u, err := url.Parse(c.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			problems = append(problems, "url must be an http:// or https:// address")
		}
		if len(c.Args)+len(c.Env)+len(c.EnvVars) > 0 || c.Cwd != "" || c.Sandbox != "" {
			problems = append(problems, "args, env, env_vars, cwd and sandbox are for command servers")
		}
	}
	for k := range c.Headers {
		if !validHeader(k) {
			problems = append(problems, fmt.Sprintf("%q is not a valid header name", k))
		}
	}
	for k := range c.EnvHeaders {
		if !validHeader(k) {
			problems = append(problems, fmt.Sprintf("%q is not a valid header name", k))
		}
	}
	if c.StartupTimeout == 0 {
		c.StartupTimeout = defaultStartupTimeout
	}
	if c.ToolTimeout == 0 {
		c.ToolTimeout = defaultToolTimeout
	}
	sort.Strings(problems)
	return problems
}

var headerName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

func validHeader(k string) bool { return headerName.MatchString(k) }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func stringList(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

func stringMap(v any) (map[string]string, bool) {
	switch m := v.(type) {
	case map[string]string:
		return m, true
	case map[string]any:
		out := make(map[string]string, len(m))
		for k, e := range m {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out[k] = s
		}
		return out, true
	}
	return nil, false
}

// duration reads "30s", "2m" or a number of seconds.
func duration(v any) (time.Duration, bool) {
	var d time.Duration
	switch x := v.(type) {
	case string:
		var err error
		if d, err = time.ParseDuration(x); err != nil {
			n, err := strconv.ParseFloat(x, 64)
			if err != nil {
				return 0, false
			}
			d = time.Duration(n * float64(time.Second))
		}
	case int64:
		d = time.Duration(x) * time.Second
	case float64:
		d = time.Duration(x * float64(time.Second))
	default:
		return 0, false
	}
	return d, d > 0
}

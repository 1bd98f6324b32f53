package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ProjectFile is the name of a project's MCP servers file, in the format
// other agents use:
//
//	{"mcpServers": {
//	  "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "env": {"K": "v"}},
//	  "remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
//	}}
//
// ${VAR} and ${VAR:-default} in command, args, env, url and headers are
// replaced from quire's environment. Keys quire does not know are
// ignored (the format is other programs' too). The file is used only
// once the user has trusted its content (package trust).
const ProjectFile = ".mcp.json"

// ParseProject reads a project's .mcp.json. A server that cannot be used
// is returned with its Problem set; an error means the file as a whole
// is not usable.
func ParseProject(content []byte, getenv func(string) string) (map[string]ServerConfig, error) {
	var doc struct {
		Servers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(content, &doc); err != nil {
		return nil, fmt.Errorf("%s is not valid JSON: %s", ProjectFile, jsonProblem(err))
	}
	out := make(map[string]ServerConfig, len(doc.Servers))
	for name, raw := range doc.Servers {
		out[name] = parseProjectServer(name, raw, getenv)
	}
	return out, nil
}

// jsonProblem restates a JSON error without the text of the document.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("syntax error at byte %d", se.Offset)
	case errors.As(err, &te):
		return fmt.Sprintf("%s must be %s", te.Field, te.Type)
	}
	return "not an object with mcpServers"
}

func parseProjectServer(name string, raw json.RawMessage, getenv func(string) string) ServerConfig {
	c := ServerConfig{Enabled: true}
	where := ProjectFile + " server " + strconv.Quote(name)
	var s struct {
		Type     string            `json:"type"`
		Command  string            `json:"command"`
		Args     []string          `json:"args"`
		Env      map[string]string `json:"env"`
		Cwd      string            `json:"cwd"`
		URL      string            `json:"url"`
		Headers  map[string]string `json:"headers"`
		Disabled bool              `json:"disabled"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&s); err != nil {
		c.Problem = where + ": " + jsonProblem(err)
		return c
	}
	expand := func(v string) string { return expandEnv(v, getenv) }
	c.Command, c.Cwd, c.URL = expand(s.Command), expand(s.Cwd), expand(s.URL)
	for _, a := range s.Args {
		c.Args = append(c.Args, expand(a))
	}
	c.Env = expandMap(s.Env, expand)
	c.Headers = expandMap(s.Headers, expand)
	c.Enabled = !s.Disabled
	switch s.Type {
	case "", "stdio":
		c.Transport = s.Type
	case "http", "streamable-http", "streamableHttp":
		c.Transport = "http"
	case "sse":
		c.Transport = "sse"
	default:
		c.Problem = fmt.Sprintf("%s: type %q is not stdio, http or sse", where, s.Type)
		return c
	}
	if problems := c.check(name); len(problems) > 0 {
		c.Problem = where + ": " + strings.Join(problems, "; ")
	}
	return c
}

func expandMap(m map[string]string, expand func(string) string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = expand(v)
	}
	return out
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}`)

// expandEnv replaces ${VAR} and ${VAR:-default}; a bare $VAR is left
// alone, as other agents do.
func expandEnv(s string, getenv func(string) string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	return envRef.ReplaceAllStringFunc(s, func(m string) string {
		sub := envRef.FindStringSubmatch(m)
		if v := getenv(sub[1]); v != "" {
			return v
		}
		return sub[2]
	})
}

// Server is one configured server, with where it was configured.
type Server struct {
	Name   string
	Config ServerConfig
	// Origin is "config.toml" or ".mcp.json".
	Origin string
}

// Origins of a server's settings.
const (
	OriginConfig  = "config.toml"
	OriginProject = ProjectFile
)

// Servers lists the servers of the user's settings and of a trusted
// project file (nil when there is none or it is not trusted), sorted by
// name. A name both define is the user's: the project's is dropped, with
// a problem saying so.
func Servers(user Settings, project map[string]ServerConfig) (servers []Server, problems []string) {
	problems = append(problems, user.Problems...)
	for name, c := range user.Servers {
		servers = append(servers, Server{Name: name, Config: c, Origin: OriginConfig})
	}
	for name, c := range project {
		if _, ok := user.Servers[name]; ok {
			problems = append(problems, fmt.Sprintf("%s server %q is ignored: config.toml defines a server of that name", ProjectFile, name))
			continue
		}
		servers = append(servers, Server{Name: name, Config: c, Origin: OriginProject})
	}
	sort.Slice(servers, func(i, j int) bool { return servers[i].Name < servers[j].Name })
	return servers, problems
}

// ProjectSummary says what a project's .mcp.json would make quire do, one
// line a server, for the question put to the user before it is trusted:
// the server's name and the command it would run or the address it would
// reach, with the names (never the values) of the environment and
// headers it sets. ${VAR} references are shown as written, so no value of
// the user's environment reaches the screen; whether a server could be
// used is judged with the environment it would start with, so a url that
// is all ${VAR} is not called wrong. It never fails: a file or a server
// that cannot be used says so.
func ProjectSummary(content []byte) []string {
	servers, err := ParseProject(content, func(name string) string { return "${" + name + "}" })
	if err != nil {
		return []string{"(" + err.Error() + ": it would be ignored)"}
	}
	if len(servers) == 0 {
		return []string{"(no servers)"}
	}
	// The problems of the servers as they would start; their messages
	// name keys, never the environment's values.
	judged, _ := ParseProject(content, os.Getenv)
	var out []string
	for _, name := range sortedKeys(servers) {
		c := servers[name]
		line := Printable(name) + ": "
		switch {
		case judged[name].Problem != "":
			out = append(out, line+"("+oneLine(judged[name].Problem, 300)+"; it would be off)")
			continue
		case c.Command != "":
			line += Printable(strings.Join(append([]string{c.Command}, c.Args...), " "))
		default:
			line += c.Transport + " " + Printable(c.URL)
		}
		var notes []string
		if c.Cwd != "" {
			notes = append(notes, "in "+Printable(c.Cwd))
		}
		if len(c.Env) > 0 {
			notes = append(notes, "env "+Printable(strings.Join(sortedKeys(c.Env), ", ")))
		}
		if len(c.Headers) > 0 {
			notes = append(notes, "headers "+Printable(strings.Join(sortedKeys(c.Headers), ", ")))
		}
		if !c.Enabled {
			notes = append(notes, "disabled")
		}
		if len(notes) > 0 {
			line += "  (" + strings.Join(notes, "; ") + ")"
		}
		out = append(out, line)
	}
	return out
}

package mcp

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

// decode reads a config.toml's [mcp] table the way package config does:
// into Settings through the TOML library.
func decode(t *testing.T, doc string) Settings {
	t.Helper()
	var file struct {
		MCP Settings `toml:"mcp"`
	}
	if _, err := toml.Decode(doc, &file); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return file.MCP
}

func TestSettings(t *testing.T) {
	s := decode(t, `
[mcp.servers.everything]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-everything"]
env = { A = "1" }
env_vars = ["GITHUB_TOKEN"]
sandbox = "off"
enabled_tools = ["echo"]
startup_timeout = "10s"
tool_timeout = 5

[mcp.servers.remote]
url = "https://example.com/mcp"
headers = { X-Team = "a" }
bearer_token_env = "REMOTE_TOKEN"

[mcp.servers.typo]
command = "x"
comand = "y"

[mcp.servers.neither]
enabled = true

[mcp.servers.both]
command = "x"
url = "http://localhost:1/mcp"

[mcp.servers."bad.name"]
command = "x"

[mcp.servers.wrongtype]
command = "x"
args = "not a list"

[mcp.servers.badurl]
url = "ftp://x"

[mcp.servers.off]
command = "x"
enabled = false
`)
	ev := s.Servers["everything"]
	if ev.Problem != "" || ev.Transport != "stdio" || ev.Command != "npx" || len(ev.Args) != 2 || ev.Env["A"] != "1" ||
		ev.EnvVars[0] != "GITHUB_TOKEN" || ev.Sandbox != "off" || ev.EnabledTools[0] != "echo" ||
		ev.StartupTimeout != 10*time.Second || ev.ToolTimeout != 5*time.Second || !ev.Enabled {
		t.Errorf("everything: %+v", ev)
	}
	rm := s.Servers["remote"]
	if rm.Problem != "" || rm.Transport != "http" || rm.Headers["X-Team"] != "a" || rm.BearerTokenEnv != "REMOTE_TOKEN" || rm.StartupTimeout != defaultStartupTimeout {
		t.Errorf("remote: %+v", rm)
	}
	for name, want := range map[string]string{
		"typo":      `[mcp.servers.typo]: unknown key "comand"`,
		"neither":   "it needs a command (a stdio server) or a url",
		"both":      "it has both a command and a url",
		"bad.name":  "the name must be 1 to 40 letters",
		"wrongtype": "args must be a list of strings",
		"badurl":    "url must be an http:// or https:// address",
	} {
		got := s.Servers[name].Problem
		if !strings.Contains(got, want) || strings.Contains(got, "\n") {
			t.Errorf("%s: problem %q, want %q", name, got, want)
		}
	}
	if off := s.Servers["off"]; off.Enabled || off.Problem != "" {
		t.Errorf("off: %+v", off)
	}
	s = decode(t, "[mcp]\nservers = 3\nother = 1\n")
	if len(s.Problems) != 2 || len(s.Servers) != 0 {
		t.Errorf("problems %q", s.Problems)
	}
}

func TestProjectFile(t *testing.T) {
	env := map[string]string{"TOKEN": "t0k", "HOME": "/home/u"}
	getenv := func(k string) string { return env[k] }
	servers, err := ParseProject([]byte(`{"mcpServers": {
		"everything": {"command": "npx", "args": ["-y", "pkg", "${HOME}/x"], "env": {"K": "${MISSING:-dflt}"}, "alwaysAllow": ["x"]},
		"remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
		"old": {"type": "sse", "url": "http://localhost:9/sse"},
		"weird": {"type": "carrier-pigeon", "url": "http://x"},
		"nothing": {},
		"off": {"command": "x", "disabled": true},
		"typed": {"command": 3}
	}}`), getenv)
	if err != nil {
		t.Fatal(err)
	}
	ev := servers["everything"]
	if ev.Problem != "" || ev.Args[2] != "/home/u/x" || ev.Env["K"] != "dflt" || ev.Transport != "stdio" {
		t.Errorf("everything: %+v", ev)
	}
	if rm := servers["remote"]; rm.Problem != "" || rm.Headers["Authorization"] != "Bearer t0k" || rm.Transport != "http" {
		t.Errorf("remote: %+v", rm)
	}
	if old := servers["old"]; old.Problem != "" || old.Transport != "sse" {
		t.Errorf("old: %+v", old)
	}
	for name, want := range map[string]string{"weird": `type "carrier-pigeon"`, "nothing": "needs a command", "typed": "command must be string"} {
		if got := servers[name].Problem; !strings.Contains(got, want) || !strings.HasPrefix(got, ".mcp.json server") {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if servers["off"].Enabled {
		t.Error("disabled server enabled")
	}
	if _, err := ParseProject([]byte(`{"mcpServers": [`), getenv); err == nil || strings.Contains(err.Error(), "[") {
		t.Errorf("bad JSON: %v", err)
	}
}

// The trust question says what a .mcp.json would start or reach, with
// the references to the environment as written and no header's value.
func TestProjectSummary(t *testing.T) {
	t.Setenv("TOKEN", "t0k-secret")
	t.Setenv("MCP_HOST", "mcp.example.com")
	t.Setenv("MCP_BASE", "https://mcp.example.com/v1")
	tests := []struct {
		name    string
		content string
		want    []string
	}{
		{"servers", `{"mcpServers": {
			"remote": {"type": "http", "url": "https://example.com/mcp?k=${TOKEN}", "headers": {"Authorization": "Bearer ${TOKEN}", "X-Team": "infra"}},
			"everything": {"command": "npx", "args": ["-y", "pkg", "${HOME}/x"], "env": {"K": "v", "A": "b"}, "cwd": "tools"},
			"off": {"command": "x", "disabled": true}
		}}`, []string{
			"everything: npx -y pkg ${HOME}/x  (in tools; env A, K)",
			"off: x  (disabled)",
			"remote: http https://example.com/mcp?k=${TOKEN}  (headers Authorization, X-Team)",
		}},
		{"a wrong server", `{"mcpServers": {"w": {"type": "carrier-pigeon", "url": "http://x"}}}`,
			[]string{`w: (.mcp.json server "w": type "carrier-pigeon" is not stdio, http or sse; it would be off)`}},
		{"a url made of ${VAR}s is judged with their values, shown as written", `{"mcpServers": {
			"h": {"type": "http", "url": "https://${MCP_HOST}/mcp"},
			"b": {"type": "http", "url": "${MCP_BASE}/mcp"},
			"u": {"type": "http", "url": "${UNSET_MCP_URL}"}
		}}`, []string{
			"b: http ${MCP_BASE}/mcp",
			"h: http https://${MCP_HOST}/mcp",
			`u: (.mcp.json server "u": it needs a command (a stdio server) or a url (an HTTP server); it would be off)`,
		}},
		{"escape sequences", `{"mcpServers": {"e": {"command": "evil\u001b[2J"}}}`, []string{`e: evil\x1b[2J`}},
		{"none", `{"mcpServers": {}}`, []string{"(no servers)"}},
		{"not JSON", `{"mcpServers": [`, []string{"(.mcp.json is not valid JSON: syntax error at byte 16: it would be ignored)"}},
	}
	for _, tt := range tests {
		got := ProjectSummary([]byte(tt.content))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
		if strings.Contains(strings.Join(got, "\n"), "t0k-secret") {
			t.Errorf("%s: the summary shows the environment's value", tt.name)
		}
	}
}

func TestServersMerge(t *testing.T) {
	user := Settings{Servers: map[string]ServerConfig{"a": {Command: "user"}}}
	project := map[string]ServerConfig{"a": {Command: "project"}, "b": {Command: "b"}}
	list, problems := Servers(user, project)
	if len(list) != 2 || list[0].Config.Command != "user" || list[0].Origin != OriginConfig || list[1].Origin != OriginProject {
		t.Errorf("servers %+v", list)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], `server "a" is ignored`) {
		t.Errorf("problems %q", problems)
	}
}

func FuzzParseProject(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"a":{"command":"x","args":["${A:-b}"]}}}`))
	f.Add([]byte(`{"mcpServers":{"b":{"type":"http","url":"http://h/mcp","headers":{"X":"${Y}"}}}}`))
	f.Add([]byte(`{"mcpServers":{"\u001b[31m":{}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, line := range ProjectSummary(b) {
			if strings.ContainsAny(line, "\x1b\u009b\n") {
				t.Fatalf("summary line %q", line)
			}
		}
		servers, err := ParseProject(b, func(string) string { return "v" })
		if err != nil {
			return
		}
		for name, c := range servers {
			if c.Problem == "" && !validName.MatchString(name) {
				t.Fatalf("server %q accepted", name)
			}
			if c.Problem == "" && c.Command == "" && c.URL == "" {
				t.Fatalf("server %q with nothing to start accepted", name)
			}
		}
	})
}

func TestSummary(t *testing.T) {
	for _, c := range []struct {
		st   []Status
		want string
	}{
		{nil, ""},
		{[]Status{{Name: "a", State: Off}}, ""},
		{[]Status{{Name: "a", State: Starting}, {Name: "b", State: Ready}}, "mcp 1/2 starting"},
		{[]Status{{Name: "a", State: Ready}, {Name: "b", State: Failed}, {Name: "c", State: Off}}, "mcp 1/2 b failed"},
		{[]Status{{Name: "a", State: Failed}, {Name: "b", State: Failed}, {Name: "c", State: Starting}}, "mcp 0/3 starting a failed (+1)"},
	} {
		if got := Summary(c.st); got != c.want {
			t.Errorf("Summary(%+v) = %q, want %q", c.st, got, c.want)
		}
	}
}

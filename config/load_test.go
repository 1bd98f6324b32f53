package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, dir, text string) string {
	t.Helper()
	os.MkdirAll(filepath.Join(dir, "quire"), 0o755)
	path := filepath.Join(dir, "quire", "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every table is checked against its owner's type: a key the owner does
// not know, a table that is not one, or a value of the wrong type is an
// error naming the key's full path and the file it came from.
func TestConfigTablesAreChecked(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"unknown key in a profile", "[sandbox.profiles.build]\nwrit = [\"/tmp\"]\n",
			[]string{"unknown setting sandbox.profiles.build.writ (from "}},
		{"unknown table", "[sandbx.profiles.build]\nwrite = [\"/tmp\"]\n",
			[]string{"unknown setting sandbx (from "}},
		{"unknown subtable", "[sandbox.profiels.build]\nwrite = [\"/tmp\"]\n",
			[]string{"unknown setting sandbox.profiels (from "}},
		{"a number out of range", "context_window = 99999999999999999999\n",
			[]string{"line 1"}},
		{"wrong type", "[sandbox.profiles.build]\nwrite = \"/tmp\"\n",
			[]string{"sandbox.profiles.build.write (from ", "incompatible types"}},
		{"a table where a value belongs", "[model]\nname = \"x\"\n",
			[]string{"model (from ", "not a table"}},
		{"an array where a value belongs", "model = [\"a\", \"b\"]\n",
			[]string{"model (from ", "array"}},
		{"a table where the profile belongs", "[sandbox.profile]\nname = \"x\"\n",
			[]string{"sandbox.profile (from ", "not a table"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeConfig(t, dir, tt.text)
			_, err := Load(nil, envMap(map[string]string{"XDG_CONFIG_HOME": dir}))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

// The sandbox profile is [sandbox] profile, beside the custom profiles;
// the older top-level `sandbox = "NAME"` still reads, and a profile chosen
// in the environment keeps the file's custom profiles.
func TestSandboxProfileSettingSitsInItsTable(t *testing.T) {
	tests := []struct {
		name, text string
		env        map[string]string
		want, src  string
	}{
		{"table", "[sandbox]\nprofile = \"build\"\n[sandbox.profiles.build]\nextends = \"strict\"\n", nil, "build", "FILE"},
		{"older top-level form", "sandbox = \"strict\"\n", nil, "strict", "FILE"},
		{"environment over the file's profiles", "[sandbox.profiles.build]\nextends = \"strict\"\n", map[string]string{"QUIRE_SANDBOX": "build"}, "build", "$QUIRE_SANDBOX"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeConfig(t, dir, tt.text)
			env := map[string]string{"XDG_CONFIG_HOME": dir}
			for k, v := range tt.env {
				env[k] = v
			}
			c, err := Load(nil, envMap(env))
			if err != nil {
				t.Fatal(err)
			}
			src := strings.ReplaceAll(tt.src, "FILE", path)
			if c.Sandbox != tt.want || c.Source["sandbox"] != src {
				t.Errorf("sandbox = %q from %q, want %q from %q", c.Sandbox, c.Source["sandbox"], tt.want, src)
			}
			if strings.Contains(tt.text, "profiles.build") && c.SandboxSettings.Profiles["build"].Extends != "strict" {
				t.Errorf("the custom profile was lost: %+v", c.SandboxSettings)
			}
			for _, l := range c.Describe() {
				if strings.HasPrefix(l, "sandbox.profile ") {
					t.Errorf("quire config lists the profile twice: %q", l)
				}
			}
		})
	}
}

// A syntax error says where, never what: the line may hold a secret.
func TestConfigParseErrorsDoNotEchoTheLine(t *testing.T) {
	for _, text := range []string{
		"api_key = sk-live-TOPSECRET1234\n",
		"model = \"m\"\napi_key = \"sk-live-TOPSECRET1234\n",
		"api_key = 'sk-live-TOPSECRET1234' junk\n",
		"api_key = 0xsk-live-TOPSECRET1234\n",
		"api_key = 1.sk-live-TOPSECRET1234\n",
		"api_key = { sk-live-TOPSECRET1234 }\n",
		"api_key = 99999999999999999999\n",
		"api_key = 1979-05-27T07:32:00Zsk\n",
		"sk-live-TOPSECRET1234\n",
		"[sk-live-TOPSECRET1234\n",
	} {
		dir := t.TempDir()
		writeConfig(t, dir, text)
		_, err := Load(nil, envMap(map[string]string{"XDG_CONFIG_HOME": dir}))
		if err == nil {
			t.Errorf("%q was accepted", text)
			continue
		}
		if strings.Contains(err.Error(), "TOPSECRET") || strings.Contains(err.Error(), "sk-live") || strings.Contains(err.Error(), "9999") {
			t.Errorf("the error repeats the secret: %v", err)
		}
		if !strings.Contains(err.Error(), "line ") || strings.Count(err.Error(), "\n") != 0 {
			t.Errorf("the error should be one line naming the line: %v", err)
		}
	}
}

func FuzzConfigParseErrorsDoNotEchoValues(f *testing.F) {
	for _, s := range []string{"x", "'x", "\"x", "{ x", "[x", "1.x", "0x", "x = y", "\"\\q"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		if strings.ContainsAny(value, "\r\n") {
			return // a new line could make the canary a key
		}
		for _, canary := range []string{"Zq9canary", "917356284019"} {
			_, err := parseTOML([]byte("secret = " + value + canary + "\n"))
			if err != nil && strings.Contains(err.Error(), canary) {
				t.Fatalf("the error repeats the value: %v", err)
			}
		}
	})
}

// Layers merge in order: tables key by key at any depth, arrays replaced
// whole, and each value remembers the layer that set it.
func TestLayersMergeTablesAndReplaceArrays(t *testing.T) {
	system := Source{Name: "/etc/quire/config.toml", Values: map[string]any{
		"model": "system-model",
		"sandbox": map[string]any{"profiles": map[string]any{
			"build": map[string]any{"extends": "strict", "read": []any{"/opt/sdk"}, "network": false},
			"docs":  map[string]any{"write": []any{"/srv/docs"}},
		}},
	}}
	user := Source{Name: "~/.config/quire/config.toml", Values: map[string]any{
		"sandbox": map[string]any{"profiles": map[string]any{
			"build": map[string]any{"read": []any{"~/go/pkg/mod"}, "network": true},
		}},
	}}
	flags := Source{Name: "command line", Values: map[string]any{"model": "flag-model"}, Origin: map[string]string{"model": "flag --model"}}
	c, err := FromSources([]Source{system, user, flags})
	if err != nil {
		t.Fatal(err)
	}
	build := c.SandboxSettings.Profiles["build"]
	if build.Extends != "strict" || !reflect.DeepEqual(build.Read, []string{"~/go/pkg/mod"}) || build.Network == nil || !*build.Network {
		t.Errorf("build = %+v: want extends from the system, read and network from the user", build)
	}
	if got := c.SandboxSettings.Profiles["docs"].Write; !reflect.DeepEqual(got, []string{"/srv/docs"}) {
		t.Errorf("a profile only the system file defines was lost: %v", got)
	}
	if c.Model != "flag-model" || c.Source["model"] != "flag --model" {
		t.Errorf("model %q from %q", c.Model, c.Source["model"])
	}
	all := strings.Join(c.Describe(), "\n")
	for _, want := range []string{
		`sandbox.profiles.build.extends "strict"`,
		`sandbox.profiles.build.read ["~/go/pkg/mod"]`,
	} {
		fields := strings.Fields(want)
		found := false
		for _, l := range c.Describe() {
			f := strings.Fields(l)
			if len(f) >= 2 && f[0] == fields[0] && strings.HasPrefix(strings.Join(f[1:], " "), fields[1]) {
				found = true
			}
		}
		if !found {
			t.Errorf("quire config lacks %q:\n%s", want, all)
		}
	}
	for _, l := range c.Describe() {
		switch strings.Fields(l)[0] {
		case "sandbox.profiles.build.extends":
			if !strings.HasSuffix(l, system.Name) {
				t.Errorf("%q: want it from the system file", l)
			}
		case "sandbox.profiles.build.read", "sandbox.profiles.build.network":
			if !strings.HasSuffix(l, user.Name) {
				t.Errorf("%q: want it from the user file", l)
			}
		}
	}
}

// The [sandbox] table reaches its owner as a typed value.
func TestSandboxTableReachesItsOwner(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, "[sandbox.profiles.mine]\nwrite = [\"/tmp\"]\n")
	c, err := Load(nil, envMap(map[string]string{"XDG_CONFIG_HOME": dir}))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.SandboxSettings.Profiles["mine"].Write; !reflect.DeepEqual(got, []string{"/tmp"}) {
		t.Errorf("the [sandbox] table reached its owner as %+v", c.SandboxSettings)
	}
}

// The [skills] table reaches its owner as a typed value; a key it does
// not have, or a path that is not text, names itself.
func TestSkillsTableReachesItsOwner(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, "[skills]\npaths = [\"~/team/skills\", \"/opt/skills\"]\n")
	c, err := Load(nil, envMap(map[string]string{"XDG_CONFIG_HOME": dir}))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Skills.Paths; !reflect.DeepEqual(got, []string{"~/team/skills", "/opt/skills"}) {
		t.Errorf("the [skills] table reached its owner as %+v", c.Skills)
	}
	if !strings.Contains(strings.Join(c.Describe(), "\n"), `skills.paths`) {
		t.Errorf("quire config does not show skills.paths:\n%s", strings.Join(c.Describe(), "\n"))
	}
	for _, bad := range []string{"[skills]\npath = [\"x\"]\n", "[skills]\npaths = \"x\"\n", "[skills]\npaths = [1]\n"} {
		writeConfig(t, dir, bad)
		if _, err := Load(nil, envMap(map[string]string{"XDG_CONFIG_HOME": dir})); err == nil || !strings.Contains(err.Error(), "skills") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// The [mcp] table goes to its owner's type, and a wrong server in it does
// not stop quire: the server carries its problem and the rest loads.
func TestMCPTableNeverFailsTheConfig(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, `model = "m"
[mcp.servers.good]
command = "npx"
args = ["-y", "pkg"]
[mcp.servers.bad]
comand = "x"
[mcp.servers.remote]
url = "https://example.com/mcp"
headers = { Authorization = "Bearer secret-value" }
`)
	c, err := Load(nil, envMap(map[string]string{"XDG_CONFIG_HOME": dir}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Model != "m" {
		t.Errorf("model %q", c.Model)
	}
	good, bad := c.MCP.Servers["good"], c.MCP.Servers["bad"]
	if good.Problem != "" || good.Command != "npx" || len(good.Args) != 2 {
		t.Errorf("good %+v", good)
	}
	if !strings.Contains(bad.Problem, `unknown key "comand"`) {
		t.Errorf("bad %+v", bad)
	}
	desc := strings.Join(c.Describe(), "\n")
	if !strings.Contains(desc, "mcp.servers.good.command") || strings.Contains(desc, "secret-value") {
		t.Errorf("describe:\n%s", desc)
	}
}

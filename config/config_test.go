package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/provider"
)

func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "quire"), 0o755)
	os.WriteFile(filepath.Join(dir, "quire", "config.toml"), []byte(`
model = "from-file"
theme = "light"
draw_interval_ms = 16

[sandbox.profiles.mine]
write = ["/tmp"]
`), 0o644)
	env := envMap(map[string]string{"XDG_CONFIG_HOME": dir, "QUIRE_MODEL": "from-env", "QUIRE_THEME": ""})
	c, err := Load(map[string]string{"approval": "yolo"}, env)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct{ key, got, want, src string }{
		{"model", c.Model, "from-env", "$QUIRE_MODEL"},
		{"theme", c.Theme, "light", c.File},
		{"approval", c.Approval, "yolo", "flag --approval"},
		{"sandbox", c.Sandbox, "workspace", "default"},
	}
	for _, ch := range checks {
		if ch.got != ch.want || c.Source[ch.key] != ch.src {
			t.Errorf("%s = %q from %q, want %q from %q", ch.key, ch.got, c.Source[ch.key], ch.want, ch.src)
		}
	}
	if c.DrawInterval != 16*time.Millisecond {
		t.Errorf("draw interval %v", c.DrawInterval)
	}
}

func TestConfigErrorsNameTheSource(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "quire"), 0o755)
	os.WriteFile(filepath.Join(dir, "quire", "config.toml"), []byte("modle = \"typo\"\n"), 0o644)
	_, err := Load(nil, envMap(map[string]string{"XDG_CONFIG_HOME": dir}))
	if err == nil || !strings.Contains(err.Error(), "unknown setting modle") {
		t.Fatalf("a typo in config.toml must be reported, got %v", err)
	}

	_, err = Load(map[string]string{"approval": "sometimes"}, envMap(map[string]string{"XDG_CONFIG_HOME": t.TempDir()}))
	if err == nil || !strings.Contains(err.Error(), "approval (from flag --approval)") {
		t.Fatalf("a bad flag value must name the flag, got %v", err)
	}
}

func TestConfigDescribeMasksKey(t *testing.T) {
	c, err := Load(nil, envMap(map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "OPENAI_API_KEY": "sk-very-secret-value-1234"}))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(c.Describe(), "\n")
	if strings.Contains(all, "very-secret") || !strings.Contains(all, "1234") {
		t.Fatalf("api key not masked:\n%s", all)
	}
}

func TestDirs(t *testing.T) {
	tests := []struct {
		env         map[string]string
		state, conf string
	}{
		{map[string]string{"HOME": "/h"}, "/h/.local/state/quire", "/h/.config/quire"},
		{map[string]string{"HOME": "/h", "XDG_STATE_HOME": "/s", "XDG_CONFIG_HOME": "/c"}, "/s/quire", "/c/quire"},
		{map[string]string{"HOME": "/h", "QUIRE_HOME": "/q", "XDG_STATE_HOME": "/s"}, "/q", "/h/.config/quire"},
		// A relative config home is no config home: the user's files are
		// never read from under the working directory.
		{map[string]string{"HOME": "/h", "XDG_STATE_HOME": "/s", "XDG_CONFIG_HOME": "rel"}, "/s/quire", "/h/.config/quire"},
		{map[string]string{"HOME": "rel", "XDG_STATE_HOME": "/s", "XDG_CONFIG_HOME": "rel"}, "/s/quire", ""},
	}
	for _, tt := range tests {
		if got := StateDir(envMap(tt.env)); got != tt.state {
			t.Errorf("StateDir(%v) = %q, want %q", tt.env, got, tt.state)
		}
		if got := ConfigDir(envMap(tt.env)); got != tt.conf {
			t.Errorf("ConfigDir(%v) = %q, want %q", tt.env, got, tt.conf)
		}
	}
}

// [providers.NAME] tables reach the provider settings; a typo in one is
// an error naming it; context_window counts for every model only when
// it was set.
func TestProviderTables(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "quire"), 0o755)
	file := filepath.Join(dir, "quire", "config.toml")
	os.WriteFile(file, []byte(`
model = "local/qwen3:32b"

[providers.local]
type = "openai"
base_url = "http://localhost:8080/v1"
models = ["qwen3:32b"]
headers = { "x-team" = "quire" }
`), 0o644)
	env := envMap(map[string]string{"XDG_CONFIG_HOME": dir})
	c, err := Load(nil, env)
	if err != nil {
		t.Fatal(err)
	}
	s := c.ProviderSettings(env)
	if p := s.Providers["local"]; p.BaseURL != "http://localhost:8080/v1" || p.Headers["x-team"] != "quire" || len(p.Models) != 1 || s.ContextWindow != 0 || s.Model != "local/qwen3:32b" {
		t.Fatalf("settings %+v", s)
	}
	c, _ = Load(map[string]string{"context_window": "32000"}, env)
	if s := c.ProviderSettings(env); s.ContextWindow != 32000 {
		t.Fatalf("an explicit window: %d", s.ContextWindow)
	}
	os.WriteFile(file, []byte("[providers.local]\ntype = \"openai\"\nbase_ulr = \"http://x\"\n"), 0o644)
	if _, err := Load(nil, env); err == nil || !strings.Contains(err.Error(), "providers.local.base_ulr") {
		t.Fatalf("typo: %v", err)
	}
}

// The README's providers example is a config quire reads.
func TestREADMEProvidersExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(readme), "## Providers")
	_, rest, ok := strings.Cut(rest, "```toml\n")
	example, _, _ := strings.Cut(rest, "```")
	if !ok || !strings.Contains(example, "[providers.") {
		t.Fatal("the README has no providers example")
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "quire"), 0o755)
	os.WriteFile(filepath.Join(dir, "quire", "config.toml"), []byte(example), 0o644)
	env := envMap(map[string]string{"XDG_CONFIG_HOME": dir, "WORK_LLM_KEY": "k"})
	c, err := Load(nil, env)
	if err != nil {
		t.Fatal(err)
	}
	r, err := provider.Resolve(c.ProviderSettings(env))
	if err != nil {
		t.Fatal(err)
	}
	if r.Label() != "work/claude-sonnet-4-6" || r.Config.Headers["x-team"] != "platform" || r.ContextWindow() != 200_000 || r.Model.Price == nil {
		t.Fatalf("resolved %+v", r)
	}
}

package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/quire-sh/quire/config"
)

// redact_tool_output is off unless asked for; on, the session's engine
// filters tool output through the redaction rules.
func TestRedactToolOutputSetting(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("QUIRE_HOME", filepath.Join(home, "state"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	for _, c := range []struct {
		env  string
		want bool
	}{{"", false}, {"true", true}} {
		env := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, "config"), "QUIRE_REDACT_TOOL_OUTPUT": c.env}
		cfg, err := config.Load(nil, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if cfg.RedactToolOutput != c.want {
			t.Fatalf("QUIRE_REDACT_TOOL_OUTPUT=%q: %v", c.env, cfg.RedactToolOutput)
		}
		cfg.Sandbox = "off"
		// An unnamed OpenAI-compatible server: no key needed from the environment.
		cfg.BaseURL, cfg.APIKey, cfg.Model = "http://127.0.0.1:1/v1", "k", "m"
		ws := t.TempDir()
		os.MkdirAll(ws, 0o755)
		p, err := Prepare(Options{Config: cfg, Cwd: ws, NoStore: true})
		if err != nil {
			t.Fatal(err)
		}
		f := p.Engine.ToolOutput
		if (f != nil) != c.want {
			t.Fatalf("redact_tool_output=%v: filter set = %v", c.want, f != nil)
		}
		if f != nil {
			if got := f("token=abc123 in " + home + "/x"); got != "token=[REDACTED] in "+home+"/x" {
				t.Errorf("filter: %q (secrets redacted, paths kept for the model)", got)
			}
		}
	}
}

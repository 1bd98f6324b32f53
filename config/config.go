package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/sandbox"
)

// Config is every setting quire reads. Values come from, in order of
// precedence: command-line flags, environment variables, the config file
// (config.toml in the config dir), built-in defaults. Config records where
// each value came from so `quire config` can say.
type Config struct {
	Model         string
	BaseURL       string
	APIKey        string
	Approval      string // ask | auto-edit | yolo
	Sandbox       string // off | workspace | read-only | strict | a custom profile
	Theme         string // dark | light
	Minimal       bool
	Mouse         bool
	DrawInterval  time.Duration
	ContextWindow int
	RetentionDays int
	// Bell rings the terminal's bell when quire needs the user and its
	// window is not focused.
	Bell bool
	// Record names a file to write an asciicast recording of the
	// terminal output to; "" records nothing.
	Record string

	// SandboxSettings is the [sandbox] table (custom profiles), handed to
	// package sandbox as a value.
	SandboxSettings sandbox.Settings
	// MCP is the [mcp] table (MCP servers), handed to package mcp as a
	// value. Its decoding never fails: a wrong server is kept with its
	// problem, so quire starts with that server off.
	MCP mcp.Settings

	// Source maps a setting's key to where its value came from.
	Source map[string]string
	// File is the config file consulted (it may not exist).
	File string

	// merged keeps every value with its layer, for Describe.
	merged merged
}

// setting describes one key: its name in config.toml, its environment
// variable, its default, and how to parse and print its value.
type setting struct {
	key, env, def, help string
	accessor
}

// accessor parses a string into a Config field and prints it back.
type accessor struct {
	set func(c *Config, v string) error
	get func(c *Config) string
}

func str(p func(*Config) *string) accessor {
	return accessor{
		set: func(c *Config, v string) error { *p(c) = v; return nil },
		get: func(c *Config) string { return *p(c) },
	}
}

func oneOf(p func(*Config) *string, allowed ...string) accessor {
	return accessor{
		set: func(c *Config, v string) error {
			for _, a := range allowed {
				if v == a {
					*p(c) = v
					return nil
				}
			}
			return fmt.Errorf("%q is not one of %s", v, strings.Join(allowed, ", "))
		},
		get: func(c *Config) string { return *p(c) },
	}
}

func boolean(p func(*Config) *bool) accessor {
	return accessor{
		set: func(c *Config, v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%q is not true or false", v)
			}
			*p(c) = b
			return nil
		},
		get: func(c *Config) string { return strconv.FormatBool(*p(c)) },
	}
}

func positive(p func(*Config) *int) accessor {
	return accessor{
		set: func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return fmt.Errorf("%q is not a positive whole number", v)
			}
			*p(c) = n
			return nil
		},
		get: func(c *Config) string { return strconv.Itoa(*p(c)) },
	}
}

func milliseconds(p func(*Config) *time.Duration) accessor {
	return accessor{
		set: func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 1000 {
				return fmt.Errorf("%q is not a whole number of milliseconds from 0 to 1000", v)
			}
			*p(c) = time.Duration(n) * time.Millisecond
			return nil
		},
		get: func(c *Config) string { return strconv.Itoa(int(*p(c) / time.Millisecond)) },
	}
}

func settings() []setting {
	return []setting{
		{"model", "QUIRE_MODEL", "gpt-4o-mini", "model name sent to the API", str(func(c *Config) *string { return &c.Model })},
		{"base_url", "OPENAI_BASE_URL", "https://api.openai.com/v1", "OpenAI-compatible endpoint", str(func(c *Config) *string { return &c.BaseURL })},
		{"api_key", "OPENAI_API_KEY", "", "API key (prefer the environment)", str(func(c *Config) *string { return &c.APIKey })},
		{"approval", "QUIRE_APPROVAL", "ask", "ask | auto-edit | yolo", oneOf(func(c *Config) *string { return &c.Approval }, "ask", "auto-edit", "yolo")},
		{"sandbox", "QUIRE_SANDBOX", "workspace", "off | workspace | read-only | strict | a custom profile", str(func(c *Config) *string { return &c.Sandbox })},
		{"theme", "QUIRE_THEME", "dark", "dark | light", oneOf(func(c *Config) *string { return &c.Theme }, "dark", "light")},
		{"minimal", "QUIRE_MINIMAL", "false", "start inline instead of full-screen", boolean(func(c *Config) *bool { return &c.Minimal })},
		{"mouse", "QUIRE_MOUSE", "true", "capture the mouse in full-screen mode", boolean(func(c *Config) *bool { return &c.Mouse })},
		{"draw_interval_ms", "QUIRE_DRAW_INTERVAL_MS", "8", "minimum milliseconds between frames", milliseconds(func(c *Config) *time.Duration { return &c.DrawInterval })},
		{"context_window", "QUIRE_CONTEXT_WINDOW", "128000", "the model's context window in tokens", positive(func(c *Config) *int { return &c.ContextWindow })},
		{"retention_days", "QUIRE_RETENTION_DAYS", "30", "days before old sessions are removed", positive(func(c *Config) *int { return &c.RetentionDays })},
		{"bell", "QUIRE_BELL", "true", "ring the bell when an approval waits or a turn ends and quire's window is not focused", boolean(func(c *Config) *bool { return &c.Bell })},
		{"record", "QUIRE_RECORD", "", "file to record the terminal output to (asciicast v2, for asciinema play)", str(func(c *Config) *string { return &c.Record })},
	}
}

func maskKey(k string) string {
	if len(k) <= 8 {
		return "****"
	}
	return k[:3] + "…" + k[len(k)-4:]
}

// ConfigDir is ${XDG_CONFIG_HOME:-~/.config}/quire.
func ConfigDir(getenv func(string) string) string { return sandbox.ConfigDirFrom(getenv) }

// StateDir is ${QUIRE_HOME:-${XDG_STATE_HOME:-~/.local/state}/quire}.
func StateDir(getenv func(string) string) string { return sandbox.StateDirFrom(getenv) }

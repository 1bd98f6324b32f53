package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/ext/skills"
	"github.com/quire-sh/quire/provider"
	"github.com/quire-sh/quire/sandbox"
)

// Config is every setting quire reads. Values come from, in order of
// precedence: command-line flags, environment variables, the config file
// (config.toml in the config dir), built-in defaults. Config records where
// each value came from so `quire config` can say.
type Config struct {
	Model         string
	Provider      string
	BaseURL       string
	APIKey        string
	Approval      string // ask | auto-edit | yolo
	Sandbox       string // off | workspace | read-only | strict | a custom profile
	Theme         string // dark | light
	Minimal       bool
	Mouse         bool
	DrawInterval  time.Duration
	ContextWindow int
	// CompactPercent is how full the context window may get before the
	// conversation is compacted.
	CompactPercent int
	RetentionDays  int
	// Bell rings the terminal's bell when quire needs the user and its
	// window is not focused.
	Bell bool
	// Record names a file to write an asciicast recording of the
	// terminal output to; "" records nothing.
	Record string
	// RedactToolOutput replaces secrets in tool output by [REDACTED]
	// before the model sees it (package redact).
	RedactToolOutput bool

	// SandboxSettings is the [sandbox] table (custom profiles), handed to
	// package sandbox as a value.
	SandboxSettings sandbox.Settings
	// Skills is the [skills] table (more directories of skills), handed
	// to package skills as a value.
	Skills skills.Settings

	// Providers are the [providers.NAME] tables of config.toml.
	Providers map[string]provider.Config
	// MCP is the [mcp] table (MCP servers), handed to package mcp as a
	// value. Its decoding never fails: a wrong server is kept with its
	// problem, so quire starts with that server off.
	MCP mcp.Settings

	// Source maps a setting's key to where its value came from.
	Source map[string]string
	// File is the user's config file consulted (it may not exist; "" when
	// there is no home directory).
	File string
	// Layers are the layers read, weakest first, for `quire config`.
	Layers []LayerInfo
	// Warnings are problems that turned a layer, or part of one, off:
	// each one line, shown when a session starts and by `quire config`.
	Warnings []string

	// layer is the layer each setting's value came from (absent: the
	// default).
	layer map[string]Layer
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

func percent(p func(*Config) *int) accessor {
	return accessor{
		set: func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 10 || n > 100 {
				return fmt.Errorf("%q is not a whole number from 10 to 100", v)
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
		{"model", "QUIRE_MODEL", "", "model, or PROVIDER/MODEL (default: the provider's default)", str(func(c *Config) *string { return &c.Model })},
		{"provider", "QUIRE_PROVIDER", "", "provider name; `quire models` lists them (default: from the model, else openai)", str(func(c *Config) *string { return &c.Provider })},
		{"base_url", "OPENAI_BASE_URL", "https://api.openai.com/v1", "OpenAI-compatible chat completions server, used when no provider is named", str(func(c *Config) *string { return &c.BaseURL })},
		{"api_key", "OPENAI_API_KEY", "", "API key (prefer the environment)", str(func(c *Config) *string { return &c.APIKey })},
		{"approval", "QUIRE_APPROVAL", "ask", "ask | auto-edit | yolo", oneOf(func(c *Config) *string { return &c.Approval }, "ask", "auto-edit", "yolo")},
		{"sandbox", "QUIRE_SANDBOX", "workspace", "off | workspace | read-only | strict | a custom profile", str(func(c *Config) *string { return &c.Sandbox })},
		{"theme", "QUIRE_THEME", "dark", "dark | light", oneOf(func(c *Config) *string { return &c.Theme }, "dark", "light")},
		{"minimal", "QUIRE_MINIMAL", "false", "start inline instead of full-screen", boolean(func(c *Config) *bool { return &c.Minimal })},
		{"mouse", "QUIRE_MOUSE", "true", "capture the mouse in full-screen mode", boolean(func(c *Config) *bool { return &c.Mouse })},
		{"draw_interval_ms", "QUIRE_DRAW_INTERVAL_MS", "33", "minimum milliseconds between frames a streaming answer draws, and between reads of its stream (16 draws 60 frames a second; typing and scrolling never wait for it)", milliseconds(func(c *Config) *time.Duration { return &c.DrawInterval })},
		{"context_window", "QUIRE_CONTEXT_WINDOW", "128000", "context window in tokens for models the catalog does not know; when set, for every model", positive(func(c *Config) *int { return &c.ContextWindow })},
		{"compact_percent", "QUIRE_COMPACT_PERCENT", "85", "how full (in percent) the context window may get before the conversation is compacted", percent(func(c *Config) *int { return &c.CompactPercent })},
		{"retention_days", "QUIRE_RETENTION_DAYS", "30", "days before old sessions are removed", positive(func(c *Config) *int { return &c.RetentionDays })},
		{"bell", "QUIRE_BELL", "true", "ring the bell when an approval waits or a turn ends and quire's window is not focused", boolean(func(c *Config) *bool { return &c.Bell })},
		{"record", "QUIRE_RECORD", "", "file to record the terminal output to (asciicast v2, for asciinema play)", str(func(c *Config) *string { return &c.Record })},
		{"redact_tool_output", "QUIRE_REDACT_TOOL_OUTPUT", "false", "replace API keys, tokens, private keys and passwords in tool output by [REDACTED] before the model sees it", boolean(func(c *Config) *bool { return &c.RedactToolOutput })},
	}
}

// SandboxProfile is the profile commands run under in cwd: the built-in
// or custom profile the settings name, keeping every provider's key
// variable from commands (not only the one in use: a key set for one
// provider is no less a secret while another runs), under every
// profile, off included.
func (c *Config) SandboxProfile(cwd string) (sandbox.Profile, error) {
	return c.NamedSandboxProfile(c.Sandbox, cwd)
}

// NamedSandboxProfile is the built-in or custom profile name in cwd, with
// every provider's key variable kept from what runs under it, as
// SandboxProfile: for a program whose own settings name its profile (an
// MCP server's sandbox = "off").
func (c *Config) NamedSandboxProfile(name, cwd string) (sandbox.Profile, error) {
	p, err := c.SandboxSettings.Profile(name, cwd)
	if err != nil {
		return sandbox.Profile{}, err
	}
	p.SecretEnv = append(p.SecretEnv, provider.KeyEnv(c.ProviderSettings(nil))...)
	return p, nil
}

// ProviderSettings is what package provider resolves the model from: the
// provider and model settings, the base_url and api_key of an unnamed
// OpenAI-compatible server, and context_window when it was set at all
// (then it is every model's window, over the catalog's).
func (c *Config) ProviderSettings(getenv func(string) string) provider.Settings {
	s := provider.Settings{Provider: c.Provider, Model: c.Model, BaseURL: c.BaseURL, APIKey: c.APIKey,
		Providers: c.Providers, Getenv: getenv}
	if c.Source["context_window"] != "default" {
		s.ContextWindow = c.ContextWindow
	}
	return s
}

func maskKey(k string) string {
	if len(k) <= 8 {
		return "****"
	}
	return k[:3] + "…" + k[len(k)-4:]
}

// ConfigDir is where the user's own files are read from (skills, agents,
// personas): UserDir, the directory config.toml and hooks.json come from,
// or "" when there is none, so a relative $XDG_CONFIG_HOME or $HOME never
// makes quire read a directory a repository could have planted.
func ConfigDir(getenv func(string) string) string {
	d, _ := UserDir(getenv)
	return d
}

// StateDir is ${QUIRE_HOME:-${XDG_STATE_HOME:-~/.local/state}/quire}.
func StateDir(getenv func(string) string) string { return sandbox.StateDirFrom(getenv) }

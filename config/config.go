package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

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

	// Source maps a setting's key to where its value came from.
	Source map[string]string
	// File is the config file consulted (it may not exist).
	File string

	// merged keeps every value with its layer, for Describe.
	merged merged
}

// tables are the top-level tables of config.toml and where each is
// decoded: a type its owner defines. Adding a table is one row here and
// one field in Config.
func tables(c *Config) map[string]any {
	return map[string]any{
		"sandbox": &c.SandboxSettings,
	}
}

// settingPaths places the settings that live inside a table of
// config.toml; every other setting is a top-level key. The sandbox
// profile is [sandbox] profile, beside the custom profiles it may name
// (TOML cannot have a key sandbox and a table [sandbox] in one file); a
// file's top-level `sandbox = "NAME"`, the older form, is read as that.
func settingPaths() map[string]toml.Key {
	return map[string]toml.Key{"sandbox": {"sandbox", "profile"}}
}

// pathOf is where the setting key lives in config.toml.
func pathOf(key string) toml.Key {
	if p, ok := settingPaths()[key]; ok {
		return p
	}
	return toml.Key{key}
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

// Load resolves the configuration. flags holds the values given on the
// command line, by key; getenv reads the environment. The layers are, from
// the weakest: the defaults, the user's config file, the environment, the
// flags (Sources).
func Load(flags map[string]string, getenv func(string) string) (*Config, error) {
	file := filepath.Join(ConfigDir(getenv), "config.toml")
	sources, err := Sources(file, flags, getenv)
	if err != nil {
		return nil, err
	}
	c, err := FromSources(sources)
	if err != nil {
		return nil, err
	}
	c.File = file
	return c, nil
}

// Sources are the layers Load merges, weakest first: the config file at
// path, the environment variables of the settings, the flags. The next
// layers (a system-managed file, a trusted project's .quire/config.toml)
// go into this list in their place.
func Sources(path string, flags map[string]string, getenv func(string) string) ([]Source, error) {
	file, err := FileSource(path)
	if err != nil {
		return nil, err
	}
	env := Source{Name: "environment", Values: map[string]any{}, Origin: map[string]string{}}
	cli := Source{Name: "command line", Values: map[string]any{}, Origin: map[string]string{}}
	for _, s := range settings() {
		path := pathOf(s.key)
		if v := getenv(s.env); v != "" {
			put(env.Values, path, v)
			env.Origin[path[0]] = "$" + s.env
		}
		if v, ok := flags[s.key]; ok {
			put(cli.Values, path, v)
			cli.Origin[path[0]] = "flag --" + strings.ReplaceAll(s.key, "_", "-")
		}
	}
	return []Source{file, env, cli}, nil
}

// put sets the value at path in a tree of tables, making the tables.
func put(t map[string]any, path toml.Key, v any) {
	for _, k := range path[:len(path)-1] {
		sub, ok := t[k].(map[string]any)
		if !ok {
			sub = map[string]any{}
			t[k] = sub
		}
		t = sub
	}
	t[path[len(path)-1]] = v
}

// get returns the value at path in a tree of tables.
func get(t map[string]any, path toml.Key) (any, bool) {
	for _, k := range path[:len(path)-1] {
		sub, ok := t[k].(map[string]any)
		if !ok {
			return nil, false
		}
		t = sub
	}
	v, ok := t[path[len(path)-1]]
	return v, ok
}

// FromSources merges the layers over the defaults and checks the result:
// every top-level key must be a setting or a known table, every value
// must parse, and each table must fit its owner's type.
func FromSources(sources []Source) (*Config, error) {
	m := merge(sources)
	c := &Config{Source: map[string]string{}, merged: m}
	owners := tables(c)
	known := map[string]bool{}
	var problems []string
	for _, s := range settings() {
		known[s.key] = true
		v, src := s.def, "default"
		path := pathOf(s.key)
		if raw, ok := get(m.values, path); ok {
			src = m.originOf(path.String())
			switch raw.(type) {
			case map[string]any, []any:
				problems = append(problems, fmt.Sprintf("%s (from %s): expected a single value, not a table or an array", path, src))
				continue
			}
			v = fmt.Sprint(raw)
		}
		if err := s.set(c, v); err != nil {
			problems = append(problems, fmt.Sprintf("%s (from %s): %v", s.key, src, err))
			continue
		}
		c.Source[s.key] = src
	}
	var unknown []string
	for k := range m.values {
		if owner, ok := owners[k]; ok {
			if err := decodeTable(m, k, owner); err != nil {
				problems = append(problems, err.Error())
			}
			continue
		}
		if !known[k] {
			unknown = append(unknown, fmt.Sprintf("%s (from %s)", toml.Key{k}, m.originOf(toml.Key{k}.String())))
		}
	}
	if len(unknown) > 0 {
		// A typo silently ignored is a setting the user thinks they have.
		sort.Strings(unknown)
		problems = append(problems, fmt.Sprintf("unknown setting %s (run `quire config` for the list)", strings.Join(unknown, ", ")))
	}
	switch len(problems) {
	case 0:
		return c, nil
	case 1:
		return nil, fmt.Errorf("bad configuration: %s", problems[0])
	}
	sort.Strings(problems)
	return nil, fmt.Errorf("bad configuration:\n  %s", strings.Join(problems, "\n  "))
}

// Describe is `quire config`'s table: a header, then every setting with
// its effective value and where it came from (the API key masked), then
// every value of the tables, by its dotted path.
func (c *Config) Describe() []string {
	rows := [][3]string{{"SETTING", "VALUE", "FROM"}}
	for _, s := range settings() {
		v := s.get(c)
		if s.key == "api_key" && v != "" {
			v = maskKey(v)
		}
		rows = append(rows, [3]string{s.key, v, c.Source[s.key]})
	}
	names := make([]string, 0, len(tables(c)))
	for k := range tables(c) {
		names = append(names, k)
	}
	sort.Strings(names)
	settingAt := map[string]bool{}
	for _, p := range settingPaths() {
		settingAt[p.String()] = true
	}
	for _, t := range names {
		for _, p := range c.merged.paths(t) {
			if settingAt[p] {
				continue // listed above under its setting's name
			}
			l := c.merged.leaves[p]
			rows = append(rows, [3]string{p, formatValue(p, l.value), l.origin})
		}
	}
	keyW, valW := 0, 0
	for _, r := range rows {
		keyW, valW = max(keyW, len(r[0])), max(valW, min(len(r[1]), 40))
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.TrimRight(fmt.Sprintf("%-*s %-*s %s", keyW, r[0], valW, r[1], r[2]), " ")
	}
	return out
}

// formatValue prints a table's value as TOML would, masking values whose
// key names a secret.
func formatValue(path string, v any) string {
	last := path[strings.LastIndex(path, ".")+1:]
	for _, w := range []string{"key", "token", "secret", "password"} {
		if strings.Contains(strings.ToLower(last), w) {
			return maskKey(fmt.Sprint(v))
		}
	}
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = formatValue("", x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
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

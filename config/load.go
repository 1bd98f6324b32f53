package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// tables are the top-level tables of config.toml and where each is
// decoded: a type its owner defines. Adding a table is one row here and
// one field in Config.
func tables(c *Config) map[string]any {
	return map[string]any{
		"sandbox": &c.SandboxSettings,
		"mcp":     &c.MCP,
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

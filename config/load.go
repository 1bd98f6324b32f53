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
		"sandbox":   &c.SandboxSettings,
		"providers": &c.Providers,
		"skills":    &c.Skills,
		"mcp":       &c.MCP,
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

// ManagedFile is the system's managed configuration: settings an
// administrator gives every user of the machine as defaults. It is the
// weakest file layer: the user's own config.toml, a trusted project's
// file, the environment and the flags all override it.
const ManagedFile = "/etc/quire/managed.toml"

// ManagedPath is the managed file quire reads: $QUIRE_MANAGED_CONFIG when
// set (tests, and systems that keep it elsewhere), else ManagedFile.
// Since the managed layer only sets defaults the user may override,
// letting the environment move it gives nothing away.
func ManagedPath(getenv func(string) string) string {
	if p := getenv("QUIRE_MANAGED_CONFIG"); p != "" {
		return p
	}
	return ManagedFile
}

// UserDir is the user's configuration directory,
// ${XDG_CONFIG_HOME:-$HOME/.config}/quire, and false when there is no
// home directory: neither variable holds an absolute path. quire then
// reads no user file at all; it never falls back to a directory relative
// to where it runs, which a repository could have planted.
func UserDir(getenv func(string) string) (string, bool) {
	if d := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "quire"), true
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "quire"), true
	}
	return "", false
}

// Load resolves the configuration. flags holds the values given on the
// command line, by key; getenv reads the environment. The layers are, from
// the weakest: the defaults, the managed file (ManagedPath), the user's
// config.toml (in UserDir; none without a home directory), the
// environment, the flags. A trusted project's file goes between the
// user's and the environment (WithProject).
//
// A managed file that cannot be read or does not check is left out with
// a warning (Warnings): it only sets defaults. The user's own file is
// not: an error in it is returned, since running without it could
// silently undo a setting the user relies on, such as a stricter
// sandbox.
func Load(flags map[string]string, getenv func(string) string) (*Config, error) {
	var warnings []string
	managedPath := ManagedPath(getenv)
	managed, err := FileSource(managedPath)
	managedNote := ""
	switch {
	case err != nil:
		warnings = append(warnings, fmt.Sprintf("ignored the managed config: %v", err))
		managed, managedNote = Source{Name: managedPath}, "off: see the warning"
	case managed.Values == nil:
		managedNote = "absent"
	default:
		managed.Layer = LayerManaged
		if _, err := FromSources([]Source{managed}); err != nil {
			warnings = append(warnings, fmt.Sprintf("ignored the managed config %s: %s", managedPath, oneLine(err)))
			managed, managedNote = Source{Name: managedPath}, "off: see the warning"
		}
	}
	managed.Layer = LayerManaged
	file, userNote := "", ""
	user := Source{Name: "no user config (no home directory)"}
	if dir, ok := UserDir(getenv); ok {
		file = filepath.Join(dir, "config.toml")
		if user, err = FileSource(file); err != nil {
			return nil, err
		}
		if user.Values == nil {
			userNote = "absent"
		}
	}
	user.Layer = LayerUser
	env, cli := envAndFlags(flags, getenv)
	c, err := FromSources([]Source{managed, user, env, cli})
	if err != nil {
		return nil, err
	}
	c.File = file
	c.Warnings = warnings
	c.Layers = []LayerInfo{
		{Layer: LayerManaged, Name: managedPath, Note: managedNote},
		{Layer: LayerUser, Name: user.Name, Note: userNote},
		{Layer: LayerEnvironment, Name: "the settings' variables ($QUIRE_MODEL, $OPENAI_BASE_URL, …)"},
		{Layer: LayerFlags, Name: "flags"},
	}
	return c, nil
}

// oneLine joins a multi-line error into one line.
func oneLine(err error) string {
	lines := strings.Split(err.Error(), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	if len(lines) == 1 {
		return lines[0]
	}
	return lines[0] + " " + strings.Join(lines[1:], "; ")
}

// LayerInfo is one layer as `quire config` lists it: which, where from,
// and a note ("absent", "trusted", "off: …").
type LayerInfo struct {
	Layer Layer
	Name  string
	Note  string
}

// envAndFlags are the layers of the settings' environment variables and
// of the flags.
func envAndFlags(flags map[string]string, getenv func(string) string) (env, cli Source) {
	env = Source{Name: "environment", Layer: LayerEnvironment, Values: map[string]any{}, Origin: map[string]string{}}
	cli = Source{Name: "command line", Layer: LayerFlags, Values: map[string]any{}, Origin: map[string]string{}}
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
	return env, cli
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
	c := &Config{Source: map[string]string{}, layer: map[string]Layer{}, merged: m}
	owners := tables(c)
	known := map[string]bool{}
	var problems []string
	for _, s := range settings() {
		known[s.key] = true
		v, src := s.def, "default"
		path := pathOf(s.key)
		if raw, ok := get(m.values, path); ok {
			src = m.originOf(path.String())
			c.layer[s.key] = m.leaves[path.String()].layer
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

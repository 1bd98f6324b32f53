package config

import (
	"fmt"
	"maps"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/sandbox"
)

// ProjectFile is a project's own settings, relative to its root. quire
// reads it only once the user has trusted its content, and then only the
// settings in projectSettings.
const ProjectFile = ".quire/config.toml"

// projectSetting is how a project's file may set one setting.
type projectSetting uint8

const (
	// projectAny: any valid value. These change how quire looks or when
	// it compacts; none of them sends data anywhere, spends the user's
	// money or widens what a tool may do.
	projectAny projectSetting = iota
	// projectTighten: only a value at least as strict as the one the
	// layers below give. A repository may ask for more care, never less.
	projectTighten
)

// projectSettings are the settings a project's file may set. Everything
// else is the user's alone, and a project's value for it is ignored with
// a warning:
//   - model, base_url, api_key: they decide who receives the code and the
//     prompts and whose account pays; a repository must not pick them.
//   - retention_days: it prunes every project's sessions, not this one's.
//   - record: it writes a file at a path the repository would choose.
//   - minimal, mouse, bell, draw_interval_ms: the user's terminal and
//     habits, not the project's business.
//   - tables ([sandbox.profiles], and every table other owners add):
//     a custom profile can widen what commands may touch; other tables
//     configure providers and servers, which the user chooses.
func projectSettings() map[string]projectSetting {
	return map[string]projectSetting{
		"theme":           projectAny,
		"context_window":  projectAny,
		"compact_percent": projectAny,
		"approval":        projectTighten,
		"sandbox":         projectTighten,
	}
}

// approvalStrictness orders the approval modes: a higher value asks the
// user about more calls.
var approvalStrictness = map[string]int{"yolo": 0, "auto-edit": 1, "ask": 2}

// atLeastAsStrict reports whether a project's value for a tightening
// setting gives no less protection than the value below it.
func atLeastAsStrict(key, project, below string) bool {
	if project == below {
		return true
	}
	switch key {
	case "approval":
		p, okP := approvalStrictness[project]
		b, okB := approvalStrictness[below]
		return okP && okB && p >= b
	case "sandbox":
		// off < workspace < read-only and strict; read-only and strict
		// each allow something the other does not (reading all files,
		// writing the workspace), so neither replaces the other. A custom
		// profile cannot be compared with anything.
		switch below {
		case sandbox.Off:
			return project == sandbox.Workspace || project == sandbox.ReadOnly || project == sandbox.Strict
		case sandbox.Workspace:
			return project == sandbox.ReadOnly || project == sandbox.Strict
		}
	}
	return false
}

// WithProject returns the configuration with a trusted project's
// settings file (its path and the content the user trusted) laid over
// the user's layer: a setting the environment or a flag gives keeps that
// value. Only the settings a project may set are taken, and approval and
// sandbox only where they are at least as strict as what the layers
// below give. What is left out is said in warnings, one line for the
// file; a file that does not parse is left out whole, with one line.
// c is not changed.
func (c *Config) WithProject(path string, content []byte) (*Config, []string) {
	values, err := parseTOML(content)
	if err != nil {
		return c, []string{fmt.Sprintf("ignored the project's settings: %s: %v", path, err)}
	}
	normalizeOlderForms(values)
	out := *c
	out.Source = maps.Clone(c.Source)
	out.layer = maps.Clone(c.layer)
	if out.layer == nil {
		out.layer = map[string]Layer{}
	}
	if out.Source == nil {
		out.Source = map[string]string{}
	}
	var refused, looser, bad []string
	allowed := projectSettings()
	for _, k := range projectKeys(values) {
		key := strings.Join(k, ".")
		name := settingAt(k)
		how, ok := allowed[name]
		if name == "" || !ok {
			refused = append(refused, shownKey(k))
			continue
		}
		raw, _ := get(values, k)
		if _, isTable := raw.(map[string]any); isTable {
			bad = append(bad, fmt.Sprintf("%s is a table, not a value", shownKey(k)))
			continue
		}
		if _, isArray := raw.([]any); isArray {
			bad = append(bad, fmt.Sprintf("%s is an array, not a value", shownKey(k)))
			continue
		}
		v := fmt.Sprint(raw)
		s := lookupSetting(name)
		if out.layer[name] >= LayerEnvironment {
			continue // the environment or a flag decides, above the project
		}
		if how == projectTighten {
			if below := s.get(&out); !atLeastAsStrict(name, v, below) {
				looser = append(looser, fmt.Sprintf("%s = %s (a project may only make it stricter than %q)", key, shownValue(v), below))
				continue
			}
		}
		if err := s.set(&out, v); err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", key, err))
			continue
		}
		out.Source[name] = path
		out.layer[name] = LayerProject
	}
	var parts []string
	if len(refused) > 0 {
		parts = append(parts, fmt.Sprintf("ignored %s (a project may not set %s; see quire config)", strings.Join(refused, ", "), them(len(refused))))
		for _, k := range refused {
			if k == "mcp" || strings.HasPrefix(k, "mcp.") {
				parts = append(parts, "a project's MCP servers go in its "+mcp.ProjectFile+", which is trusted on its own")
				break
			}
		}
	}
	if len(looser) > 0 {
		parts = append(parts, "ignored "+strings.Join(looser, ", "))
	}
	if len(bad) > 0 {
		parts = append(parts, "ignored "+strings.Join(bad, ", "))
	}
	out.Layers = append(append([]LayerInfo(nil), c.Layers...), LayerInfo{Layer: LayerProject, Name: path, Note: "trusted"})
	sort.SliceStable(out.Layers, func(i, j int) bool { return out.Layers[i].Layer < out.Layers[j].Layer })
	if len(parts) == 0 {
		return &out, nil
	}
	w := path + ": " + strings.Join(parts, "; ")
	out.Warnings = append(append([]string(nil), c.Warnings...), w)
	return &out, []string{w}
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// WithProjectNote returns the configuration with the project's file
// listed among its layers with a note (not trusted, declined) and no
// values from it, for `quire config`. c is not changed.
func (c *Config) WithProjectNote(path, note string) *Config {
	out := *c
	out.Layers = append(append([]LayerInfo(nil), c.Layers...), LayerInfo{Layer: LayerProject, Name: path, Note: note})
	sort.SliceStable(out.Layers, func(i, j int) bool { return out.Layers[i].Layer < out.Layers[j].Layer })
	return &out
}

// ProjectSummary says what a project's settings file would set, one line
// a setting, for the question put to the user before it is trusted.
func ProjectSummary(content []byte) []string {
	values, err := parseTOML(content)
	if err != nil {
		return []string{fmt.Sprintf("not valid TOML (%v): it would be ignored", err)}
	}
	normalizeOlderForms(values)
	allowed := projectSettings()
	var out []string
	for _, k := range projectKeys(values) {
		raw, _ := get(values, k)
		line := shownKey(k) + " = " + formatValue(k.String(), raw)
		switch how, ok := allowed[settingAt(k)]; {
		case !ok || settingAt(k) == "":
			line += "  (ignored: a project may not set it)"
		case how == projectTighten:
			line += "  (only where stricter than yours)"
		}
		out = append(out, line)
	}
	if len(out) == 0 {
		return []string{"(sets nothing)"}
	}
	return out
}

// normalizeOlderForms moves the older top-level forms of settings that
// now live in a table into the table.
func normalizeOlderForms(values map[string]any) {
	for key, p := range settingPaths() {
		if v, ok := values[key]; ok && len(p) > 1 {
			if _, isTable := v.(map[string]any); !isTable {
				delete(values, key)
				put(values, p, v)
			}
		}
	}
}

// projectKeys lists what a project file sets: the path of every setting
// (sandbox.profile inside its table), and every other key or table at
// the top level, sorted.
func projectKeys(values map[string]any) []toml.Key {
	var out []toml.Key
	for k, v := range values {
		sub, isTable := v.(map[string]any)
		if !isTable {
			out = append(out, toml.Key{k})
			continue
		}
		inTable := false
		for _, p := range settingPaths() {
			if len(p) == 2 && p[0] == k {
				inTable = true
			}
		}
		if !inTable {
			out = append(out, toml.Key{k})
			continue
		}
		for sk := range sub {
			out = append(out, toml.Key{k, sk})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// settingAt is the name of the setting that lives at path, or "".
func settingAt(path toml.Key) string {
	for name, p := range settingPaths() {
		if p.String() == path.String() {
			return name
		}
	}
	if len(path) == 1 && lookupSetting(path[0]).set != nil {
		return path[0]
	}
	return ""
}

func lookupSetting(key string) setting {
	for _, s := range settings() {
		if s.key == key {
			return s
		}
	}
	return setting{}
}

// bareKey is a key TOML writes without quotes.
var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// shownKey prints a key from a project's file: a repository may quote
// any text into a key, and it is printed to terminals.
func shownKey(k toml.Key) string {
	parts := make([]string, len(k))
	for i, p := range k {
		if bareKey.MatchString(p) {
			parts[i] = p
		} else {
			parts[i] = strconv.QuoteToASCII(p)
		}
	}
	return strings.Join(parts, ".")
}

// shownValue prints a value from a project's file the same way.
func shownValue(v string) string { return strconv.QuoteToASCII(v) }

// ProjectGives reports whether a project's settings file gives the
// setting key (a name of the settings table, such as "theme"), whatever
// its value: for what the trust question says about it.
func ProjectGives(content []byte, key string) bool {
	values, err := parseTOML(content)
	if err != nil {
		return false
	}
	normalizeOlderForms(values)
	for _, k := range projectKeys(values) {
		if settingAt(k) == key {
			return true
		}
	}
	return false
}

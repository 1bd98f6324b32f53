package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

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

// DescribeLayers lists the layers read, weakest first, each with where
// it came from and a note, then the warnings: what `quire config` says
// before its table.
func (c *Config) DescribeLayers() []string {
	out := []string{"layers, weakest first (a later one overrides an earlier one):"}
	for _, l := range c.Layers {
		line := fmt.Sprintf("  %-13s %s", l.Layer, l.Name)
		if l.Note != "" {
			line += " (" + l.Note + ")"
		}
		out = append(out, line)
	}
	for _, w := range c.Warnings {
		out = append(out, "warning: "+w)
	}
	return out
}

// formatValue prints a table's value as TOML would, masking values whose
// key names a secret.
func formatValue(path string, v any) string {
	last := path[strings.LastIndex(path, ".")+1:]
	for _, w := range []string{"key", "token", "secret", "password", "authorization"} {
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

package provider

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"text/tabwriter"
)

// Listing is one provider as `quire models` shows it.
type Listing struct {
	Name      string `json:"name"`
	Type      string `json:"type"`
	BaseURL   string `json:"base_url"`
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// KeySet reports that the key variable is set (or none is needed).
	KeySet bool `json:"key_set"`
	// Current marks the provider the settings resolve to.
	Current bool `json:"current,omitempty"`
	// Configured marks a provider config.toml names; Preset a built-in.
	Configured   bool    `json:"configured,omitempty"`
	Preset       bool    `json:"preset,omitempty"`
	DefaultModel string  `json:"default_model,omitempty"`
	Models       []Model `json:"models"`
	// Problem says why the provider cannot be used as configured.
	Problem string `json:"problem,omitempty"`
}

// List describes every provider the settings know: the presets and the
// config's tables, with their catalog and configured models.
func List(s Settings) []Listing {
	getenv := s.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	current, cerr := Resolve(s)
	var out []Listing
	names := s.names()
	if cerr == nil && current.Name == Compatible {
		names = append([]string{Compatible}, names...)
	}
	for _, name := range names {
		var cfg Config
		if name == Compatible {
			cfg = current.Config
		} else {
			cfg = merge(presets[name], s.Providers[name])
		}
		_, preset := presets[name]
		_, configured := s.Providers[name]
		l := Listing{Name: name, Type: cfg.Type, BaseURL: cfg.BaseURL, APIKeyEnv: cfg.APIKeyEnv,
			KeySet: cfg.APIKeyEnv == "" || getenv(cfg.APIKeyEnv) != "", Preset: preset, Configured: configured,
			Current: cerr == nil && current.Name == name}
		if name == "openai" && !l.KeySet && s.APIKey != "" {
			l.KeySet = true
		}
		if err := check(name, cfg); err != nil {
			l.Problem = err.Error()
		}
		section := cfg.Catalog
		if section == "" {
			section = name
		}
		l.DefaultModel = cfg.DefaultModel
		if l.DefaultModel == "" {
			l.DefaultModel = catalog.Providers[section].DefaultModel
		}
		seen := map[string]bool{}
		for _, m := range catalog.Providers[section].Models {
			if mc, ok := cfg.Models[m.ID]; ok {
				m = override(m, mc)
			}
			seen[m.ID] = true
			l.Models = append(l.Models, m)
		}
		for id, mc := range cfg.Models {
			if !seen[id] {
				m, _ := lookup(section, id)
				m.ID = id
				l.Models = append(l.Models, override(m, mc))
			}
		}
		sort.Slice(l.Models, func(i, j int) bool { return l.Models[i].ID < l.Models[j].ID })
		out = append(out, l)
	}
	return out
}

// WriteTable prints listings as `quire models` shows them: each provider
// with its type, key variable and base URL, then its models with their
// window, output limit, reasoning and prices per million tokens ("-"
// where unknown). The current provider and each default model are
// marked with *.
func WriteTable(w io.Writer, ls []Listing) error {
	for i, l := range ls {
		if i > 0 {
			fmt.Fprintln(w)
		}
		mark := ""
		if l.Current {
			mark = " *"
		}
		key := "no key needed"
		if l.APIKeyEnv != "" {
			key = l.APIKeyEnv + " is not set"
			if l.KeySet {
				key = l.APIKeyEnv + " is set"
			}
		}
		fmt.Fprintf(w, "%s%s  (%s, %s)  %s\n", l.Name, mark, l.Type, key, l.BaseURL)
		if l.Problem != "" {
			fmt.Fprintf(w, "  cannot be used: %s\n", l.Problem)
		}
		if len(l.Models) == 0 {
			fmt.Fprintf(w, "  no models in the catalog or config: name one with --model %s/MODEL\n", l.Name)
			continue
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  MODEL\tCONTEXT\tOUTPUT\tREASONING\tINPUT $/M\tOUTPUT $/M\tCACHE READ\tCACHE WRITE")
		for _, m := range l.Models {
			id := m.ID
			if id == l.DefaultModel {
				id += " *"
			}
			reasoning := "-"
			if m.Reasoning {
				reasoning = "yes"
				if m.ReasoningEffort != "" {
					reasoning += " (" + m.ReasoningEffort + ")"
				}
			}
			in, out, read, write := "-", "-", "-", "-"
			if p := m.Price; p != nil {
				in, out = dollars(p.Input), dollars(p.Output)
				read, write = dollars(p.CacheRead), dollars(p.CacheWrite)
				if p.CacheRead == 0 {
					read = "as input"
				}
				if p.CacheWrite == 0 {
					write = "as input"
				}
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", id, tokens(m.ContextWindow), tokens(m.MaxOutput), reasoning, in, out, read, write)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

func dollars(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// tokens is a token count in a few characters: 8192 → 8k, 1048576 → 1M.
func tokens(n int) string {
	switch {
	case n <= 0:
		return "-"
	case n >= 1_000_000 && n%1_000_000 < 100_000:
		return fmt.Sprintf("%dM", (n+500_000)/1_000_000)
	case n >= 1000:
		return fmt.Sprintf("%dk", (n+500)/1000)
	}
	return strconv.Itoa(n)
}

// KeyEnv names the environment variables that hold a provider's API key:
// those of every preset and of every [providers.NAME] table, sorted and
// once each. The sandbox keeps them all from commands, whichever provider
// is in use: a key a user set for one provider is still theirs when
// another one runs.
func KeyEnv(s Settings) []string {
	seen := map[string]bool{}
	var out []string
	for _, name := range s.names() {
		// A table that names its own variable does not make the preset's
		// any less a key.
		for _, v := range []string{presets[name].APIKeyEnv, s.Providers[name].APIKeyEnv} {
			if v != "" && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	sort.Strings(out)
	return out
}

package provider

import (
	_ "embed"
	"encoding/json"
	"sort"

	"github.com/quire-sh/quire/engine/event"
)

//go:generate go run ./internal/gencatalog -module charm.land/catwalk@v0.52.1 -o catalog.json

//go:embed catalog.json
var catalogJSON []byte

// Price is what a model costs in US dollars per million tokens. A cache
// price of 0 means the provider bills those tokens as plain input.
type Price struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cache_read,omitempty"`
	CacheWrite float64 `json:"cache_write,omitempty"`
}

// Model is what quire knows of a model.
type Model struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// ContextWindow and MaxOutput are in tokens; 0 when unknown.
	ContextWindow int `json:"context_window,omitempty"`
	MaxOutput     int `json:"max_output,omitempty"`
	// Reasoning reports a reasoning model; ReasoningEffort is the effort
	// asked of it ("" leaves it to the provider).
	Reasoning       bool   `json:"reasoning,omitempty"`
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
	// Price is nil when unknown.
	Price *Price `json:"price,omitempty"`
	// Known reports that the catalog or the config described the model.
	Known bool `json:"-"`
}

// Cost prices usage in US dollars; ok is false when the price is
// unknown.
func (m Model) Cost(u event.Usage) (usd float64, ok bool) {
	p := m.Price
	if p == nil {
		return 0, false
	}
	read, write := p.CacheRead, p.CacheWrite
	if read == 0 {
		read = p.Input
	}
	if write == 0 {
		write = p.Input
	}
	plain := max(u.PromptTokens-u.CacheReadTokens-u.CacheWriteTokens, 0)
	usd = float64(plain)*p.Input + float64(u.CacheReadTokens)*read + float64(u.CacheWriteTokens)*write + float64(u.CompletionTokens)*p.Output
	return usd / 1e6, true
}

// catalogSection is one provider's part of the catalog.
type catalogSection struct {
	DefaultModel string  `json:"default_model"`
	Models       []Model `json:"models"`
}

type catalogFile struct {
	Source    string                    `json:"source"`
	Providers map[string]catalogSection `json:"providers"`
}

// catalog is the embedded catalog, read once; it is never modified.
var catalog = func() catalogFile {
	var c catalogFile
	if err := json.Unmarshal(catalogJSON, &c); err != nil {
		panic("provider: the embedded catalog does not parse: " + err.Error())
	}
	for name, s := range c.Providers {
		for i := range s.Models {
			s.Models[i].Known = true
		}
		c.Providers[name] = s
	}
	return c
}()

// CatalogSource names the data the catalog was generated from.
func CatalogSource() string { return catalog.Source }

// lookup finds a model in a catalog section, then anywhere in the
// catalog (a gateway or proxy serving a model under its usual id).
func lookup(section, id string) (Model, bool) {
	for _, m := range catalog.Providers[section].Models {
		if m.ID == id {
			return m, true
		}
	}
	names := make([]string, 0, len(catalog.Providers))
	for n := range catalog.Providers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, m := range catalog.Providers[n].Models {
			if m.ID == id {
				return m, true
			}
		}
	}
	return Model{ID: id}, false
}

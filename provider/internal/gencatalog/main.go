// Command gencatalog writes quire's model catalog (provider/catalog.json)
// from the provider files of charm.land/catwalk, the catalog crush uses.
// It reads the module's JSON data through `go mod download`, so catwalk
// is not a dependency of quire and a newer catwalk's data can be taken
// without the Go version its code needs:
//
//	go run ./provider/internal/gencatalog -module charm.land/catwalk@v0.52.1 -o provider/catalog.json
//
// (`go generate ./provider` runs it with the pinned version.)
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// sections maps quire's preset names to catwalk's provider files.
var sections = map[string]string{
	"openai": "openai", "anthropic": "anthropic", "xai": "xai", "openrouter": "openrouter",
	"groq": "groq", "deepseek": "deepseek", "gemini": "gemini",
}

// catwalkModel is the part of catwalk's model record quire reads.
type catwalkModel struct {
	ID                     string  `json:"id"`
	Name                   string  `json:"name"`
	CostIn                 float64 `json:"cost_per_1m_in"`
	CostOut                float64 `json:"cost_per_1m_out"`
	CostInCached           float64 `json:"cost_per_1m_in_cached"`
	CostOutCached          float64 `json:"cost_per_1m_out_cached"`
	ContextWindow          int     `json:"context_window"`
	DefaultMaxTokens       int     `json:"default_max_tokens"`
	CanReason              bool    `json:"can_reason"`
	DefaultReasoningEffort string  `json:"default_reasoning_effort"`
}

type catwalkProvider struct {
	DefaultLargeModelID string         `json:"default_large_model_id"`
	Models              []catwalkModel `json:"models"`
}

// The catalog's own shapes; provider/catalog.go reads the same.
type (
	price struct {
		Input      float64 `json:"input"`
		Output     float64 `json:"output"`
		CacheRead  float64 `json:"cache_read,omitempty"`
		CacheWrite float64 `json:"cache_write,omitempty"`
	}
	model struct {
		ID              string `json:"id"`
		Name            string `json:"name,omitempty"`
		ContextWindow   int    `json:"context_window,omitempty"`
		MaxOutput       int    `json:"max_output,omitempty"`
		Reasoning       bool   `json:"reasoning,omitempty"`
		ReasoningEffort string `json:"reasoning_effort,omitempty"`
		Price           *price `json:"price,omitempty"`
	}
	section struct {
		DefaultModel string  `json:"default_model,omitempty"`
		Models       []model `json:"models"`
	}
	catalog struct {
		Source    string             `json:"source"`
		Providers map[string]section `json:"providers"`
	}
)

func main() {
	module := flag.String("module", "charm.land/catwalk@v0.52.1", "catwalk `module@version` to read")
	out := flag.String("o", "catalog.json", "`file` to write")
	flag.Parse()
	if err := run(*module, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
}

func run(module, out string) error {
	b, err := exec.Command("go", "mod", "download", "-json", module).Output()
	if err != nil {
		return fmt.Errorf("go mod download %s: %w", module, err)
	}
	var dl struct{ Dir, Error string }
	if err := json.Unmarshal(b, &dl); err != nil || dl.Dir == "" {
		return fmt.Errorf("go mod download %s: %s", module, dl.Error)
	}
	c := catalog{Source: module, Providers: map[string]section{}}
	for name, file := range sections {
		raw, err := os.ReadFile(filepath.Join(dl.Dir, "internal", "providers", "configs", file+".json"))
		if err != nil {
			return err
		}
		var p catwalkProvider
		if err := json.Unmarshal(raw, &p); err != nil {
			return fmt.Errorf("%s.json: %w", file, err)
		}
		s := section{DefaultModel: p.DefaultLargeModelID}
		for _, m := range p.Models {
			s.Models = append(s.Models, convert(m))
		}
		sort.Slice(s.Models, func(i, j int) bool { return s.Models[i].ID < s.Models[j].ID })
		c.Providers[name] = s
	}
	js, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(js, '\n'), 0o644)
}

// convert reads catwalk's prices, whose two cached fields are used
// inconsistently across providers: the cached price below the input
// price is the cache read, one above it the cache write. A model with
// no price at all has an unknown one, unless it is marked free.
func convert(m catwalkModel) model {
	out := model{ID: m.ID, Name: m.Name, ContextWindow: m.ContextWindow, MaxOutput: m.DefaultMaxTokens,
		Reasoning: m.CanReason, ReasoningEffort: m.DefaultReasoningEffort}
	if m.CostIn == 0 && m.CostOut == 0 && !strings.HasSuffix(m.ID, ":free") {
		return out
	}
	p := &price{Input: round(m.CostIn), Output: round(m.CostOut)}
	switch {
	case m.CostOutCached > 0 && m.CostOutCached < m.CostIn:
		p.CacheRead = round(m.CostOutCached)
	case m.CostInCached > 0 && m.CostInCached < m.CostIn:
		p.CacheRead = round(m.CostInCached)
	}
	if m.CostInCached > m.CostIn {
		p.CacheWrite = round(m.CostInCached)
	}
	out.Price = p
	return out
}

// round drops float noise (0.39999999999999997) from per-million prices.
func round(x float64) float64 { return math.Round(x*1e6) / 1e6 }

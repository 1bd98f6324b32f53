package provider

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/llm/anthropic"
	"github.com/quire-sh/quire/engine/llm/chat"
	"github.com/quire-sh/quire/engine/llm/responses"
)

// Settings are the configuration Resolve reads.
type Settings struct {
	// Provider names the provider (--provider, QUIRE_PROVIDER); empty
	// takes it from a NAME/ prefix of Model, or uses the default.
	Provider string
	// Model is the model (--model, QUIRE_MODEL), as MODEL or
	// PROVIDER/MODEL; empty takes the provider's default.
	Model string
	// BaseURL and APIKey are the settings from before named providers
	// (base_url, OPENAI_BASE_URL; api_key, OPENAI_API_KEY). With no
	// provider named, a BaseURL other than OpenAI's is an
	// OpenAI-compatible chat completions server; APIKey is its key, and
	// the openai provider's when its variable is unset.
	BaseURL string
	APIKey  string
	// ContextWindow, when set, is every model's window, over the catalog
	// and the per-model config.
	ContextWindow int
	// Providers are the [providers.NAME] tables of config.toml.
	Providers map[string]Config
	// Getenv reads the environment (the provider's key variable).
	Getenv func(string) string
}

const (
	// openAIURL is the default base_url: no custom server was named.
	openAIURL = "https://api.openai.com/v1"
	// Compatible names the provider of a base_url set without a provider:
	// an OpenAI-compatible chat completions server.
	Compatible = "openai-compatible"
	// defaultOutputCap bounds the output limit asked of a model whose
	// limit comes from the catalog and whose protocol requires one
	// (Anthropic's max_tokens): a catalog's largest limit would leave the
	// prompt little of the window.
	defaultOutputCap = 32000
)

// Resolved is a provider and model ready to talk to.
type Resolved struct {
	// Name is the provider's name; Config its settings, preset and
	// config merged.
	Name   string
	Config Config
	// Model is the model with what the catalog and the config say of it.
	Model  Model
	APIKey string
	// outputSet reports that the config set the model's output limit.
	outputSet bool
}

// names returns every provider the settings know, sorted.
func (s Settings) names() []string {
	seen := map[string]bool{}
	for n := range presets {
		seen[n] = true
	}
	for n := range s.Providers {
		seen[n] = true
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (s Settings) known(name string) bool {
	_, preset := presets[name]
	_, configured := s.Providers[name]
	return preset || configured
}

// SplitModel reads a model argument: NAME/MODEL when NAME is a known
// provider, else a model of the current provider (provider "").
func SplitModel(arg string, s Settings) (provider, model string) {
	if i := strings.IndexByte(arg, '/'); i > 0 && s.known(arg[:i]) {
		return arg[:i], arg[i+1:]
	}
	return "", arg
}

// Resolve picks the provider and model the settings name and checks that
// they can be used: the provider exists and is complete, its key is set,
// a model is named or defaulted.
func Resolve(s Settings) (Resolved, error) {
	getenv := s.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	name, model := s.Provider, s.Model
	switch {
	case name != "":
		if !s.known(name) {
			return Resolved{}, fmt.Errorf("unknown provider %q (known: %s; add a [providers.%s] table to config.toml)", name, strings.Join(s.names(), ", "), name)
		}
		model = strings.TrimPrefix(model, name+"/")
	default:
		if p, m := SplitModel(model, s); p != "" {
			name, model = p, m
		}
	}
	var cfg Config
	switch {
	case name != "":
		cfg = merge(presets[name], s.Providers[name])
	case s.BaseURL != "" && strings.TrimRight(s.BaseURL, "/") != openAIURL:
		name, cfg = Compatible, Config{Type: TypeOpenAI, BaseURL: s.BaseURL}
	default:
		name = "openai"
		cfg = merge(presets[name], s.Providers[name])
	}
	if err := check(name, cfg); err != nil {
		return Resolved{}, err
	}
	r := Resolved{Name: name, Config: cfg}
	if cfg.APIKeyEnv != "" {
		r.APIKey = getenv(cfg.APIKeyEnv)
	}
	if r.APIKey == "" && (name == Compatible || name == "openai") {
		r.APIKey = s.APIKey
	}
	if r.APIKey == "" && cfg.APIKeyEnv != "" {
		return Resolved{}, fmt.Errorf("no API key for provider %s: set %s", name, cfg.APIKeyEnv)
	}
	section := cfg.Catalog
	if section == "" {
		section = name
	}
	if model == "" {
		model = cfg.DefaultModel
	}
	if model == "" {
		model = catalog.Providers[section].DefaultModel
	}
	if model == "" {
		return Resolved{}, fmt.Errorf("no model for provider %s: pass --model %s/MODEL or set model in config.toml (`quire models` lists what is configured)", name, name)
	}
	r.Model, _ = lookup(section, model)
	r.Model.ID = model
	if mc, ok := cfg.Models[model]; ok {
		r.Model = override(r.Model, mc)
		r.outputSet = mc.MaxOutput > 0
	}
	if s.ContextWindow > 0 {
		r.Model.ContextWindow = s.ContextWindow
	}
	return r, nil
}

// check refuses a provider that cannot be used.
func check(name string, c Config) error {
	switch c.Type {
	case TypeOpenAI, TypeResponses, TypeAnthropic:
	case "":
		return fmt.Errorf("provider %s has no type: set type = \"openai\", \"responses\" or \"anthropic\" in [providers.%s]", name, name)
	default:
		return fmt.Errorf("provider %s: type %q is not openai, responses or anthropic", name, c.Type)
	}
	if c.BaseURL == "" {
		return fmt.Errorf("provider %s has no base_url: set it in [providers.%s] (the API root, e.g. http://localhost:11434/v1)", name, name)
	}
	if !strings.HasPrefix(c.BaseURL, "http://") && !strings.HasPrefix(c.BaseURL, "https://") {
		return fmt.Errorf("provider %s: base_url %q is not an http:// or https:// URL", name, c.BaseURL)
	}
	if strings.Contains(name, "/") || name == "" {
		return fmt.Errorf("provider name %q: a name cannot be empty or contain /", name)
	}
	return nil
}

// override lays the config's say about a model over the catalog's.
func override(m Model, mc ModelConfig) Model {
	m.Known = true
	if mc.ContextWindow > 0 {
		m.ContextWindow = mc.ContextWindow
	}
	if mc.MaxOutput > 0 {
		m.MaxOutput = mc.MaxOutput
	}
	if mc.Reasoning != nil {
		m.Reasoning = *mc.Reasoning
	}
	if mc.ReasoningEffort != "" {
		m.ReasoningEffort = mc.ReasoningEffort
	}
	if mc.InputPrice != nil || mc.OutputPrice != nil || mc.CacheReadPrice != nil || mc.CacheWritePrice != nil {
		p := Price{}
		if m.Price != nil {
			p = *m.Price
		}
		set := func(dst *float64, v *float64) {
			if v != nil {
				*dst = *v
			}
		}
		set(&p.Input, mc.InputPrice)
		set(&p.Output, mc.OutputPrice)
		set(&p.CacheRead, mc.CacheReadPrice)
		set(&p.CacheWrite, mc.CacheWritePrice)
		m.Price = &p
	}
	return m
}

// Label is provider/model, as the user names it.
func (r Resolved) Label() string { return r.Name + "/" + r.Model.ID }

// ContextWindow is the model's window in tokens, 0 when unknown.
func (r Resolved) ContextWindow() int { return r.Model.ContextWindow }

// Sampler streams answers from a model.
type Sampler interface {
	Stream(ctx context.Context, req llm.Request, h llm.Handler) (llm.Response, error)
}

// Sampler returns the client of the provider's protocol, over a transport
// configured by tc. Its errors end with advice naming this provider.
func (r Resolved) Sampler(tc llm.TransportConfig) Sampler {
	if tc.Hints == nil {
		tc.Hints = map[llm.Kind]string{}
		for _, k := range []llm.Kind{llm.KindAuth, llm.KindModelNotFound, llm.KindNetwork, llm.KindEndpoint} {
			tc.Hints[k] = r.hint(k)
		}
	}
	h := http.Header{}
	for k, v := range r.Config.Headers {
		h.Set(k, v)
	}
	var s Sampler
	switch r.Config.Type {
	case TypeResponses:
		s = responses.New(responses.Config{BaseURL: r.Config.BaseURL, APIKey: r.APIKey, Header: h,
			Reasoning: r.Model.Reasoning, ReasoningEffort: r.Model.ReasoningEffort, TransportConfig: tc})
	case TypeAnthropic:
		out := r.Model.MaxOutput
		if !r.outputSet && (out == 0 || out > defaultOutputCap) {
			out = min(max(out, anthropic.DefaultMaxTokens), defaultOutputCap)
		}
		budget := 0
		if r.Model.Reasoning {
			budget = thinkingBudget(r.Model.ReasoningEffort)
		}
		s = anthropic.New(anthropic.Config{BaseURL: r.Config.BaseURL, APIKey: r.APIKey, Header: h,
			MaxTokens: out, ThinkingBudget: budget, TransportConfig: tc})
	default:
		cc := chat.Config{BaseURL: r.Config.BaseURL, APIKey: r.APIKey, Header: h, TransportConfig: tc}
		if send := r.Config.SendReasoning; send != nil {
			replay := chat.ReplayNever
			if *send {
				replay = chat.ReplayToolExchanges
			}
			cc.ReplayReasoning = func(string) chat.Replay { return replay }
		}
		s = chat.New(cc)
	}
	return s
}

// thinkingBudget is the thinking budget for a reasoning effort.
func thinkingBudget(effort string) int {
	switch effort {
	case "low", "minimal":
		return 4096
	case "high":
		return 16384
	case "xhigh", "max":
		return 24576
	}
	return 8192
}

// protocolNames are what each type speaks, for messages.
var protocolNames = map[string]string{
	TypeOpenAI:    "OpenAI chat completions",
	TypeResponses: "the OpenAI Responses API",
	TypeAnthropic: "the Anthropic Messages API",
}

// hint is what the user can do about an error of kind.
func (r Resolved) hint(kind llm.Kind) string {
	table := "[providers." + r.Name + "]"
	switch kind {
	case llm.KindAuth:
		if r.Config.APIKeyEnv != "" {
			return "check " + r.Config.APIKeyEnv
		}
		if r.Name == Compatible {
			return "check OPENAI_API_KEY"
		}
		return "the server wants a key: set api_key_env in " + table
	case llm.KindModelNotFound:
		return fmt.Sprintf("provider %s has no model %q; `quire models` lists what is configured", r.Name, r.Model.ID)
	case llm.KindNetwork:
		return fmt.Sprintf("is the server of provider %s at %s running?", r.Name, r.Config.BaseURL)
	case llm.KindEndpoint:
		where := "type and base_url in " + table
		if r.Name == Compatible {
			where = "OPENAI_BASE_URL, or name a provider of another type"
		}
		return fmt.Sprintf("provider %s at %s is set to speak %s; check %s", r.Name, r.Config.BaseURL, protocolNames[r.Config.Type], where)
	}
	return ""
}

// Keeps reports whether reasoning state st is sent to this provider's
// model: only its own protocol's, written by the same model.
func (r Resolved) Keeps(st llm.ReasoningState) bool {
	switch r.Config.Type {
	case TypeResponses:
		return responses.Keeps(r.Model.ID, st)
	case TypeAnthropic:
		return anthropic.Keeps(r.Model.ID, st)
	}
	return false
}

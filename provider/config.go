package provider

import (
	"fmt"
	"sort"
)

// Protocol types a provider can speak.
const (
	TypeOpenAI    = "openai"    // chat completions
	TypeResponses = "responses" // the OpenAI Responses API
	TypeAnthropic = "anthropic" // the Anthropic Messages API
)

// Config is one [providers.NAME] table of config.toml, as the config
// reader decodes it. For a preset's name it changes only what it sets.
type Config struct {
	// Type is the protocol: openai (chat completions), responses or
	// anthropic.
	Type string `toml:"type" json:"type,omitempty"`
	// BaseURL is the API root, e.g. https://api.anthropic.com or
	// http://localhost:11434/v1.
	BaseURL string `toml:"base_url" json:"base_url,omitempty"`
	// APIKeyEnv names the environment variable holding the key; empty for
	// a server that needs none.
	APIKeyEnv string `toml:"api_key_env" json:"api_key_env,omitempty"`
	// Headers are sent with every request.
	Headers map[string]string `toml:"headers" json:"headers,omitempty"`
	// Models lists the provider's models, each with what the config says
	// of it (overriding the catalog).
	Models Models `toml:"models" json:"models,omitempty"`
	// DefaultModel is used when no model is named.
	DefaultModel string `toml:"default_model" json:"default_model,omitempty"`
	// Catalog names the catalog section its models are looked up in
	// (default: the provider's own name).
	Catalog string `toml:"catalog" json:"catalog,omitempty"`
	// SendReasoning says whether the provider wants an assistant
	// message's reasoning text sent back with it on tool-call turns
	// (DeepSeek's reasoning_content in thinking mode); chat completions
	// only. Unset, the chat client's own rule decides (chat.DefaultReplay).
	SendReasoning *bool `toml:"send_reasoning" json:"send_reasoning,omitempty"`
}

// ModelConfig is what the config says of one model; zero fields leave
// the catalog's value.
type ModelConfig struct {
	ContextWindow   int      `toml:"context_window" json:"context_window,omitempty"`
	MaxOutput       int      `toml:"max_output" json:"max_output,omitempty"`
	Reasoning       *bool    `toml:"reasoning" json:"reasoning,omitempty"`
	ReasoningEffort string   `toml:"reasoning_effort" json:"reasoning_effort,omitempty"`
	InputPrice      *float64 `toml:"input_price" json:"input_price,omitempty"`
	OutputPrice     *float64 `toml:"output_price" json:"output_price,omitempty"`
	CacheReadPrice  *float64 `toml:"cache_read_price" json:"cache_read_price,omitempty"`
	CacheWritePrice *float64 `toml:"cache_write_price" json:"cache_write_price,omitempty"`
}

// Models are a provider's models by id. In config.toml they are a list
// of ids (models = ["qwen3:32b"]) or tables ([providers.x.models."id"]
// with a ModelConfig's keys).
type Models map[string]ModelConfig

// UnmarshalTOML reads either form.
func (m *Models) UnmarshalTOML(v any) error {
	out := Models{}
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			id, ok := x.(string)
			if !ok {
				return fmt.Errorf("models: %v is not a model name", x)
			}
			out[id] = ModelConfig{}
		}
	case map[string]any:
		for id, x := range v {
			t, ok := x.(map[string]any)
			if !ok {
				return fmt.Errorf("models.%q: want a table of settings", id)
			}
			mc, err := modelConfig(t)
			if err != nil {
				return fmt.Errorf("models.%q: %w", id, err)
			}
			out[id] = mc
		}
	default:
		return fmt.Errorf("models: want a list of names or tables by name, not %T", v)
	}
	*m = out
	return nil
}

func modelConfig(t map[string]any) (ModelConfig, error) {
	var mc ModelConfig
	num := func(k string, v any) (float64, error) {
		switch n := v.(type) {
		case int64:
			return float64(n), nil
		case float64:
			return n, nil
		}
		return 0, fmt.Errorf("%s: %v is not a number", k, v)
	}
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := t[k]
		switch k {
		case "context_window", "max_output":
			n, ok := v.(int64)
			if !ok || n <= 0 {
				return mc, fmt.Errorf("%s: %v is not a positive whole number", k, v)
			}
			if k == "context_window" {
				mc.ContextWindow = int(n)
			} else {
				mc.MaxOutput = int(n)
			}
		case "reasoning":
			b, ok := v.(bool)
			if !ok {
				return mc, fmt.Errorf("reasoning: %v is not true or false", v)
			}
			mc.Reasoning = &b
		case "reasoning_effort":
			s, ok := v.(string)
			if !ok {
				return mc, fmt.Errorf("reasoning_effort: %v is not a string", v)
			}
			mc.ReasoningEffort = s
		case "input_price", "output_price", "cache_read_price", "cache_write_price":
			x, err := num(k, v)
			if err != nil {
				return mc, err
			}
			if x < 0 {
				return mc, fmt.Errorf("%s: a price cannot be negative", k)
			}
			switch k {
			case "input_price":
				mc.InputPrice = &x
			case "output_price":
				mc.OutputPrice = &x
			case "cache_read_price":
				mc.CacheReadPrice = &x
			default:
				mc.CacheWritePrice = &x
			}
		default:
			return mc, fmt.Errorf("unknown setting %q (context_window, max_output, reasoning, reasoning_effort, input_price, output_price, cache_read_price, cache_write_price)", k)
		}
	}
	return mc, nil
}

// presets are the built-in providers. A [providers.NAME] table of the
// same name changes what it sets.
var presets = map[string]Config{
	"openai":     {Type: TypeResponses, BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY"},
	"anthropic":  {Type: TypeAnthropic, BaseURL: "https://api.anthropic.com", APIKeyEnv: "ANTHROPIC_API_KEY"},
	"xai":        {Type: TypeOpenAI, BaseURL: "https://api.x.ai/v1", APIKeyEnv: "XAI_API_KEY"},
	"openrouter": {Type: TypeOpenAI, BaseURL: "https://openrouter.ai/api/v1", APIKeyEnv: "OPENROUTER_API_KEY"},
	"groq":       {Type: TypeOpenAI, BaseURL: "https://api.groq.com/openai/v1", APIKeyEnv: "GROQ_API_KEY"},
	"deepseek":   {Type: TypeOpenAI, BaseURL: "https://api.deepseek.com/v1", APIKeyEnv: "DEEPSEEK_API_KEY", SendReasoning: ptr(true)},
	"gemini":     {Type: TypeOpenAI, BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai", APIKeyEnv: "GEMINI_API_KEY"},
	"ollama":     {Type: TypeOpenAI, BaseURL: "http://localhost:11434/v1"},
	"llamacpp":   {Type: TypeOpenAI, BaseURL: "http://localhost:8080/v1"},
	"vllm":       {Type: TypeOpenAI, BaseURL: "http://localhost:8000/v1"},
}

func ptr[T any](v T) *T { return &v }

// Presets returns the built-in providers' names, sorted.
func Presets() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// merge lays c over base: what c sets wins; headers and models merge.
func merge(base, c Config) Config {
	out := base
	if c.Type != "" {
		out.Type = c.Type
	}
	if c.BaseURL != "" {
		out.BaseURL = c.BaseURL
	}
	if c.APIKeyEnv != "" {
		out.APIKeyEnv = c.APIKeyEnv
	}
	if c.DefaultModel != "" {
		out.DefaultModel = c.DefaultModel
	}
	if c.Catalog != "" {
		out.Catalog = c.Catalog
	}
	if c.SendReasoning != nil {
		out.SendReasoning = c.SendReasoning
	}
	if len(c.Headers) > 0 {
		h := map[string]string{}
		for k, v := range base.Headers {
			h[k] = v
		}
		for k, v := range c.Headers {
			h[k] = v
		}
		out.Headers = h
	}
	if len(c.Models) > 0 {
		m := Models{}
		for k, v := range base.Models {
			m[k] = v
		}
		for k, v := range c.Models {
			m[k] = v
		}
		out.Models = m
	}
	return out
}

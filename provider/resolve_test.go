package provider

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/testserver"
)

func env(vars ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(vars); i += 2 {
		m[vars[i]] = vars[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestResolve(t *testing.T) {
	keys := env("OPENAI_API_KEY", "o", "ANTHROPIC_API_KEY", "a", "OPENROUTER_API_KEY", "r", "WORK_KEY", "w")
	work := map[string]Config{"work": {Type: TypeAnthropic, BaseURL: "https://llm.example.com", APIKeyEnv: "WORK_KEY", Catalog: "anthropic",
		Models: Models{"claude-sonnet-4-6": {ContextWindow: 150_000}}}}
	tests := []struct {
		name string
		s    Settings
		want string // provider/model and type
		err  string
	}{
		{"nothing named: OpenAI over the Responses API", Settings{}, "openai/gpt-5.6-sol responses", ""},
		{"a model of the default provider", Settings{Model: "gpt-5"}, "openai/gpt-5 responses", ""},
		{"NAME/MODEL", Settings{Model: "anthropic/claude-sonnet-4-6"}, "anthropic/claude-sonnet-4-6 anthropic", ""},
		{"--provider with a model that has a slash", Settings{Provider: "openrouter", Model: "anthropic/claude-sonnet-4.6"}, "openrouter/anthropic/claude-sonnet-4.6 openai", ""},
		{"--provider and its own prefix", Settings{Provider: "anthropic", Model: "anthropic/claude-x"}, "anthropic/claude-x anthropic", ""},
		{"a provider's default model", Settings{Provider: "anthropic"}, "anthropic/claude-sonnet-4-6 anthropic", ""},
		{"the legacy base_url is a chat server", Settings{BaseURL: "http://localhost:11434/v1", Model: "llama3"}, "openai-compatible/llama3 openai", ""},
		{"OpenAI's own base_url is the preset", Settings{BaseURL: "https://api.openai.com/v1/", Model: "gpt-5"}, "openai/gpt-5 responses", ""},
		{"a configured provider", Settings{Model: "work/claude-sonnet-4-6", Providers: work}, "work/claude-sonnet-4-6 anthropic", ""},
		{"a local preset needs no key", Settings{Model: "ollama/qwen3:32b"}, "ollama/qwen3:32b openai", ""},
		{"unknown provider", Settings{Provider: "antropic"}, "", `unknown provider "antropic" (known: anthropic, deepseek`},
		{"missing key", Settings{Provider: "groq", Model: "x"}, "", "no API key for provider groq: set GROQ_API_KEY"},
		{"no model for a local server", Settings{Provider: "ollama"}, "", "no model for provider ollama: pass --model ollama/MODEL"},
		{"a table without a type", Settings{Provider: "mine", Providers: map[string]Config{"mine": {BaseURL: "http://x"}}}, "", "provider mine has no type"},
		{"a table with a bad type", Settings{Provider: "mine", Providers: map[string]Config{"mine": {Type: "gemini", BaseURL: "http://x"}}}, "", `type "gemini" is not`},
		{"a table without a base_url", Settings{Provider: "mine", Providers: map[string]Config{"mine": {Type: "openai"}}}, "", "has no base_url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.s.Getenv = keys
			r, err := Resolve(tt.s)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Label() + " " + r.Config.Type; got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestModelInfo(t *testing.T) {
	keys := env("ANTHROPIC_API_KEY", "a", "OPENAI_API_KEY", "o")
	r, err := Resolve(Settings{Model: "anthropic/claude-sonnet-4-6", Getenv: keys})
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Model; !m.Known || m.ContextWindow != 200_000 || !m.Reasoning || m.Price == nil || m.Price.CacheWrite != 3.75 {
		t.Fatalf("catalog entry %+v", m)
	}
	// The config overrides the catalog; an explicit window for every
	// model overrides both.
	cfg := map[string]Config{"anthropic": {Models: Models{"claude-sonnet-4-6": {ContextWindow: 100_000, InputPrice: ptr(2.0)}}}}
	r, _ = Resolve(Settings{Model: "anthropic/claude-sonnet-4-6", Providers: cfg, Getenv: keys})
	if r.Model.ContextWindow != 100_000 || r.Model.Price.Input != 2 || r.Model.Price.Output != 15 {
		t.Fatalf("overridden %+v %+v", r.Model, r.Model.Price)
	}
	r, _ = Resolve(Settings{Model: "anthropic/claude-sonnet-4-6", Providers: cfg, ContextWindow: 50_000, Getenv: keys})
	if r.ContextWindow() != 50_000 {
		t.Fatalf("window %d", r.ContextWindow())
	}
	// A model the catalog does not know has no price and no window.
	r, _ = Resolve(Settings{Model: "gpt-nope", Getenv: keys})
	if _, ok := r.Model.Cost(event.Usage{PromptTokens: 10}); ok || r.Model.Known || r.ContextWindow() != 0 {
		t.Fatalf("unknown model %+v", r.Model)
	}
}

func TestCost(t *testing.T) {
	m := Model{Price: &Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}}
	// 1M prompt tokens of which 600k read from the cache and 100k
	// written to it; 10k out.
	got, ok := m.Cost(event.Usage{PromptTokens: 1_000_000, CacheReadTokens: 600_000, CacheWriteTokens: 100_000, CompletionTokens: 10_000})
	want := 0.3*3 + 0.6*0.3 + 0.1*3.75 + 0.01*15
	if !ok || math.Abs(got-want) > 1e-9 {
		t.Fatalf("cost %v, want %v", got, want)
	}
	// Without a cache price, cached tokens cost what input does.
	m = Model{Price: &Price{Input: 2, Output: 8}}
	if got, _ := m.Cost(event.Usage{PromptTokens: 1_000_000, CacheReadTokens: 500_000}); got != 2 {
		t.Fatalf("cost %v", got)
	}
}

func TestModelsFromTOML(t *testing.T) {
	var f struct {
		Providers map[string]Config `toml:"providers"`
	}
	_, err := toml.Decode(`
[providers.local]
type = "openai"
base_url = "http://localhost:8080/v1"
models = ["qwen3:32b", "gpt-oss:20b"]

[providers.work]
type = "anthropic"
base_url = "https://llm.example.com"
api_key_env = "WORK_KEY"
headers = { "x-team" = "quire" }

[providers.work.models."claude-sonnet-4-6"]
context_window = 150000
input_price = 3
output_price = 15.5
reasoning = true
`, &f)
	if err != nil {
		t.Fatal(err)
	}
	local, work := f.Providers["local"], f.Providers["work"]
	if len(local.Models) != 2 || work.Headers["x-team"] != "quire" {
		t.Fatalf("decoded %+v", f.Providers)
	}
	mc := work.Models["claude-sonnet-4-6"]
	if mc.ContextWindow != 150000 || *mc.InputPrice != 3 || *mc.OutputPrice != 15.5 || !*mc.Reasoning {
		t.Fatalf("model config %+v", mc)
	}
	_, err = toml.Decode("[providers.x.models.m]\ncontext_windo = 5\n", &f)
	if err == nil || !strings.Contains(err.Error(), `unknown setting "context_windo"`) {
		t.Fatalf("typo: %v", err)
	}
}

// Errors name the provider's own key variable and, for a URL that
// speaks another protocol, the provider, its URL and what it was set to
// speak.
func TestErrorAdvice(t *testing.T) {
	srv, err := testserver.Start(testserver.Script{APIKey: "right", Responses: []testserver.Response{testserver.Text("x")}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	req := llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}
	cfg := map[string]Config{"proxy": {Type: TypeAnthropic, BaseURL: srv.URL() + "/chat", APIKeyEnv: "PROXY_KEY"}}
	r, err := Resolve(Settings{Model: "proxy/m", Providers: cfg, Getenv: env("PROXY_KEY", "wrong")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Sampler(llm.TransportConfig{}).Stream(context.Background(), req, llm.Handler{})
	if msg := err.Error(); llm.KindOf(err) != llm.KindEndpoint || !strings.Contains(msg, "provider proxy at "+srv.URL()+"/chat") || !strings.Contains(msg, "Anthropic Messages API") || strings.Contains(msg, "\n") {
		t.Fatalf("endpoint error: %v", err)
	}
	cfg["proxy"] = Config{Type: TypeAnthropic, BaseURL: srv.Root(), APIKeyEnv: "PROXY_KEY"}
	r, _ = Resolve(Settings{Model: "proxy/m", Providers: cfg, Getenv: env("PROXY_KEY", "wrong")})
	_, err = r.Sampler(llm.TransportConfig{}).Stream(context.Background(), req, llm.Handler{})
	if msg := err.Error(); llm.KindOf(err) != llm.KindAuth || !strings.Contains(msg, "check PROXY_KEY") || strings.Contains(msg, "OPENAI") {
		t.Fatalf("auth error: %v", err)
	}
}

func TestReasoningNotice(t *testing.T) {
	state := func(protocol, model string) []llm.ReasoningState {
		data, _ := json.Marshal(map[string]any{"model": model, "block": map[string]string{"type": "thinking", "thinking": "t", "signature": "s"}})
		return []llm.ReasoningState{{Protocol: protocol, Data: data}}
	}
	history := []engine.Message{
		{Role: engine.RoleUser, Content: "a"},
		{Role: engine.RoleAssistant, State: state("anthropic", "claude-x")},
		{Role: engine.RoleAssistant, State: state("anthropic", "claude-x")},
		{Role: engine.RoleAssistant, State: state("anthropic", "claude-y")},
	}
	keys := env("ANTHROPIC_API_KEY", "a", "OPENAI_API_KEY", "o")
	r, _ := Resolve(Settings{Model: "openai/gpt-5", Getenv: keys})
	got := r.ReasoningNotice(engine.ReasoningStates(history))
	if got != "reasoning of 1 earlier anthropic claude-y answer and 2 earlier anthropic claude-x answers is not sent to openai/gpt-5: it cannot read it" {
		t.Fatalf("notice %q", got)
	}
	r, _ = Resolve(Settings{Model: "anthropic/claude-x", Getenv: keys})
	if got := r.ReasoningNotice(engine.ReasoningStates(history)); !strings.Contains(got, "1 earlier anthropic claude-y answer is") {
		t.Fatalf("same protocol, other model: %q", got)
	}
	if got := r.ReasoningNotice(engine.ReasoningStates(history[:3])); got != "" {
		t.Fatalf("nothing dropped: %q", got)
	}
}

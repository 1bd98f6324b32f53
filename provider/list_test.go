package provider

import (
	"slices"
	"strings"
	"testing"
)

func TestListing(t *testing.T) {
	s := Settings{Model: "anthropic/claude-sonnet-4-6", Getenv: env("ANTHROPIC_API_KEY", "a"),
		Providers: map[string]Config{"local": {Type: TypeOpenAI, BaseURL: "http://localhost:8080/v1", Models: Models{"qwen3:32b": {ContextWindow: 32768}}}}}
	ls := List(s)
	byName := map[string]Listing{}
	for _, l := range ls {
		byName[l.Name] = l
	}
	if len(ls) != len(presets)+1 || !byName["anthropic"].Current || !byName["anthropic"].KeySet || byName["groq"].KeySet || !byName["ollama"].KeySet {
		t.Fatalf("listings %+v", ls)
	}
	var b strings.Builder
	if err := WriteTable(&b, ls); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"anthropic *  (anthropic, ANTHROPIC_API_KEY is set)  https://api.anthropic.com",
		"groq  (openai, GROQ_API_KEY is not set)",
		"ollama  (openai, no key needed)  http://localhost:11434/v1",
		"no models in the catalog or config: name one with --model ollama/MODEL",
		"  qwen3:32b ", "33k",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q", want)
		}
	}
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  claude-sonnet-4-6 *") {
			line = strings.Join(strings.Fields(l), " ")
		}
	}
	if line != "claude-sonnet-4-6 * 200k 128k yes (high) 3 15 0.3 3.75" {
		t.Errorf("claude line %q", line)
	}
}

func TestKeyEnvNamesEveryProvidersKeyOnce(t *testing.T) {
	s := Settings{Providers: map[string]Config{
		"gw":     {Type: TypeOpenAI, BaseURL: "http://gw.example/v1", APIKeyEnv: "GATEWAYVAR"},
		"local":  {Type: TypeOpenAI, BaseURL: "http://localhost:8080/v1"},
		"groq":   {APIKeyEnv: "MY_GROQ"},
		"openai": {APIKeyEnv: "OPENAI_API_KEY"},
	}}
	got := KeyEnv(s)
	for _, want := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GATEWAYVAR", "MY_GROQ", "GROQ_API_KEY", "XAI_API_KEY"} {
		if !slices.Contains(got, want) {
			t.Errorf("KeyEnv = %v, no %s", got, want)
		}
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Errorf("KeyEnv = %v, want sorted and once each", got)
	}
}

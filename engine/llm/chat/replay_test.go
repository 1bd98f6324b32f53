package chat

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/testserver"
)

func TestDefaultReplay(t *testing.T) {
	tests := []struct {
		base, model string
		want        Replay
	}{
		{"https://api.deepseek.com", "deepseek-chat", ReplayToolExchanges},
		{"https://api.deepseek.com/v1", "deepseek-reasoner", ReplayToolExchanges},
		{"https://openrouter.ai/api/v1", "deepseek/deepseek-v3.2", ReplayToolExchanges},
		{"http://localhost:8000/v1", "deepseek-v4-pro", ReplayToolExchanges},
		{"https://openrouter.ai/api/v1", "deepseek/deepseek-reasoner", ReplayToolExchanges},
		{"https://api.groq.com/openai/v1", "deepseek-r1-distill-llama-70b", ReplayNever},
		{"https://api.openai.com/v1", "gpt-5", ReplayNever},
		{"https://api.mistral.ai/v1", "magistral-medium-latest", ReplayNever},
		{"http://localhost:11434/v1", "deepseek-coder", ReplayNever},
		{"https://notdeepseek.com.evil.example/v1", "gpt-4o", ReplayNever},
	}
	for _, tt := range tests {
		if got := DefaultReplay(tt.base, tt.model); got != tt.want {
			t.Errorf("%s %s: %v, want %v", tt.base, tt.model, got, tt.want)
		}
	}
}

// conversation is two exchanges with tool calls around one without.
func conversation() []llm.Message {
	return []llm.Message{
		{Role: llm.RoleUser, Content: "read a"},
		{Role: llm.RoleAssistant, Reasoning: "I should read a.", Calls: []llm.ToolCall{{ID: "c1", Name: "read", Arguments: "{}"}}},
		{Role: llm.RoleTool, CallID: "c1", Content: "a says hi"},
		{Role: llm.RoleAssistant, Reasoning: "It says hi.", Content: "a says hi"},
		{Role: llm.RoleUser, Content: "thanks"},
		{Role: llm.RoleAssistant, Reasoning: "Polite reply.", Content: "you're welcome"},
		{Role: llm.RoleUser, Content: "now b"},
		{Role: llm.RoleAssistant, Reasoning: "Read b.", Calls: []llm.ToolCall{{ID: "c2", Name: "read", Arguments: "{}"}}},
		{Role: llm.RoleTool, CallID: "c2", Content: "b"},
	}
}

func TestReasoningGoesBackWhereTheRuleSays(t *testing.T) {
	tests := []struct {
		name  string
		cfg   func(c *Config)
		model string
		want  []string // reasoning_content of the assistant messages, in order
	}{
		{"never by default", nil, "m", []string{"", "", "", ""}},
		{"deepseek by model name", nil, "deepseek-reasoner", []string{"I should read a.", "It says hi.", "", "Read b."}},
		{"a provider's own rule", func(c *Config) {
			c.ReplayReasoning = func(model string) Replay { return ReplayAlways }
		}, "kimi-k2-thinking", []string{"I should read a.", "It says hi.", "Polite reply.", "Read b."}},
		{"a provider that turns it off", func(c *Config) {
			c.ReplayReasoning = func(string) Replay { return ReplayNever }
		}, "deepseek-reasoner", []string{"", "", "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, testserver.Script{Responses: []testserver.Response{testserver.Text("ok")}})
			req := llm.Request{Model: tt.model, Messages: conversation()}
			if _, err := client(srv, nil, tt.cfg).Stream(context.Background(), req, llm.Handler{}); err != nil {
				t.Fatal(err)
			}
			got := srv.Requests()[0]
			var sent []string
			for _, m := range got.Messages {
				if m.Role == "assistant" {
					sent = append(sent, m.ReasoningContent)
				}
			}
			if len(sent) != len(tt.want) {
				t.Fatalf("assistant messages %q", sent)
			}
			for i := range sent {
				if sent[i] != tt.want[i] {
					t.Errorf("assistant message %d: %q, want %q", i, sent[i], tt.want[i])
				}
			}
			// Where the rule says never, the field is absent, not empty.
			var raw struct {
				Messages []map[string]json.RawMessage `json:"messages"`
			}
			json.Unmarshal(got.Body, &raw)
			for i, m := range raw.Messages {
				if _, ok := m["reasoning_content"]; ok && tt.want[0] == "" {
					t.Errorf("message %d carries reasoning_content: %s", i, m["reasoning_content"])
				}
			}
		})
	}
}

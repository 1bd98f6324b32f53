package chat

import (
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"

	"github.com/quire-sh/quire/engine/llm"
)

// Whole reads a non-streamed chat completion: its text arrives in one
// piece.
func (a *assembler) Whole(b []byte) (llm.Delta, error) {
	var r struct {
		Choices []struct {
			Message struct {
				Content          string            `json:"content"`
				ReasoningContent string            `json:"reasoning_content"`
				Reasoning        json.RawMessage   `json:"reasoning"`
				ToolCalls        []openai.ToolCall `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage *openai.Usage `json:"usage"`
	}
	if err := json.Unmarshal(b, &r); err != nil || len(r.Choices) == 0 {
		return llm.Delta{}, &llm.Error{Kind: llm.KindStream, Detail: "the server sent a response that is not a chat completion: " + llm.Clip(string(b), 80), Err: err}
	}
	ch := r.Choices[0]
	text, inline := a.think.feed(ch.Message.Content)
	d := llm.Delta{Text: text, Reasoning: ch.Message.ReasoningContent + reasoningText(ch.Message.Reasoning) + inline}
	a.text, a.reasoning = []byte(d.Text), []byte(d.Reasoning)
	for _, tc := range ch.Message.ToolCalls {
		tc.Index = nil
		a.addCall(tc)
	}
	a.finish = ch.FinishReason
	if u := r.Usage; u != nil {
		a.usage = &llm.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	}
	rest := a.flush()
	d.Text += rest.Text
	d.Reasoning += rest.Reasoning
	return d, nil
}

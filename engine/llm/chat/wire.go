package chat

import (
	openai "github.com/sashabaranov/go-openai"

	"github.com/quire-sh/quire/engine/llm"
)

// noOutput stands in for an empty tool result: some servers reject a tool
// message without content.
const noOutput = "(no output)"

// wireMessages turns a request's conversation into the message list of a
// chat completion, led by the system prompt; the reasoning of the
// assistant messages the replay rule names goes back with them.
func wireMessages(system string, msgs []llm.Message, replay Replay) []openai.ChatCompletionMessage {
	out := make([]openai.ChatCompletionMessage, 0, len(msgs)+1)
	if system != "" {
		out = append(out, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: system})
	}
	back := replayed(msgs, replay)
	for i, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			out = append(out, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: m.Content})
		case llm.RoleAssistant:
			am := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: m.Content}
			if back[i] {
				am.ReasoningContent = m.Reasoning
			}
			for _, c := range m.Calls {
				am.ToolCalls = append(am.ToolCalls, openai.ToolCall{
					ID: c.ID, Type: openai.ToolTypeFunction,
					Function: openai.FunctionCall{Name: c.Name, Arguments: c.Arguments},
				})
			}
			out = append(out, am)
		case llm.RoleTool:
			content := m.Content
			if content == "" {
				content = noOutput
			}
			out = append(out, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: m.CallID, Content: content})
		}
	}
	return out
}

func wireTools(specs []llm.ToolSpec) []openai.Tool {
	if len(specs) == 0 {
		return nil
	}
	out := make([]openai.Tool, len(specs))
	for i, s := range specs {
		out[i] = openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: s.Name, Description: s.Description, Parameters: s.Schema,
		}}
	}
	return out
}

package testserver

import (
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"
)

// A request that came in over the Responses or the Messages API is
// recorded in chat completions' terms; these build them, so the other
// protocols' readers name no chat type of their own.

func textMessage(role, content string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: role, Content: content}
}

func toolResult(callID, content string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: "tool", ToolCallID: callID, Content: content}
}

func toolCall(id, name, arguments string) openai.ToolCall {
	return openai.ToolCall{ID: id, Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: name, Arguments: arguments}}
}

func toolSpec(name, description string, parameters json.RawMessage) openai.Tool {
	return openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: name, Description: description, Parameters: parameters}}
}

package testserver

import "encoding/json"

// A request that came in over the Responses or the Messages API is
// recorded in chat completions' terms; these build them, so the other
// protocols' readers name no chat type of their own.

func textMessage(role, content string) Message {
	return Message{Role: role, Content: content}
}

func toolResult(callID, content string) Message {
	return Message{Role: "tool", ToolCallID: callID, Content: content}
}

func toolCall(id, name, arguments string) MessageCall {
	c := MessageCall{ID: id, Type: "function"}
	c.Function.Name, c.Function.Arguments = name, arguments
	return c
}

func toolSpec(name, description string, parameters json.RawMessage) Tool {
	t := Tool{Type: "function"}
	t.Function.Name, t.Function.Description, t.Function.Parameters = name, description, parameters
	return t
}

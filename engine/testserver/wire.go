package testserver

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The request as the chat completions protocol writes it, decoded with
// this package's own types: the server checks what a client really sent,
// independently of any client library.

type chatRequest struct {
	Model               string    `json:"model"`
	Messages            []Message `json:"messages"`
	Tools               []Tool    `json:"tools"`
	Stream              bool      `json:"stream"`
	MaxTokens           int       `json:"max_tokens"`
	MaxCompletionTokens int       `json:"max_completion_tokens"`
	StreamOptions       *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// Message is one message of a received request.
type Message struct {
	Role string `json:"role"`
	// Content is the message's text; a list of content parts is joined
	// from its text parts.
	Content string `json:"content"`
	// ReasoningContent is the reasoning a client sent back with an
	// assistant message.
	ReasoningContent string        `json:"reasoning_content"`
	ToolCalls        []MessageCall `json:"tool_calls"`
	ToolCallID       string        `json:"tool_call_id"`
	Name             string        `json:"name"`
}

// MessageCall is a tool call of an assistant message the client sent back.
type MessageCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Tool is a tool offered in a received request.
type Tool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

func (m *Message) UnmarshalJSON(b []byte) error {
	type plain Message
	var v struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*m = Message(v.plain)
	c := strings.TrimSpace(string(v.Content))
	switch {
	case c == "" || c == "null":
	case c[0] == '"':
		return json.Unmarshal(v.Content, &m.Content)
	case c[0] == '[':
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(v.Content, &parts); err != nil {
			return fmt.Errorf("message content: %w", err)
		}
		for _, p := range parts {
			m.Content += p.Text
		}
	default:
		return fmt.Errorf("message content is neither a string nor a list of parts: %s", c)
	}
	return nil
}

package llm

import (
	"encoding/json"
	"time"
)

// Role is who wrote a message of a request.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of the conversation a request carries, in quire's
// own terms; each protocol package turns it into its wire form. Tool
// results follow the assistant message whose calls they answer, one per
// call, in the calls' order (the engine guarantees the pairing).
type Message struct {
	Role    Role
	Content string
	// Reasoning is the reasoning text the model wrote before this
	// assistant message. Most protocols never send it back; a provider
	// whose thinking mode requires it (DeepSeek's reasoning_content on
	// tool-call turns) does, by its own rule.
	Reasoning string
	// State is reasoning state a protocol must get back unchanged with
	// this assistant message (Anthropic's signed thinking blocks, the
	// Responses API's reasoning items with their encrypted content). A
	// protocol sends back only the entries it wrote and drops the others.
	State []ReasoningState
	// Calls are an assistant message's tool calls, in order.
	Calls []ToolCall
	// CallID and Name identify the call a tool message answers.
	CallID string
	Name   string
	// IsError marks a tool message whose call did not succeed (it
	// failed, was denied or was cancelled), for protocols that say so.
	IsError bool
}

// ReasoningState is one protocol's opaque record of a model's reasoning,
// carried from a response to the next request.
type ReasoningState struct {
	// Protocol names the package that wrote Data ("anthropic",
	// "responses"); only that protocol reads it.
	Protocol string          `json:"protocol"`
	Data     json.RawMessage `json:"data"`
}

// ToolCall is one tool call of an answer.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string // as the model wrote them; not necessarily valid JSON
}

// ToolSpec is a tool offered to the model.
type ToolSpec struct {
	Name        string
	Description string
	// Schema is the JSON schema of the arguments object.
	Schema json.RawMessage
}

// Request is one call for an answer.
type Request struct {
	Model string
	// System is the system prompt; empty sends none.
	System   string
	Messages []Message
	Tools    []ToolSpec
	// MaxTokens caps the answer; 0 leaves it to the server (or to the
	// protocol's required default).
	MaxTokens int
	// Temperature is sent when not zero.
	Temperature float32
}

// Handler receives a call's progress. Every field may be nil. The
// callbacks run on the caller's goroutine, in stream order.
type Handler struct {
	Text      func(delta string)
	Reasoning func(delta string)
	// Retry is told before each backoff wait.
	Retry func(attempt int, wait time.Duration, err *Error)
}

// Finish reasons, normalised across protocols.
const (
	FinishStop          = "stop"
	FinishToolCalls     = "tool_calls"
	FinishLength        = "length"
	FinishContentFilter = "content_filter"
)

// Usage is the token accounting a server reported.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	TotalTokens      int
	// CacheReadTokens and CacheWriteTokens are the parts of PromptTokens
	// read from and written to the provider's prompt cache, where it says.
	CacheReadTokens  int
	CacheWriteTokens int
	// ReasoningTokens is the part of CompletionTokens spent reasoning,
	// where the provider says.
	ReasoningTokens int
}

// Response is one complete answer.
type Response struct {
	Text      string
	Reasoning string
	// State is the reasoning state to send back with this answer on the
	// next request (see Message.State).
	State     []ReasoningState
	ToolCalls []ToolCall
	// FinishReason is one of the Finish constants, the server's own word
	// when it is none of them, or "" when it sent none.
	FinishReason string
	// Usage is nil when the server did not report it.
	Usage    *Usage
	Attempts int
}

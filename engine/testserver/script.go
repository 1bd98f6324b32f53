package testserver

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"
)

// Script is what the server answers.
type Script struct {
	// Responses are played one per request, in order. A request beyond
	// the last gets a 400 naming the problem.
	Responses []Response `json:"responses"`
	// Respond, when set, chooses the answer to request n (0-based)
	// instead, so a script can react to tool results it was sent.
	Respond func(n int, req Request) Response `json:"-"`
	// APIKey, when set, is required as the bearer token; other requests
	// get a 401.
	APIKey string `json:"api_key,omitempty"`
}

// Fault is a way for a response to go wrong.
type Fault string

const (
	// FaultMalformed sends an event whose data is not JSON.
	FaultMalformed Fault = "malformed"
	// FaultCut drops the connection without finishing the stream.
	FaultCut Fault = "cut"
	// FaultHang stops sending and holds the connection open until the
	// client gives up or the server closes.
	FaultHang Fault = "hang"
	// FaultNoFinish ends the stream cleanly but without a finish reason
	// or [DONE], as a server that died gracefully would.
	FaultNoFinish Fault = "no_finish"
	// FaultError sends the protocol's error event inside the stream,
	// carrying Error and Code (an Anthropic error type such as
	// "overloaded_error", a Responses API code such as "server_error"),
	// and ends it.
	FaultError Fault = "error"
)

// Response is one scripted answer.
type Response struct {
	// Status, when not 0 or 200, answers with this HTTP status and an
	// OpenAI-style error body carrying Error (and Code).
	Status     int    `json:"status,omitempty"`
	Error      string `json:"error,omitempty"`
	Code       string `json:"code,omitempty"`
	RetryAfter string `json:"retry_after,omitempty"` // the Retry-After header

	// Reasoning and Text are sent one element per chunk, reasoning first.
	// ReasoningField names the chat delta field for reasoning:
	// "reasoning_content" (the default) or "reasoning". The Responses API
	// sends the reasoning as a summary of a reasoning item with encrypted
	// content, the Messages API as a signed thinking block; the server
	// refuses either if it comes back altered.
	Reasoning      []string   `json:"reasoning,omitempty"`
	ReasoningField string     `json:"reasoning_field,omitempty"`
	Text           []string   `json:"text,omitempty"`
	ToolCalls      []ToolCall `json:"tool_calls,omitempty"`
	// FinishReason defaults to "tool_calls" when there are tool calls and
	// "stop" otherwise; "length" is each protocol's truncation
	// (max_tokens, an incomplete response).
	FinishReason string `json:"finish_reason,omitempty"`
	// Usage is sent in a final chunk when set.
	Usage *Usage `json:"usage,omitempty"`

	// FirstDelay is waited before the first chunk; Pace between chunks.
	FirstDelay Duration `json:"first_delay,omitempty"`
	Pace       Duration `json:"pace,omitempty"`

	// Fault, when set, happens after FaultAfter chunks.
	Fault      Fault `json:"fault,omitempty"`
	FaultAfter int   `json:"fault_after,omitempty"`
}

// ToolCall is one scripted tool call.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	// Split sends the arguments in this many pieces (at least 1).
	Split int `json:"split,omitempty"`
}

// Usage is the token accounting the server reports. PromptTokens
// includes the cache reads and writes, as chat completions count them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
	ReasoningTokens  int `json:"reasoning_tokens,omitempty"`
}

// Duration is a time.Duration written in JSON as a string such as "50ms".
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is a string such as \"50ms\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// ParseScript reads a script written as JSON:
//
//	{"responses": [
//	  {"text": ["Hel", "lo"], "pace": "20ms"},
//	  {"tool_calls": [{"id": "c1", "name": "read_file", "arguments": "{\"path\":\"a\"}", "split": 3}]},
//	  {"status": 429, "error": "slow down", "retry_after": "1"}
//	]}
func ParseScript(data []byte) (Script, error) {
	var s Script
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Script{}, fmt.Errorf("parse test script: %w", err)
	}
	return s, nil
}

// LoadScript reads a JSON script from a file.
func LoadScript(path string) (Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Script{}, fmt.Errorf("read test script: %w", err)
	}
	return ParseScript(data)
}

// Chunks splits s into pieces of at most n bytes, never inside a
// character.
func Chunks(s string, n int) []string {
	if n < 1 {
		n = 1
	}
	var out []string
	for len(s) > 0 {
		end := min(n, len(s))
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

// Words splits s after each space, the way models tend to stream.
func Words(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// Text is a plain answer sent word by word.
func Text(s string) Response { return Response{Text: Words(s)} }

// Call is an answer that makes one tool call.
func Call(id, name, arguments string) Response {
	return Response{ToolCalls: []ToolCall{{ID: id, Name: name, Arguments: arguments}}}
}

// Fail is an HTTP error answer.
func Fail(status int, message string) Response {
	return Response{Status: status, Error: message}
}

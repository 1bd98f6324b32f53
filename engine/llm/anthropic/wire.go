package anthropic

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/quire-sh/quire/engine/llm"
)

// Protocol names this package in llm.ReasoningState.
const Protocol = "anthropic"

// request is the body of POST /v1/messages.
type request struct {
	Model       string    `json:"model"`
	MaxTokens   int       `json:"max_tokens"`
	System      []block   `json:"system,omitempty"`
	Messages    []message `json:"messages"`
	Tools       []tool    `json:"tools,omitempty"`
	Stream      bool      `json:"stream"`
	Thinking    *thinking `json:"thinking,omitempty"`
	Temperature *float32  `json:"temperature,omitempty"`
}

type thinking struct {
	Type         string `json:"type"` // "enabled"
	BudgetTokens int    `json:"budget_tokens"`
}

type cacheControl struct {
	Type string `json:"type"` // "ephemeral"
}

var ephemeral = &cacheControl{Type: "ephemeral"}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

// block is one content block. Raw, when set, is sent instead of the other
// fields: a thinking block goes back exactly as the server wrote it.
type block struct {
	Type         string          `json:"type"`
	Text         string          `json:"text,omitempty"`
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Content      *string         `json:"content,omitempty"`
	IsError      bool            `json:"is_error,omitempty"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
	Raw          json.RawMessage `json:"-"`
}

func (b block) MarshalJSON() ([]byte, error) {
	if b.Raw != nil {
		return b.Raw, nil
	}
	type plain block
	return json.Marshal(plain(b))
}

type tool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

// savedThinking is the Data of this protocol's llm.ReasoningState: one
// thinking or redacted_thinking block as the server sent it, and the
// model that wrote it (a signature is checked against its model).
type savedThinking struct {
	Model string          `json:"model"`
	Block json.RawMessage `json:"block"`
}

// noOutput stands in for an empty tool result: the API rejects empty text.
const noOutput = "(no output)"

// wireMessages turns a conversation into messages: roles alternate, tool
// results of one assistant message form one user message, and the
// conversation's thinking goes back first in its assistant message.
func wireMessages(model string, msgs []llm.Message) []message {
	var out []message
	push := func(role string, blocks []block) {
		if len(blocks) == 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			// Consecutive messages of one role become one: tool results
			// stay first in a user message, thinking first in an
			// assistant one.
			merged := append(out[n-1].Content, blocks...)
			if role == "assistant" {
				merged = thinkingFirst(merged)
			}
			out[n-1].Content = merged
			return
		}
		out = append(out, message{Role: role, Content: blocks})
	}
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			if m.Content != "" {
				push("user", []block{{Type: "text", Text: m.Content}})
			}
		case llm.RoleAssistant:
			var blocks []block
			for _, st := range m.State {
				if raw, ok := thinkingBlock(model, st); ok {
					blocks = append(blocks, block{Type: "thinking", Raw: raw})
				}
			}
			if m.Content != "" {
				blocks = append(blocks, block{Type: "text", Text: m.Content})
			}
			for _, c := range m.Calls {
				blocks = append(blocks, block{Type: "tool_use", ID: ToolID(c.ID), Name: c.Name, Input: inputObject(c.Arguments)})
			}
			push("assistant", blocks)
		case llm.RoleTool:
			content := m.Content
			if content == "" {
				content = noOutput
			}
			push("user", []block{{Type: "tool_result", ToolUseID: ToolID(m.CallID), Content: &content, IsError: m.IsError}})
		}
	}
	return out
}

func thinkingFirst(blocks []block) []block {
	out := make([]block, 0, len(blocks))
	for _, b := range blocks {
		if b.Raw != nil {
			out = append(out, b)
		}
	}
	for _, b := range blocks {
		if b.Raw == nil {
			out = append(out, b)
		}
	}
	return out
}

// Keeps reports whether st is sent back to model: this protocol wrote it,
// for the same model.
func Keeps(model string, st llm.ReasoningState) bool {
	_, ok := thinkingBlock(model, st)
	return ok
}

func thinkingBlock(model string, st llm.ReasoningState) (json.RawMessage, bool) {
	if st.Protocol != Protocol {
		return nil, false
	}
	var saved savedThinking
	if json.Unmarshal(st.Data, &saved) != nil || saved.Model != model {
		return nil, false
	}
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(saved.Block, &head) != nil || (head.Type != "thinking" && head.Type != "redacted_thinking") {
		return nil, false
	}
	return saved.Block, true
}

// ToolID maps a tool call id to one the API accepts (^[a-zA-Z0-9_-]+$,
// at most 64 characters). An id that already fits is kept; any other
// gets its invalid characters replaced and a hash of the original
// appended, so two ids never map to one and a call and its result always
// map alike.
func ToolID(id string) string {
	ok := id != "" && len(id) <= 64
	for i := 0; ok && i < len(id); i++ {
		ok = validIDByte(id[i])
	}
	if ok {
		return id
	}
	var b strings.Builder
	b.WriteString("toolu_")
	for i := 0; i < len(id) && b.Len() < 40; i++ {
		if validIDByte(id[i]) {
			b.WriteByte(id[i])
		} else {
			b.WriteByte('_')
		}
	}
	sum := sha256.Sum256([]byte(id))
	b.WriteByte('_')
	b.WriteString(hex.EncodeToString(sum[:8]))
	return b.String()
}

func validIDByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// inputObject is a call's arguments as the JSON object tool_use requires:
// arguments that are not an object (the model wrote broken JSON) are
// kept as a string inside one.
func inputObject(args string) json.RawMessage {
	t := strings.TrimSpace(args)
	if t == "" {
		return json.RawMessage(`{}`)
	}
	if strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	b, _ := json.Marshal(map[string]string{"arguments": args}) // a string always marshals
	return b
}

func wireTools(specs []llm.ToolSpec) []tool {
	if len(specs) == 0 {
		return nil
	}
	out := make([]tool, len(specs))
	for i, s := range specs {
		out[i] = tool{Name: s.Name, Description: s.Description, InputSchema: s.Schema}
	}
	return out
}

// markCache puts the prompt-cache breakpoints (at most four): the system
// prompt, the tools, the latest message, and the last message of the
// request before it, so the next request reads what this one wrote.
func markCache(r *request) {
	if n := len(r.System); n > 0 {
		r.System[n-1].CacheControl = ephemeral
	}
	if n := len(r.Tools); n > 0 {
		r.Tools[n-1].CacheControl = ephemeral
	}
	marked := 0
	for i := len(r.Messages) - 1; i >= 0 && marked < 2; i-- {
		m := &r.Messages[i]
		if m.Role != "user" {
			continue
		}
		for j := len(m.Content) - 1; j >= 0; j-- {
			if m.Content[j].Raw == nil {
				m.Content[j].CacheControl = ephemeral
				marked++
				break
			}
		}
	}
}

package responses

import (
	"encoding/json"

	"github.com/quire-sh/quire/engine/llm"
)

// Protocol names this package in llm.ReasoningState.
const Protocol = "responses"

// request is the body of POST /responses.
type request struct {
	Model        string     `json:"model"`
	Instructions string     `json:"instructions,omitempty"`
	Input        []any      `json:"input"`
	Tools        []tool     `json:"tools,omitempty"`
	ToolChoice   string     `json:"tool_choice,omitempty"`
	Parallel     *bool      `json:"parallel_tool_calls,omitempty"`
	Stream       bool       `json:"stream"`
	Store        bool       `json:"store"` // always sent: the API's default is true
	Include      []string   `json:"include,omitempty"`
	Reasoning    *reasoning `json:"reasoning,omitempty"`
	MaxOutput    int        `json:"max_output_tokens,omitempty"`
	Temperature  *float32   `json:"temperature,omitempty"`
}

type reasoning struct {
	Effort  string `json:"effort,omitempty"`
	Summary string `json:"summary,omitempty"`
}

type tool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	// Strict is false: quire's schemas are not written for strict mode.
	Strict bool `json:"strict"`
}

// Input items.
type (
	messageItem struct {
		Type    string `json:"type"` // "message"
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	callItem struct {
		Type      string `json:"type"` // "function_call"
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	outputItem struct {
		Type   string `json:"type"` // "function_call_output"
		CallID string `json:"call_id"`
		Output string `json:"output"`
	}
	// reasoningItem goes back as the server sent it: with store false
	// the server reads the reasoning from the encrypted content, not from
	// the id.
	reasoningItem struct {
		Type             string            `json:"type"` // "reasoning"
		ID               string            `json:"id,omitempty"`
		Summary          []json.RawMessage `json:"summary"`
		EncryptedContent string            `json:"encrypted_content"`
	}
)

// savedReasoning is the Data of this protocol's llm.ReasoningState: one
// reasoning item as the server sent it, and the model that wrote it.
type savedReasoning struct {
	Model string          `json:"model"`
	Item  json.RawMessage `json:"item"`
}

// noOutput stands in for an empty tool result.
const noOutput = "(no output)"

// wireInput turns a conversation into input items. An assistant message
// becomes its reasoning items (when this protocol wrote them for this
// model), its text and its calls, in the order the model produced them.
func wireInput(model string, msgs []llm.Message) []any {
	out := make([]any, 0, len(msgs)+4)
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			out = append(out, messageItem{Type: "message", Role: "user", Content: m.Content})
		case llm.RoleAssistant:
			for _, r := range reasoningItems(model, m.State) {
				out = append(out, r)
			}
			if m.Content != "" {
				out = append(out, messageItem{Type: "message", Role: "assistant", Content: m.Content})
			}
			for _, c := range m.Calls {
				out = append(out, callItem{Type: "function_call", CallID: c.ID, Name: c.Name, Arguments: c.Arguments})
			}
		case llm.RoleTool:
			content := m.Content
			if content == "" {
				content = noOutput
			}
			out = append(out, outputItem{Type: "function_call_output", CallID: m.CallID, Output: content})
		}
	}
	return out
}

// Keeps reports whether st is sent back to model: this protocol wrote it,
// for the same model (encrypted reasoning is not known to carry over to
// another), and it carries encrypted content.
func Keeps(model string, st llm.ReasoningState) bool {
	_, ok := reasoningItemOf(model, st)
	return ok
}

func reasoningItemOf(model string, st llm.ReasoningState) (reasoningItem, bool) {
	if st.Protocol != Protocol {
		return reasoningItem{}, false
	}
	var saved savedReasoning
	if json.Unmarshal(st.Data, &saved) != nil || saved.Model != model {
		return reasoningItem{}, false
	}
	var it struct {
		ID               string            `json:"id"`
		Summary          []json.RawMessage `json:"summary"`
		EncryptedContent string            `json:"encrypted_content"`
	}
	if json.Unmarshal(saved.Item, &it) != nil || it.EncryptedContent == "" {
		return reasoningItem{}, false
	}
	if it.Summary == nil {
		it.Summary = []json.RawMessage{}
	}
	return reasoningItem{Type: "reasoning", ID: it.ID, Summary: it.Summary, EncryptedContent: it.EncryptedContent}, true
}

// reasoningItems are the items of states that Keeps, in order.
func reasoningItems(model string, states []llm.ReasoningState) []reasoningItem {
	var out []reasoningItem
	for _, st := range states {
		if it, ok := reasoningItemOf(model, st); ok {
			out = append(out, it)
		}
	}
	return out
}

func wireTools(specs []llm.ToolSpec) []tool {
	if len(specs) == 0 {
		return nil
	}
	out := make([]tool, len(specs))
	for i, s := range specs {
		out[i] = tool{Type: "function", Name: s.Name, Description: s.Description, Parameters: s.Schema}
	}
	return out
}

package engine

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
)

// Role is who wrote a message of the history.
type Role = llm.Role

const (
	RoleUser      = llm.RoleUser
	RoleAssistant = llm.RoleAssistant
	RoleTool      = llm.RoleTool
)

// Special marks messages the engine wrote itself rather than the user or
// the model, so a later compaction can tell them apart.
type Special string

const (
	// SpecialQuery is the last user prompt re-stated after a compaction,
	// wrapped in <user_query>.
	SpecialQuery Special = "query"
	// SpecialSummary is a compaction summary standing in for the history
	// before it.
	SpecialSummary Special = "summary"
	// SpecialReminder tells the model to carry on after a compaction in
	// the middle of a turn.
	SpecialReminder Special = "reminder"
)

// Message is one entry of the model's history. The system prompt is not
// part of it: it is built afresh for every request from the environment.
type Message struct {
	Role    Role
	Content string
	// Reasoning and State are what the model reasoned before an assistant
	// message, kept for the protocols that must get it back (llm.Message).
	Reasoning string
	State     []llm.ReasoningState
	// Calls are an assistant message's tool calls, in order.
	Calls []event.ToolCall
	// CallID and Name identify the call a tool message answers; IsError
	// marks a result of a call that did not succeed.
	CallID  string
	Name    string
	IsError bool
	// Special is set on messages the engine wrote.
	Special Special
}

// noOutput stands in for an empty tool result: some servers reject a tool
// message without content.
const noOutput = "(no output)"

// requestMessages turns the history into a request's conversation. It
// repairs tool pairing on the way, so a request is always valid even if
// the history is not: a tool message whose call is not in the assistant
// message before it is dropped, and a call without a result gets one
// saying so. Each call's result follows its assistant message, in the
// order of the calls.
func requestMessages(history []Message) []llm.Message {
	out := make([]llm.Message, 0, len(history))
	for i := 0; i < len(history); i++ {
		m := history[i]
		switch m.Role {
		case RoleUser:
			out = append(out, llm.Message{Role: llm.RoleUser, Content: m.Content})
		case RoleTool:
			// Only reachable for an orphan: answered tool messages are
			// consumed with their assistant message below.
			continue
		case RoleAssistant:
			am := llm.Message{Role: llm.RoleAssistant, Content: m.Content, Reasoning: m.Reasoning, State: m.State}
			for _, c := range m.Calls {
				am.Calls = append(am.Calls, llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: wireArguments(c.Arguments)})
			}
			out = append(out, am)
			if len(m.Calls) == 0 {
				continue
			}
			results := map[string]Message{}
			for i+1 < len(history) && history[i+1].Role == RoleTool {
				i++
				results[history[i].CallID] = history[i]
			}
			for _, c := range m.Calls {
				r, ok := results[c.ID]
				content := r.Content
				if !ok {
					content = missingResult
				}
				if content == "" {
					content = noOutput
				}
				out = append(out, llm.Message{Role: llm.RoleTool, CallID: c.ID, Name: c.Name, Content: content, IsError: !ok || r.IsError})
			}
		}
	}
	return out
}

// missingResult answers a call whose result was never recorded, e.g. after
// quire was killed while the call ran.
const missingResult = "[no result: the session ended before this call finished]"

// decodeArguments turns the arguments a model wrote into the JSON kept in
// the event log. Valid JSON is kept as written; empty arguments become {};
// anything else is kept as a JSON string of the raw text, so the log stays
// valid JSON and wireArguments can give the model back exactly what it
// wrote.
func decodeArguments(raw string) json.RawMessage {
	trimmed := strings.TrimSpace(raw)
	if trimmed == "" {
		return json.RawMessage(`{}`)
	}
	if json.Valid([]byte(trimmed)) && !strings.HasPrefix(trimmed, `"`) {
		return json.RawMessage(trimmed)
	}
	b, _ := json.Marshal(raw) // a string always marshals
	return b
}

// wireArguments is the inverse of decodeArguments.
func wireArguments(args json.RawMessage) string {
	if len(args) > 0 && args[0] == '"' {
		var s string
		if json.Unmarshal(args, &s) == nil {
			return s
		}
	}
	return string(args)
}

// argumentsObject reports whether args is a JSON object, and why not.
func argumentsObject(args json.RawMessage) (string, bool) {
	if len(args) > 0 && args[0] == '"' {
		var s string
		_ = json.Unmarshal(args, &s)
		var v any
		err := json.Unmarshal([]byte(s), &v)
		if err != nil {
			return "the arguments are not valid JSON (" + err.Error() + "); send a JSON object matching the tool's schema", false
		}
		return "the arguments must be a JSON object matching the tool's schema", false
	}
	if !bytes.HasPrefix(bytes.TrimSpace(args), []byte("{")) {
		return "the arguments must be a JSON object matching the tool's schema", false
	}
	return "", true
}

// encodeState keeps a response's reasoning state in the event log as
// JSON; nil when there is none.
func encodeState(st []llm.ReasoningState) json.RawMessage {
	if len(st) == 0 {
		return nil
	}
	b, err := json.Marshal(st)
	if err != nil {
		return nil // RawMessage data always marshals
	}
	return b
}

// decodeState reads what encodeState wrote; state it cannot read is
// dropped, and the protocol then gets none.
func decodeState(raw json.RawMessage) []llm.ReasoningState {
	if len(raw) == 0 {
		return nil
	}
	var st []llm.ReasoningState
	if json.Unmarshal(raw, &st) != nil {
		return nil
	}
	return st
}

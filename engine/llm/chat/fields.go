package chat

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quire-sh/quire/engine/llm"
)

// Readers of the fields whose shape differs between servers. Each takes
// the raw JSON of one field and returns what quire uses of it; a shape it
// does not know yields nothing rather than an error.

// stringOf reads a JSON string; anything else is "".
func stringOf(raw json.RawMessage) string {
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	if n := len(raw); n >= 2 && raw[n-1] == '"' && plain(raw[1:n-1]) {
		return string(raw[1 : n-1]) // the common case: nothing to unescape
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// contentPart is one typed part of a content list.
type contentPart struct {
	Type     string          `json:"type"`
	Text     json.RawMessage `json:"text"`
	Refusal  string          `json:"refusal"`
	Thinking json.RawMessage `json:"thinking"`
	// Reasoning parts ("reasoning") carry their text under one of these.
	Reasoning json.RawMessage `json:"reasoning"`
	Content   json.RawMessage `json:"content"`
}

// contentText reads a content field: a string is visible text; a list of
// typed parts (or a single part) is split into visible text (text and
// refusal parts) and reasoning (thinking and reasoning parts, whose text
// may be nested in parts of its own). Parts of other types — images,
// audio, references — carry nothing to show in a terminal and are
// skipped.
func contentText(raw json.RawMessage) (text, reasoning string) {
	raw = trimJSON(raw)
	if len(raw) == 0 {
		return "", ""
	}
	switch raw[0] {
	case '"':
		return stringOf(raw), ""
	case '[', '{':
	default:
		return "", ""
	}
	var parts []contentPart
	if raw[0] == '{' {
		var p contentPart
		if json.Unmarshal(raw, &p) != nil {
			return "", ""
		}
		parts = []contentPart{p}
	} else if json.Unmarshal(raw, &parts) != nil {
		// A list with a part of an unknown shape: take the parts one by
		// one, so one odd part does not cost the others.
		var raws []json.RawMessage
		if json.Unmarshal(raw, &raws) != nil {
			return "", ""
		}
		for _, r := range raws {
			var p contentPart
			if json.Unmarshal(r, &p) == nil {
				parts = append(parts, p)
			}
		}
	}
	var tb, rb strings.Builder
	for _, p := range parts {
		switch p.Type {
		case "text", "output_text", "":
			tb.WriteString(nestedText(p.Text))
		case "refusal":
			tb.WriteString(p.Refusal)
		case "thinking", "reasoning", "reasoning_text", "summary_text":
			rb.WriteString(nestedText(p.Thinking))
			rb.WriteString(nestedText(p.Reasoning))
			rb.WriteString(nestedText(p.Text))
			rb.WriteString(nestedText(p.Content))
		}
	}
	return tb.String(), rb.String()
}

// nestedText reads text that is a string, a part with a text field, or a
// list of such parts.
func nestedText(raw json.RawMessage) string {
	raw = trimJSON(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		return stringOf(raw)
	case '{':
		var p contentPart
		if json.Unmarshal(raw, &p) != nil {
			return ""
		}
		return nestedText(p.Text)
	case '[':
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return ""
		}
		var b strings.Builder
		for _, r := range list {
			b.WriteString(nestedText(r))
		}
		return b.String()
	}
	return ""
}

// reasoningText reads a "reasoning" or "reasoning_content" field that is
// a string, an object with a text field, or a list of parts.
func reasoningText(raw json.RawMessage) string {
	raw = trimJSON(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		return stringOf(raw)
	}
	var o struct {
		Text    json.RawMessage `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	if raw[0] == '{' && json.Unmarshal(raw, &o) == nil {
		return nestedText(o.Text) + nestedText(o.Content)
	}
	if raw[0] == '[' {
		return nestedText(raw) // a list of parts, as content lists are
	}
	return ""
}

func trimJSON(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil
	}
	return raw
}

// plain reports a string body of valid UTF-8 without escapes or control
// characters, which reads as itself.
func plain(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c == '"' || c < 0x20 {
			return false
		}
	}
	return utf8.Valid(b)
}

// finishError is the finish reason a gateway (OpenRouter) sends when the
// upstream model failed mid-answer.
const finishError = "error"

// finishReason reads a finish reason and names it in llm's words; a word
// quire does not know is kept as the server wrote it.
func finishReason(raw json.RawMessage) string {
	switch f := stringOf(raw); f {
	case "length", "max_tokens", "max_output_tokens", "model_length":
		return llm.FinishLength
	case "stop", "end_turn", "stop_sequence", "eos", "eos_token":
		return llm.FinishStop
	case "tool_calls", "function_call", "tool_use":
		return llm.FinishToolCalls
	case "content_filter", "safety":
		return llm.FinishContentFilter
	default:
		return f
	}
}

// readUsage reads a usage object: OpenAI's fields with their details
// (cached prompt tokens, reasoning tokens) and DeepSeek's cache hit count.
// Numbers are read as floats, since some servers write 12.0. An object
// without token counts, or of another shape, is nil.
func readUsage(raw json.RawMessage) *llm.Usage {
	raw = trimJSON(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var u struct {
		Prompt     *float64 `json:"prompt_tokens"`
		Completion *float64 `json:"completion_tokens"`
		Total      *float64 `json:"total_tokens"`
		PromptDet  *struct {
			Cached float64 `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionDet *struct {
			Reasoning float64 `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
		CacheHit float64 `json:"prompt_cache_hit_tokens"`
	}
	if json.Unmarshal(raw, &u) != nil || (u.Prompt == nil && u.Completion == nil && u.Total == nil) {
		return nil
	}
	n := func(f *float64) int {
		if f == nil {
			return 0
		}
		return int(*f)
	}
	out := &llm.Usage{PromptTokens: n(u.Prompt), CompletionTokens: n(u.Completion), TotalTokens: n(u.Total)}
	if out.TotalTokens == 0 {
		out.TotalTokens = out.PromptTokens + out.CompletionTokens
	}
	if u.PromptDet != nil {
		out.CacheReadTokens = int(u.PromptDet.Cached)
	}
	if out.CacheReadTokens == 0 {
		out.CacheReadTokens = int(u.CacheHit)
	}
	if u.CompletionDet != nil {
		out.ReasoningTokens = int(u.CompletionDet.Reasoning)
	}
	return out
}

// streamError reads the error object a server sent inside a 200 stream
// ({"message", "code", "type"}, or a bare string); nil when there is none.
func streamError(raw json.RawMessage) *llm.Error {
	raw = trimJSON(raw)
	if len(raw) == 0 {
		return nil
	}
	if raw[0] == '"' {
		return llm.InStream(stringOf(raw), "")
	}
	var v struct {
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
		Type    string          `json:"type"`
	}
	if raw[0] != '{' || json.Unmarshal(raw, &v) != nil {
		return llm.InStream(llm.Clip(string(raw), 120), "")
	}
	code := stringOf(v.Code)
	if code == "" {
		if f, err := strconv.ParseFloat(string(trimJSON(v.Code)), 64); err == nil {
			code = strconv.Itoa(int(f))
		}
	}
	if code == "" {
		code = v.Type
	}
	if v.Message == "" && code == "" {
		return nil // {"error": {}}: nothing was reported
	}
	return llm.InStream(v.Message, code)
}

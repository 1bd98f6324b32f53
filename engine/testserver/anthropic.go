package testserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// anthropicWire is the Anthropic Messages API.
type anthropicWire struct{}

func (anthropicWire) protocol() string { return "anthropic" }

func (anthropicWire) authorised(h http.Header, key string) bool {
	return h.Get("x-api-key") == key
}

// errorTypes are the API's error types by status.
var errorTypes = map[int]string{
	400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
	404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
	500: "api_error", 529: "overloaded_error",
}

func (anthropicWire) writeError(w http.ResponseWriter, status int, msg, code, retryAfter string) {
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	typ := code
	if typ == "" || strings.Contains(typ, " ") || !strings.HasSuffix(typ, "_error") && typ != "request_too_large" {
		typ = errorTypes[status]
		if typ == "" {
			typ = "api_error"
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", "req_test")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
}

var toolUseID = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

type anthropicBlock struct {
	Type         string          `json:"type"`
	Text         string          `json:"text"`
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Input        json.RawMessage `json:"input"`
	ToolUseID    string          `json:"tool_use_id"`
	Content      json.RawMessage `json:"content"`
	Thinking     string          `json:"thinking"`
	Signature    string          `json:"signature"`
	Data         string          `json:"data"`
	CacheControl json.RawMessage `json:"cache_control"`
}

// blocks reads content that is a string or a list of blocks.
func blocks(raw json.RawMessage) ([]anthropicBlock, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []anthropicBlock{{Type: "text", Text: s}}, nil
	}
	var bs []anthropicBlock
	err := json.Unmarshal(raw, &bs)
	return bs, err
}

// parse reads a Messages API request into chat terms, refusing what the
// API refuses: no anthropic-version or max_tokens, a thinking budget out
// of bounds, more than four cache breakpoints, a tool_use without its
// tool_result right after (or the reverse), an id the API rejects, an
// empty text block, a thinking block whose signature does not match.
func (anthropicWire) parse(body []byte, h http.Header) (Request, *refusal) {
	bad := func(format string, args ...any) (Request, *refusal) {
		return Request{}, &refusal{http.StatusBadRequest, fmt.Sprintf(format, args...), "invalid_request_error"}
	}
	if h.Get("anthropic-version") == "" {
		return bad("anthropic-version: header is required")
	}
	var rr struct {
		Model     string          `json:"model"`
		MaxTokens *int            `json:"max_tokens"`
		System    json.RawMessage `json:"system"`
		Messages  []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name         string          `json:"name"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"input_schema"`
			CacheControl json.RawMessage `json:"cache_control"`
		} `json:"tools"`
		Stream   bool `json:"stream"`
		Thinking *struct {
			Type         string `json:"type"`
			BudgetTokens int    `json:"budget_tokens"`
		} `json:"thinking"`
		Temperature *float64 `json:"temperature"`
	}
	if err := json.Unmarshal(body, &rr); err != nil {
		return bad("the body is not a Messages API request: %v", err)
	}
	if rr.MaxTokens == nil || *rr.MaxTokens < 1 {
		return bad("max_tokens: Field required")
	}
	if t := rr.Thinking; t != nil && t.Type == "enabled" {
		switch {
		case t.BudgetTokens < 1024:
			return bad("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024")
		case t.BudgetTokens >= *rr.MaxTokens:
			return bad("`max_tokens` must be greater than `thinking.budget_tokens`")
		case rr.Temperature != nil && *rr.Temperature != 1:
			return bad("`temperature` may only be set to 1 when thinking is enabled")
		}
	}
	if n := bytes.Count(body, []byte(`"cache_control"`)); n > 4 {
		return bad("A maximum of 4 blocks with cache_control may be provided. Found %d.", n)
	}
	req := Request{Model: rr.Model, Stream: rr.Stream, MaxTokens: *rr.MaxTokens, IncludeUsage: true}
	if len(rr.System) > 0 {
		sys, err := blocks(rr.System)
		if err != nil {
			return bad("system: %v", err)
		}
		var text []string
		for _, b := range sys {
			text = append(text, b.Text)
		}
		req.Messages = append(req.Messages, textMessage("system", strings.Join(text, "\n")))
	}
	for _, t := range rr.Tools {
		req.Tools = append(req.Tools, toolSpec(t.Name, t.Description, t.InputSchema))
	}
	var open []string // tool_use ids of the previous assistant message
	for i, m := range rr.Messages {
		bs, err := blocks(m.Content)
		if err != nil {
			return bad("messages.%d.content: %v", i, err)
		}
		switch m.Role {
		case "user":
			answered := map[string]bool{}
			var text []string
			for j, b := range bs {
				switch b.Type {
				case "tool_result":
					if !contains(open, b.ToolUseID) {
						return bad("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID)
					}
					if len(text) > 0 {
						return bad("messages.%d: `tool_result` blocks must come before any other content", i)
					}
					answered[b.ToolUseID] = true
					req.Messages = append(req.Messages, toolResult(b.ToolUseID, resultText(b.Content)))
				case "text":
					if b.Text == "" {
						return bad("messages: text content blocks must be non-empty")
					}
					text = append(text, b.Text)
				}
			}
			for _, id := range open {
				if !answered[id] {
					return bad("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i-1, id)
				}
			}
			open = nil
			if len(text) > 0 {
				req.Messages = append(req.Messages, textMessage("user", strings.Join(text, "\n")))
			}
		case "assistant":
			if len(open) > 0 {
				return bad("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i-1, open[0])
			}
			am := textMessage("assistant", "")
			var thoughts []string
			for j, b := range bs {
				switch b.Type {
				case "thinking":
					if b.Signature != signature(b.Thinking) {
						return bad("messages.%d.content.%d: Invalid `signature` in `thinking` block", i, j)
					}
					thoughts = append(thoughts, b.Thinking)
				case "redacted_thinking":
					if b.Data == "" {
						return bad("messages.%d.content.%d.data: Field required", i, j)
					}
				case "text":
					if b.Text == "" {
						return bad("messages: text content blocks must be non-empty")
					}
					am.Content += b.Text
				case "tool_use":
					if !toolUseID.MatchString(b.ID) {
						return bad("messages.%d.content.%d.id: String should match pattern '^[a-zA-Z0-9_-]+$'", i, j)
					}
					var obj map[string]any
					if json.Unmarshal(b.Input, &obj) != nil {
						return bad("messages.%d.content.%d.input: Input should be a valid dictionary", i, j)
					}
					var args bytes.Buffer
					_ = json.Compact(&args, b.Input)
					am.ToolCalls = append(am.ToolCalls, toolCall(b.ID, b.Name, args.String()))
					open = append(open, b.ID)
				}
			}
			am.ReasoningContent = strings.Join(thoughts, "\n\n")
			req.Messages = append(req.Messages, am)
		case "system":
			// Instructions between turns, as Claude Code sends them.
			var text []string
			for _, b := range bs {
				text = append(text, b.Text)
			}
			req.Messages = append(req.Messages, textMessage("system", strings.Join(text, "\n")))
		default:
			return bad("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
	}
	if len(open) > 0 {
		return bad("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", len(rr.Messages)-1, open[0])
	}
	return req, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// resultText reads a tool_result's content: a string or text blocks.
func resultText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	bs, err := blocks(raw)
	if err != nil {
		return ""
	}
	var text []string
	for _, b := range bs {
		text = append(text, b.Text)
	}
	return strings.Join(text, "\n")
}

func (anthropicWire) events(model string, resp Response) []string {
	var out []string
	add := func(v map[string]any) {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err) // only strings, numbers, maps and slices: cannot fail
		}
		out = append(out, "event: "+v["type"].(string)+"\ndata: "+string(b)+"\n\n")
	}
	var u Usage
	if resp.Usage != nil {
		u = *resp.Usage
	}
	add(map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_test", "type": "message", "role": "assistant", "content": []any{}, "model": model,
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{
			"input_tokens":                max(u.PromptTokens-u.CacheReadTokens-u.CacheWriteTokens, 0),
			"cache_creation_input_tokens": u.CacheWriteTokens, "cache_read_input_tokens": u.CacheReadTokens,
			"output_tokens": 1,
		},
	}})
	add(map[string]any{"type": "ping"})
	index := 0
	if len(resp.Reasoning) > 0 {
		add(map[string]any{"type": "content_block_start", "index": index, "content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}})
		for _, r := range resp.Reasoning {
			add(map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "thinking_delta", "thinking": r}})
		}
		add(map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "signature_delta", "signature": signature(strings.Join(resp.Reasoning, ""))}})
		add(map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	if len(resp.Text) > 0 {
		add(map[string]any{"type": "content_block_start", "index": index, "content_block": map[string]any{"type": "text", "text": ""}})
		for _, t := range resp.Text {
			add(map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "text_delta", "text": t}})
		}
		add(map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	for _, tc := range resp.ToolCalls {
		add(map[string]any{"type": "content_block_start", "index": index, "content_block": map[string]any{"type": "tool_use", "id": tc.ID, "name": tc.Name, "input": map[string]any{}}})
		for _, p := range splitN(tc.Arguments, tc.Split) {
			add(map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "input_json_delta", "partial_json": p}})
		}
		add(map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	if resp.Fault == FaultNoFinish || resp.Fault == FaultError {
		return out
	}
	stop := "end_turn"
	switch {
	case resp.FinishReason == "length":
		stop = "max_tokens"
	case resp.FinishReason == "content_filter":
		stop = "refusal"
	case resp.FinishReason != "" && resp.FinishReason != "stop" && resp.FinishReason != "tool_calls":
		stop = resp.FinishReason
	case len(resp.ToolCalls) > 0:
		stop = "tool_use"
	}
	add(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": u.CompletionTokens}})
	add(map[string]any{"type": "message_stop"})
	return out
}

func (anthropicWire) malformed() string {
	return "event: content_block_delta\ndata: {\"type\": \"content_block_delta\", \"delta\": {\"text\": \"oops\n\n"
}

func (anthropicWire) failed(resp Response) string {
	typ := resp.Code
	if typ == "" {
		typ = "overloaded_error"
	}
	msg := resp.Error
	if msg == "" {
		msg = "Overloaded"
	}
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}}) // strings only: cannot fail
	return "event: error\ndata: " + string(b) + "\n\n"
}

func (anthropicWire) done() string { return "" }

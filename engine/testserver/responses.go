package testserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// responsesWire is the OpenAI Responses API.
type responsesWire struct{}

func (responsesWire) protocol() string { return "responses" }

func (responsesWire) authorised(h http.Header, key string) bool {
	return h.Get("Authorization") == "Bearer "+key
}

func (responsesWire) writeError(w http.ResponseWriter, status int, msg, code, retryAfter string) {
	writeError(w, status, msg, code, retryAfter)
}

// parse reads a Responses API request into chat terms, refusing what the
// API refuses: a reasoning item without its encrypted content (by id
// alone, to a server that stores nothing), encrypted content it did not
// issue, a call output without its call.
func (responsesWire) parse(body []byte, _ http.Header) (Request, *refusal) {
	var rr struct {
		Model        string            `json:"model"`
		Instructions string            `json:"instructions"`
		Input        json.RawMessage   `json:"input"`
		Tools        []json.RawMessage `json:"tools"`
		Stream       bool              `json:"stream"`
		Store        *bool             `json:"store"`
		MaxOutput    int               `json:"max_output_tokens"`
	}
	if err := json.Unmarshal(body, &rr); err != nil {
		return Request{}, &refusal{http.StatusBadRequest, "the body is not a Responses API request: " + err.Error(), "invalid_request_error"}
	}
	req := Request{Model: rr.Model, Stream: rr.Stream, MaxTokens: rr.MaxOutput, IncludeUsage: true}
	if rr.Instructions != "" {
		req.Messages = append(req.Messages, textMessage("system", rr.Instructions))
	}
	for _, raw := range rr.Tools {
		var t struct {
			Type, Name, Description string
			Parameters              json.RawMessage
		}
		if json.Unmarshal(raw, &t) == nil && t.Type == "function" {
			req.Tools = append(req.Tools, toolSpec(t.Name, t.Description, t.Parameters))
		}
	}
	var text string
	if json.Unmarshal(rr.Input, &text) == nil {
		req.Messages = append(req.Messages, textMessage("user", text))
		return req, nil
	}
	var items []struct {
		Type             string          `json:"type"`
		ID               string          `json:"id"`
		Role             string          `json:"role"`
		Content          json.RawMessage `json:"content"`
		CallID           string          `json:"call_id"`
		Name             string          `json:"name"`
		Arguments        string          `json:"arguments"`
		Output           string          `json:"output"`
		EncryptedContent *string         `json:"encrypted_content"`
	}
	if err := json.Unmarshal(rr.Input, &items); err != nil {
		return Request{}, &refusal{http.StatusBadRequest, "input must be a string or a list of items: " + err.Error(), "invalid_request_error"}
	}
	stored := rr.Store == nil || *rr.Store
	calls := map[string]bool{}
	var reasoning []string
	// assistant returns the assistant message items are being added to.
	assistant := func() int {
		if n := len(req.Messages); n == 0 || req.Messages[n-1].Role != "assistant" || len(reasoning) > 0 {
			m := textMessage("assistant", "")
			m.ReasoningContent = strings.Join(reasoning, "\n\n")
			req.Messages = append(req.Messages, m)
			reasoning = nil
		}
		return len(req.Messages) - 1
	}
	for i, it := range items {
		switch it.Type {
		case "message", "":
			content := contentText(it.Content)
			if it.Role == "assistant" {
				req.Messages[assistant()].Content += content
				continue
			}
			req.Messages = append(req.Messages, textMessage(it.Role, content))
		case "reasoning":
			if it.EncryptedContent == nil {
				if it.ID != "" && !stored {
					return req, &refusal{http.StatusNotFound, fmt.Sprintf("Item with id '%s' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.", it.ID), ""}
				}
				return req, &refusal{http.StatusBadRequest, fmt.Sprintf("input[%d]: a reasoning item needs its encrypted_content when store is false", i), "invalid_request_error"}
			}
			summary, ok := unseal(*it.EncryptedContent)
			if !ok {
				return req, &refusal{http.StatusBadRequest, fmt.Sprintf("input[%d]: The encrypted content could not be verified.", i), "invalid_encrypted_content"}
			}
			reasoning = append(reasoning, summary)
		case "function_call":
			m := &req.Messages[assistant()]
			m.ToolCalls = append(m.ToolCalls, toolCall(it.CallID, it.Name, it.Arguments))
			calls[it.CallID] = true
		case "function_call_output":
			if !calls[it.CallID] {
				return req, &refusal{http.StatusBadRequest, fmt.Sprintf("No tool call found for function call output with call_id %s.", it.CallID), "invalid_request_error"}
			}
			req.Messages = append(req.Messages, toolResult(it.CallID, it.Output))
		default:
			return req, &refusal{http.StatusBadRequest, fmt.Sprintf("input[%d]: unknown item type %q", i, it.Type), "invalid_request_error"}
		}
	}
	return req, nil
}

// contentText reads a message's content: a string, or a list of parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func (responsesWire) events(model string, resp Response) []string {
	var out []string
	add := func(v map[string]any) {
		v["sequence_number"] = len(out)
		b, err := json.Marshal(v)
		if err != nil {
			panic(err) // only strings, numbers, maps and slices: cannot fail
		}
		out = append(out, "event: "+v["type"].(string)+"\ndata: "+string(b)+"\n\n")
	}
	var output []any
	add(map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_test", "object": "response", "status": "in_progress", "model": model, "output": []any{}}})
	if len(resp.Reasoning) > 0 {
		i := len(output)
		summary := strings.Join(resp.Reasoning, "")
		item := map[string]any{"type": "reasoning", "id": "rs_test", "summary": []any{}}
		add(map[string]any{"type": "response.output_item.added", "output_index": i, "item": item})
		add(map[string]any{"type": "response.reasoning_summary_part.added", "output_index": i, "item_id": "rs_test", "summary_index": 0, "part": map[string]any{"type": "summary_text", "text": ""}})
		for _, r := range resp.Reasoning {
			add(map[string]any{"type": "response.reasoning_summary_text.delta", "output_index": i, "item_id": "rs_test", "summary_index": 0, "delta": r})
		}
		add(map[string]any{"type": "response.reasoning_summary_text.done", "output_index": i, "item_id": "rs_test", "summary_index": 0, "text": summary})
		done := map[string]any{"type": "reasoning", "id": "rs_test", "summary": []any{map[string]any{"type": "summary_text", "text": summary}}, "encrypted_content": seal(summary)}
		add(map[string]any{"type": "response.output_item.done", "output_index": i, "item": done})
		output = append(output, done)
	}
	if len(resp.Text) > 0 {
		i := len(output)
		text := strings.Join(resp.Text, "")
		add(map[string]any{"type": "response.output_item.added", "output_index": i, "item": map[string]any{"type": "message", "id": "msg_test", "role": "assistant", "status": "in_progress", "content": []any{}}})
		add(map[string]any{"type": "response.content_part.added", "output_index": i, "item_id": "msg_test", "content_index": 0, "part": map[string]any{"type": "output_text", "text": ""}})
		for _, t := range resp.Text {
			add(map[string]any{"type": "response.output_text.delta", "output_index": i, "item_id": "msg_test", "content_index": 0, "delta": t})
		}
		add(map[string]any{"type": "response.output_text.done", "output_index": i, "item_id": "msg_test", "content_index": 0, "text": text})
		done := map[string]any{"type": "message", "id": "msg_test", "role": "assistant", "status": "completed", "content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
		add(map[string]any{"type": "response.output_item.done", "output_index": i, "item": done})
		output = append(output, done)
	}
	for n, tc := range resp.ToolCalls {
		i := len(output)
		id := fmt.Sprintf("fc_test_%d", n)
		add(map[string]any{"type": "response.output_item.added", "output_index": i, "item": map[string]any{"type": "function_call", "id": id, "call_id": tc.ID, "name": tc.Name, "arguments": "", "status": "in_progress"}})
		for _, p := range splitN(tc.Arguments, tc.Split) {
			add(map[string]any{"type": "response.function_call_arguments.delta", "output_index": i, "item_id": id, "delta": p})
		}
		add(map[string]any{"type": "response.function_call_arguments.done", "output_index": i, "item_id": id, "arguments": tc.Arguments})
		done := map[string]any{"type": "function_call", "id": id, "call_id": tc.ID, "name": tc.Name, "arguments": tc.Arguments, "status": "completed"}
		add(map[string]any{"type": "response.output_item.done", "output_index": i, "item": done})
		output = append(output, done)
	}
	if resp.Fault == FaultNoFinish || resp.Fault == FaultError {
		return out
	}
	final := map[string]any{"id": "resp_test", "object": "response", "model": model, "status": "completed", "output": output}
	kind := "response.completed"
	switch resp.FinishReason {
	case "length":
		kind, final["status"], final["incomplete_details"] = "response.incomplete", "incomplete", map[string]any{"reason": "max_output_tokens"}
	case "content_filter":
		kind, final["status"], final["incomplete_details"] = "response.incomplete", "incomplete", map[string]any{"reason": "content_filter"}
	}
	if u := resp.Usage; u != nil {
		final["usage"] = map[string]any{
			"input_tokens": u.PromptTokens, "input_tokens_details": map[string]any{"cached_tokens": u.CacheReadTokens},
			"output_tokens": u.CompletionTokens, "output_tokens_details": map[string]any{"reasoning_tokens": u.ReasoningTokens},
			"total_tokens": u.PromptTokens + u.CompletionTokens,
		}
	}
	add(map[string]any{"type": kind, "response": final})
	return out
}

func (responsesWire) malformed() string {
	return "event: response.output_text.delta\ndata: {\"type\": \"response.output_text.delta\", \"delta\": \"oops\n\n"
}

func (responsesWire) failed(resp Response) string {
	code := resp.Code
	if code == "" {
		code = "server_error"
	}
	b, _ := json.Marshal(map[string]any{"type": "response.failed", "response": map[string]any{
		"id": "resp_test", "status": "failed", "error": map[string]string{"code": code, "message": resp.Error},
	}}) // strings only: cannot fail
	return "event: response.failed\ndata: " + string(b) + "\n\n"
}

func (responsesWire) done() string { return "" }

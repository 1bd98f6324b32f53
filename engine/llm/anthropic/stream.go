package anthropic

import (
	"encoding/json"
	"net/http"
	"sort"
	"strconv"

	"github.com/quire-sh/quire/engine/llm"
)

// event is one streamed event; which fields are set depends on Type.
type event struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message *struct {
		Usage *usage `json:"usage"`
	} `json:"message"`
	ContentBlock *struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		Thinking  string          `json:"thinking"`
		Signature string          `json:"signature"`
		Data      string          `json:"data"`
	} `json:"content_block"`
	Delta *struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		Signature   string `json:"signature"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *usage    `json:"usage"`
	Error *apiError `json:"error"`
}

type usage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
}

type apiError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// blockState is one content block being streamed.
type blockState struct {
	kind      string // text, thinking, redacted_thinking, tool_use
	id, name  string
	text      []byte // text, thinking, or a tool's input JSON
	signature string
	data      string
	stopped   bool
}

// decoder accumulates one message. Blocks are kept by index, so calls and
// thinking come out in the order the model wrote them.
type decoder struct {
	model     string
	text      []byte
	reasoning []byte
	blocks    map[int]*blockState
	usage     usage
	sawUsage  bool
	stop      string
	complete  bool
}

func newDecoder(model string) *decoder {
	return &decoder{model: model, blocks: map[int]*blockState{}}
}

// Event reads one event; message_stop ends the message and an error event
// ends it with an *llm.Error.
func (d *decoder) Event(data []byte) (llm.Delta, bool, error) {
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		return llm.Delta{}, false, llm.Malformed("the server sent a malformed event", data, err)
	}
	var out llm.Delta
	switch ev.Type {
	case "message_start":
		if ev.Message != nil && ev.Message.Usage != nil {
			d.addUsage(*ev.Message.Usage)
		}
	case "content_block_start":
		cb := ev.ContentBlock
		if cb == nil {
			break
		}
		b := &blockState{kind: cb.Type, id: cb.ID, name: cb.Name, signature: cb.Signature, data: cb.Data}
		d.blocks[ev.Index] = b
		switch cb.Type {
		case "text":
			out.Text = cb.Text
			b.text = append(b.text, cb.Text...)
		case "thinking":
			if cb.Thinking != "" {
				out.Reasoning = d.thinkingSeparator() + cb.Thinking
			}
			b.text = append(b.text, cb.Thinking...)
		case "tool_use":
			// The input arrives as input_json_delta fragments; the start
			// carries an empty object.
			if len(cb.Input) > 0 && string(cb.Input) != "{}" {
				b.text = append(b.text, cb.Input...)
			}
		}
	case "content_block_delta":
		b := d.blocks[ev.Index]
		if b == nil || ev.Delta == nil || b.stopped {
			break
		}
		switch ev.Delta.Type {
		case "text_delta":
			out.Text = ev.Delta.Text
			b.text = append(b.text, ev.Delta.Text...)
		case "thinking_delta":
			if len(b.text) == 0 {
				out.Reasoning = d.thinkingSeparator()
			}
			out.Reasoning += ev.Delta.Thinking
			b.text = append(b.text, ev.Delta.Thinking...)
		case "signature_delta":
			b.signature += ev.Delta.Signature
		case "input_json_delta":
			b.text = append(b.text, ev.Delta.PartialJSON...)
		}
	case "content_block_stop":
		if b := d.blocks[ev.Index]; b != nil {
			b.stopped = true
		}
	case "message_delta":
		if ev.Delta != nil && ev.Delta.StopReason != "" {
			d.stop = ev.Delta.StopReason
		}
		if ev.Usage != nil {
			d.addUsage(*ev.Usage)
		}
	case "message_stop":
		d.complete = true
		return d.add(out), true, nil
	case "error":
		if ev.Error == nil {
			ev.Error = &apiError{Type: "api_error", Message: "the server reported an error"}
		}
		return d.add(out), false, streamError(*ev.Error)
	}
	return d.add(out), false, nil
}

// thinkingSeparator parts the thinking of a new block from the thinking
// already shown.
func (d *decoder) thinkingSeparator() string {
	if len(d.reasoning) > 0 {
		return "\n\n"
	}
	return ""
}

// addUsage takes the counts an event reports; message_delta's are
// cumulative, so a later non-zero count replaces an earlier one.
func (d *decoder) addUsage(u usage) {
	d.sawUsage = true
	if u.InputTokens > 0 {
		d.usage.InputTokens = u.InputTokens
	}
	if u.CacheCreationInputTokens > 0 {
		d.usage.CacheCreationInputTokens = u.CacheCreationInputTokens
	}
	if u.CacheReadInputTokens > 0 {
		d.usage.CacheReadInputTokens = u.CacheReadInputTokens
	}
	if u.OutputTokens > 0 {
		d.usage.OutputTokens = u.OutputTokens
	}
}

func (d *decoder) add(out llm.Delta) llm.Delta {
	d.text = append(d.text, out.Text...)
	d.reasoning = append(d.reasoning, out.Reasoning...)
	return out
}

// End fails a message whose stream closed before message_stop.
func (d *decoder) End() (llm.Delta, error) {
	if !d.complete {
		return llm.Delta{}, &llm.Error{Kind: llm.KindStream, Detail: "the stream ended before the answer was complete"}
	}
	return llm.Delta{}, nil
}

// Whole reads a message that was not streamed.
func (d *decoder) Whole(body []byte) (llm.Delta, error) {
	var m struct {
		Type       string            `json:"type"`
		Content    []json.RawMessage `json:"content"`
		StopReason string            `json:"stop_reason"`
		Usage      *usage            `json:"usage"`
		Error      *apiError         `json:"error"`
	}
	if err := json.Unmarshal(body, &m); err != nil || (m.Type != "message" && m.Error == nil) {
		return llm.Delta{}, &llm.Error{Kind: llm.KindStream, Detail: "the server sent a response that is not an Anthropic message: " + llm.Clip(string(body), 80), Err: err}
	}
	if m.Error != nil {
		return llm.Delta{}, streamError(*m.Error)
	}
	var out llm.Delta
	for i, raw := range m.Content {
		// Each block is read as its start event would carry it whole.
		start, _ := json.Marshal(map[string]any{"type": "content_block_start", "index": i, "content_block": json.RawMessage(raw)})
		x, _, _ := d.Event(start)
		out.Text += x.Text
		out.Reasoning += x.Reasoning
		if b := d.blocks[i]; b != nil {
			var whole struct {
				Input json.RawMessage `json:"input"`
			}
			if b.kind == "tool_use" && json.Unmarshal(raw, &whole) == nil {
				b.text = append([]byte(nil), whole.Input...)
			}
			b.stopped = true
		}
	}
	if m.Usage != nil {
		d.addUsage(*m.Usage)
	}
	d.stop = m.StopReason
	d.complete = true
	return out, nil
}

// Response is the message read so far.
func (d *decoder) Response() llm.Response {
	r := llm.Response{Text: string(d.text), Reasoning: string(d.reasoning), FinishReason: finishReason(d.stop)}
	if d.sawUsage {
		u := d.usage
		prompt := u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
		r.Usage = &llm.Usage{
			PromptTokens: prompt, CompletionTokens: u.OutputTokens, TotalTokens: prompt + u.OutputTokens,
			CacheReadTokens: u.CacheReadInputTokens, CacheWriteTokens: u.CacheCreationInputTokens,
		}
	}
	idx := make([]int, 0, len(d.blocks))
	for i := range d.blocks {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for n, i := range idx {
		b := d.blocks[i]
		switch b.kind {
		case "tool_use":
			id := b.id
			if id == "" {
				id = "toolu_" + strconv.Itoa(n)
			}
			args := string(b.text)
			if args == "" {
				args = "{}"
			}
			r.ToolCalls = append(r.ToolCalls, llm.ToolCall{ID: id, Name: b.name, Arguments: args})
		case "thinking":
			// A thinking block without its signature cannot be sent back.
			if b.signature == "" || !b.stopped {
				continue
			}
			raw, _ := json.Marshal(map[string]string{"type": "thinking", "thinking": string(b.text), "signature": b.signature})
			r.State = append(r.State, d.state(raw))
		case "redacted_thinking":
			if b.data == "" {
				continue
			}
			raw, _ := json.Marshal(map[string]string{"type": "redacted_thinking", "data": b.data})
			r.State = append(r.State, d.state(raw))
		}
	}
	return r
}

func (d *decoder) state(block json.RawMessage) llm.ReasoningState {
	data, _ := json.Marshal(savedThinking{Model: d.model, Block: block}) // raw JSON always marshals
	return llm.ReasoningState{Protocol: Protocol, Data: data}
}

// finishReason normalises a stop_reason.
func finishReason(stop string) string {
	switch stop {
	case "end_turn", "stop_sequence":
		return llm.FinishStop
	case "tool_use":
		return llm.FinishToolCalls
	case "max_tokens", "model_context_window_exceeded":
		return llm.FinishLength
	case "refusal":
		return llm.FinishContentFilter
	}
	return stop
}

// streamError classifies an error event by its type, as the same error
// would be classified had it come as an HTTP status.
func streamError(e apiError) *llm.Error {
	status := http.StatusInternalServerError
	switch e.Type {
	case "invalid_request_error":
		status = http.StatusBadRequest
	case "authentication_error":
		status = http.StatusUnauthorized
	case "permission_error":
		status = http.StatusForbidden
	case "not_found_error":
		status = http.StatusNotFound
	case "request_too_large":
		status = http.StatusRequestEntityTooLarge
	case "rate_limit_error":
		status = http.StatusTooManyRequests
	case "overloaded_error":
		status = 529
	}
	body, _ := json.Marshal(map[string]any{"type": "error", "error": e}) // strings always marshal
	return classify(status, nil, body)
}

// classify is llm.Classify with what the Messages API says differently:
// an exhausted credit balance is a 400.
func classify(status int, h http.Header, body []byte) *llm.Error {
	e := llm.Classify(status, h, body)
	if e.Kind == llm.KindInvalidRequest && containsFold(string(body), "credit balance") {
		e.Kind = llm.KindQuota
	}
	return e
}

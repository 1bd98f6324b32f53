package responses

import (
	"encoding/json"
	"sort"

	"github.com/quire-sh/quire/engine/llm"
)

// event is one streamed event of the Responses API; which fields are set
// depends on Type.
type event struct {
	Type         string          `json:"type"`
	OutputIndex  int             `json:"output_index"`
	SummaryIndex int             `json:"summary_index"`
	Delta        string          `json:"delta"`
	Arguments    *string         `json:"arguments"`
	Item         json.RawMessage `json:"item"`
	Response     *response       `json:"response"`
	// The fields of an "error" event.
	Code    json.RawMessage `json:"code"`
	Message string          `json:"message"`
}

// response is the response object of response.completed, .incomplete and
// .failed, and of an answer that was not streamed.
type response struct {
	Status            string            `json:"status"`
	Output            []json.RawMessage `json:"output"`
	Usage             *usage            `json:"usage"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type usage struct {
	InputTokens        int `json:"input_tokens"`
	InputTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputTokens        int `json:"output_tokens"`
	OutputTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
	TotalTokens int `json:"total_tokens"`
}

// item is an output item: a message, a function call or a reasoning item.
type item struct {
	Type      string `json:"type"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Content   []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	} `json:"content"`
	Summary []struct {
		Text string `json:"text"`
	} `json:"summary"`
}

// decoder accumulates one answer. Output items are kept by output_index,
// so calls come out in the order the model made them whatever order
// their fragments arrive in.
type decoder struct {
	model     string
	text      []byte
	reasoning []byte
	// textOf is the text streamed per message item, so a message item
	// whose text never streamed can still be shown when it is done.
	textOf   map[int]int
	calls    map[int]*llm.PartialCall
	states   map[int]json.RawMessage
	summary  map[int]int // the latest summary part seen per reasoning item
	finish   string
	usage    *llm.Usage
	complete bool
}

func newDecoder(model string) *decoder {
	return &decoder{model: model, textOf: map[int]int{}, calls: map[int]*llm.PartialCall{}, states: map[int]json.RawMessage{}, summary: map[int]int{}}
}

// Event reads one event; response.completed and response.incomplete end
// the answer, response.failed and error end it with an *llm.Error.
func (d *decoder) Event(data []byte) (llm.Delta, bool, error) {
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		return llm.Delta{}, false, llm.Malformed("the server sent a malformed event", data, err)
	}
	var out llm.Delta
	switch ev.Type {
	case "response.output_text.delta", "response.refusal.delta":
		out.Text = ev.Delta
		d.textOf[ev.OutputIndex] += len(ev.Delta)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		// Parts of one summary are paragraphs of their own.
		if last, seen := d.summary[ev.OutputIndex]; seen && last != ev.SummaryIndex {
			out.Reasoning = "\n\n"
		} else if !seen && len(d.reasoning) > 0 {
			out.Reasoning = "\n\n"
		}
		d.summary[ev.OutputIndex] = ev.SummaryIndex
		out.Reasoning += ev.Delta
	case "response.output_item.added":
		d.itemAdded(ev.OutputIndex, ev.Item)
	case "response.function_call_arguments.delta":
		if b := d.call(ev.OutputIndex); !b.Done {
			b.Args = append(b.Args, ev.Delta...)
		}
	case "response.function_call_arguments.done":
		if ev.Arguments != nil {
			b := d.call(ev.OutputIndex)
			b.Args = []byte(*ev.Arguments)
		}
	case "response.output_item.done":
		out = d.itemDone(ev.OutputIndex, ev.Item)
	case "response.completed", "response.incomplete":
		if ev.Response != nil {
			d.finished(ev.Response)
		}
		d.complete = true
		return d.add(out), true, nil
	case "response.failed":
		if ev.Response != nil && ev.Response.Error != nil {
			return d.add(out), false, streamError(ev.Response.Error.Code, ev.Response.Error.Message)
		}
		return d.add(out), false, streamError("", "the response failed")
	case "error":
		return d.add(out), false, streamError(codeString(ev.Code), ev.Message)
	}
	return d.add(out), false, nil
}

// add records what is shown.
func (d *decoder) add(out llm.Delta) llm.Delta {
	d.text = append(d.text, out.Text...)
	d.reasoning = append(d.reasoning, out.Reasoning...)
	return out
}

func (d *decoder) call(i int) *llm.PartialCall {
	b := d.calls[i]
	if b == nil {
		b = &llm.PartialCall{}
		d.calls[i] = b
	}
	return b
}

func (d *decoder) itemAdded(i int, raw json.RawMessage) {
	var it item
	if json.Unmarshal(raw, &it) != nil || it.Type != "function_call" {
		return
	}
	b := d.call(i)
	b.ID, b.Name = it.CallID, it.Name
	if len(b.Args) == 0 {
		b.Args = append(b.Args, it.Arguments...)
	}
}

// itemDone takes a finished item as authoritative: a call's id, name and
// whole arguments, a reasoning item to send back, and a message's text
// if none of it streamed.
func (d *decoder) itemDone(i int, raw json.RawMessage) llm.Delta {
	var it item
	if json.Unmarshal(raw, &it) != nil {
		return llm.Delta{}
	}
	switch it.Type {
	case "function_call":
		b := d.call(i)
		if it.CallID != "" {
			b.ID = it.CallID
		}
		if it.Name != "" {
			b.Name = it.Name
		}
		b.Args = []byte(it.Arguments)
		b.Done = true
	case "reasoning":
		d.states[i] = append(json.RawMessage(nil), raw...)
		if _, streamed := d.summary[i]; !streamed {
			var text []byte
			for _, s := range it.Summary {
				if len(text) > 0 {
					text = append(text, "\n\n"...)
				}
				text = append(text, s.Text...)
			}
			if len(text) > 0 && len(d.reasoning) > 0 {
				text = append([]byte("\n\n"), text...)
			}
			d.summary[i] = 0
			return llm.Delta{Reasoning: string(text)}
		}
	case "message":
		if d.textOf[i] > 0 {
			return llm.Delta{}
		}
		var text string
		for _, c := range it.Content {
			text += c.Text + c.Refusal
		}
		d.textOf[i] = len(text)
		return llm.Delta{Text: text}
	}
	return llm.Delta{}
}

// finished reads the closing response object: usage and why it stopped.
func (d *decoder) finished(r *response) {
	if u := r.Usage; u != nil {
		d.usage = &llm.Usage{
			PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.TotalTokens,
			CacheReadTokens: u.InputTokensDetails.CachedTokens, ReasoningTokens: u.OutputTokensDetails.ReasoningTokens,
		}
		if d.usage.TotalTokens == 0 {
			d.usage.TotalTokens = u.InputTokens + u.OutputTokens
		}
	}
	switch r.Status {
	case "incomplete":
		d.finish = "incomplete"
		if r.IncompleteDetails != nil {
			switch r.IncompleteDetails.Reason {
			case "max_output_tokens":
				d.finish = llm.FinishLength
			case "content_filter":
				d.finish = llm.FinishContentFilter
			default:
				d.finish = r.IncompleteDetails.Reason
			}
		}
	default:
		d.finish = llm.FinishStop
	}
}

// End fails an answer whose stream closed before it was complete.
func (d *decoder) End() (llm.Delta, error) {
	if !d.complete {
		return llm.Delta{}, &llm.Error{Kind: llm.KindStream, Detail: "the stream ended before the answer was complete"}
	}
	return llm.Delta{}, nil
}

// Whole reads an answer that was not streamed: a response object.
func (d *decoder) Whole(body []byte) (llm.Delta, error) {
	var r response
	if err := json.Unmarshal(body, &r); err != nil || (r.Output == nil && r.Status == "") {
		return llm.Delta{}, &llm.Error{Kind: llm.KindStream, Detail: "the server sent a response that is not a Responses API object: " + llm.Clip(string(body), 80), Err: err}
	}
	if r.Status == "failed" && r.Error != nil {
		return llm.Delta{}, streamError(r.Error.Code, r.Error.Message)
	}
	var out llm.Delta
	for i, raw := range r.Output {
		var it item
		if json.Unmarshal(raw, &it) == nil && it.Type == "function_call" {
			d.itemAdded(i, raw)
		}
		dd := d.itemDone(i, raw)
		out.Text += dd.Text
		out.Reasoning += dd.Reasoning
	}
	d.finished(&r)
	d.complete = true
	return d.add(out), nil
}

// Response is the answer read so far.
func (d *decoder) Response() llm.Response {
	r := llm.Response{Text: string(d.text), Reasoning: string(d.reasoning), Usage: d.usage, FinishReason: d.finish}
	r.ToolCalls = llm.AssembleCalls(d.calls)
	if len(r.ToolCalls) > 0 && d.finish == llm.FinishStop {
		r.FinishReason = llm.FinishToolCalls
	}
	idx := make([]int, 0, len(d.states))
	for i := range d.states {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		data, _ := json.Marshal(savedReasoning{Model: d.model, Item: d.states[i]}) // raw JSON always marshals
		r.State = append(r.State, llm.ReasoningState{Protocol: Protocol, Data: data})
	}
	return r
}

// streamError classifies an error the server reported inside the stream.
func streamError(code, message string) *llm.Error {
	status := 400
	switch code {
	case "server_error", "internal_error", "server_is_overloaded", "slow_down", "":
		status = 500
	case "rate_limit_exceeded":
		status = 429
	}
	body, _ := json.Marshal(map[string]any{"error": map[string]string{"code": code, "message": message}}) // strings always marshal
	return llm.Classify(status, nil, body)
}

func codeString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

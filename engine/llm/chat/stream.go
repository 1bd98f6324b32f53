package chat

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"

	openai "github.com/sashabaranov/go-openai"

	"github.com/quire-sh/quire/engine/llm"
)

// chunk is one streamed chat.completion.chunk. go-openai's type is not
// used because it knows only "reasoning_content"; servers also send the
// reasoning as "reasoning" (a string, or an object with "text").
type chunk struct {
	Choices []struct {
		Delta struct {
			Content          string            `json:"content"`
			ReasoningContent string            `json:"reasoning_content"`
			Reasoning        json.RawMessage   `json:"reasoning"`
			ToolCalls        []openai.ToolCall `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *openai.Usage   `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// assembler accumulates a stream into a Response. Tool calls arrive as
// fragments keyed by index: the first fragment carries the id and name,
// later ones append to the arguments.
type assembler struct {
	text, reasoning []byte
	calls           map[int]*callBuilder
	lastIndex       int
	finish          string
	usage           *llm.Usage
	think           thinkSplitter
}

type callBuilder struct {
	id, name string
	args     []byte
}

// Event reads one chat.completion.chunk; "[DONE]" ends the answer.
func (a *assembler) Event(data []byte) (llm.Delta, bool, error) {
	if string(bytes.TrimSpace(data)) == "[DONE]" {
		return llm.Delta{}, true, nil
	}
	d, err := a.add(data)
	return d, false, err
}

// End accepts a stream that closed without "[DONE]" once a choice has
// finished (some servers omit it) and releases held-back text.
func (a *assembler) End() (llm.Delta, error) {
	if a.finish == "" {
		return llm.Delta{}, &llm.Error{Kind: llm.KindStream, Detail: "the stream ended before the answer was complete"}
	}
	return a.flush(), nil
}

func (a *assembler) add(data []byte) (llm.Delta, error) {
	var c chunk
	if err := json.Unmarshal(data, &c); err != nil {
		return llm.Delta{}, &llm.Error{Kind: llm.KindStream, Detail: "the server sent a malformed event: " + llm.Clip(string(data), 80), Err: err}
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		e := llm.Classify(http400or500(c.Error), nil, []byte(`{"error":`+string(c.Error)+`}`))
		return llm.Delta{}, e
	}
	if c.Usage != nil {
		a.usage = &llm.Usage{PromptTokens: c.Usage.PromptTokens, CompletionTokens: c.Usage.CompletionTokens, TotalTokens: c.Usage.TotalTokens}
	}
	var d llm.Delta
	if len(c.Choices) == 0 {
		return d, nil
	}
	ch := c.Choices[0]
	text, inline := a.think.feed(ch.Delta.Content)
	d.Text = text
	d.Reasoning = ch.Delta.ReasoningContent + reasoningText(ch.Delta.Reasoning) + inline
	a.text = append(a.text, d.Text...)
	a.reasoning = append(a.reasoning, d.Reasoning...)
	for _, tc := range ch.Delta.ToolCalls {
		a.addCall(tc)
	}
	if ch.FinishReason != "" {
		a.finish = ch.FinishReason
	}
	return d, nil
}

func (a *assembler) addCall(tc openai.ToolCall) {
	if a.calls == nil {
		a.calls = map[int]*callBuilder{}
	}
	var idx int
	switch {
	case tc.Index != nil:
		idx = *tc.Index
	case tc.ID != "":
		// No index: a new id starts a new call.
		idx = len(a.calls)
		for i, b := range a.calls {
			if b.id == tc.ID {
				idx = i
			}
		}
	default:
		idx = a.lastIndex
	}
	a.lastIndex = idx
	b := a.calls[idx]
	if b == nil {
		b = &callBuilder{}
		a.calls[idx] = b
	}
	if tc.ID != "" {
		b.id = tc.ID
	}
	// Most servers send the name once; some repeat it whole in every
	// fragment; a few split it.
	if n := tc.Function.Name; n != "" && n != b.name {
		b.name += n
	}
	b.args = append(b.args, tc.Function.Arguments...)
}

// flush ends the stream: text held back in case it began a tag is
// released.
func (a *assembler) flush() llm.Delta {
	text, reasoning := a.think.finish()
	a.text = append(a.text, text...)
	a.reasoning = append(a.reasoning, reasoning...)
	return llm.Delta{Text: text, Reasoning: reasoning}
}

// Response is the answer assembled so far.
func (a *assembler) Response() llm.Response {
	r := llm.Response{Text: string(a.text), Reasoning: string(a.reasoning), FinishReason: a.finish, Usage: a.usage}
	idx := make([]int, 0, len(a.calls))
	for i := range a.calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for n, i := range idx {
		b := a.calls[i]
		id := b.id
		if id == "" {
			id = "call_" + strconv.Itoa(n)
		}
		r.ToolCalls = append(r.ToolCalls, llm.ToolCall{ID: id, Name: b.name, Arguments: string(b.args)})
	}
	return r
}

// reasoningText reads a "reasoning" field that is a string or an object
// with a text field.
func reasoningText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Text    string `json:"text"`
		Content string `json:"content"`
	}
	if json.Unmarshal(raw, &o) == nil {
		return o.Text + o.Content
	}
	return ""
}

// http400or500 guesses a status for an error sent inside a 200 stream:
// one that names a code below 500 is the request's fault.
func http400or500(raw json.RawMessage) int {
	var v struct {
		Code any `json:"code"`
	}
	if json.Unmarshal(raw, &v) == nil {
		switch c := v.Code.(type) {
		case float64:
			if c >= 400 && c < 600 {
				return int(c)
			}
		case string:
			if n, err := strconv.Atoi(c); err == nil && n >= 400 && n < 600 {
				return n
			}
			if c != "" {
				return 400
			}
		}
	}
	return 500
}

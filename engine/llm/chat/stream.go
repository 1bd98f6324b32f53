package chat

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/quire-sh/quire/engine/llm"
)

// chunk is one streamed chat.completion.chunk, decoded with types of this
// package rather than go-openai's: servers disagree on the shape of
// several fields (content as a string or a list of typed parts, reasoning
// under two names, usage at the top or under x_groq), and a field of an
// unexpected shape must cost that field, not the whole event.
type chunk struct {
	Choices []choice        `json:"choices"`
	Usage   json.RawMessage `json:"usage"`
	XGroq   struct {
		Usage json.RawMessage `json:"usage"`
	} `json:"x_groq"`
	Error json.RawMessage `json:"error"`
}

// choice is one of a chunk's choices; only the first is read.
type choice struct {
	Delta        message         `json:"delta"`
	FinishReason json.RawMessage `json:"finish_reason"`
}

// message is a streamed delta or a whole answer's message.
type message struct {
	// Content is a string, or a list of typed parts (Mistral's reasoning
	// models send text and thinking parts), or null.
	Content          json.RawMessage `json:"content"`
	Refusal          json.RawMessage `json:"refusal"`
	ReasoningContent json.RawMessage `json:"reasoning_content"`
	Reasoning        json.RawMessage `json:"reasoning"`
	ToolCalls        []toolCall      `json:"tool_calls"`
}

// toolCall is one fragment of a streamed tool call (or a whole one). The
// index and the arguments are read leniently (an index written as a
// string, arguments sent as a JSON object rather than a string of JSON).
type toolCall struct {
	Index    json.RawMessage `json:"index"`
	ID       string          `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// index is the call's index, and whether it has one.
func (tc toolCall) index() (int, bool) {
	s := strings.Trim(string(trimJSON(tc.Index)), `"`)
	if s == "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// arguments is the fragment of the arguments' text this part carries.
func (tc toolCall) arguments() string {
	raw := trimJSON(tc.Function.Arguments)
	if len(raw) > 0 && raw[0] == '"' {
		return stringOf(raw)
	}
	return string(raw)
}

// assembler accumulates a stream into a Response. Tool calls arrive as
// fragments keyed by index: the first fragment carries the id and name,
// later ones append to the arguments.
type assembler struct {
	text, reasoning []byte
	calls           map[int]*llm.PartialCall
	lastIndex       int
	finish          string
	usage           *llm.Usage
	think           thinkSplitter
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
	if !c.decodeUsual(data) {
		c = chunk{}
		if err := json.Unmarshal(data, &c); err != nil {
			return llm.Delta{}, llm.Malformed("the server sent a malformed event", data, err)
		}
	}
	// Usage first: a server may send it on the same chunk as an error,
	// and what was spent is worth keeping either way.
	if u := readUsage(c.Usage); u != nil {
		a.usage = u
	} else if u := readUsage(c.XGroq.Usage); u != nil && a.usage == nil {
		a.usage = u
	}
	if e := streamError(c.Error); e != nil {
		return llm.Delta{}, e
	}
	var d llm.Delta
	if len(c.Choices) == 0 {
		return d, nil
	}
	ch := c.Choices[0]
	d = a.addMessage(ch.Delta)
	if f := finishReason(ch.FinishReason); f != "" {
		a.finish = f
		if f == finishError {
			return d, &llm.Error{Kind: llm.KindStream, Detail: `the server ended the answer with finish reason "error"`}
		}
	}
	return d, nil
}

// addMessage takes what one delta (or a whole message) adds: visible text,
// reasoning and tool-call fragments.
func (a *assembler) addMessage(m message) llm.Delta {
	var d llm.Delta
	text, thinking := contentText(m.Content)
	shown, inline := a.think.feed(text + stringOf(m.Refusal))
	d.Text = shown
	d.Reasoning = reasoningText(m.ReasoningContent) + reasoningText(m.Reasoning) + thinking + inline
	a.text = append(a.text, d.Text...)
	a.reasoning = append(a.reasoning, d.Reasoning...)
	for _, tc := range m.ToolCalls {
		a.addCall(tc)
	}
	return d
}

func (a *assembler) addCall(tc toolCall) {
	if a.calls == nil {
		a.calls = map[int]*llm.PartialCall{}
	}
	idx, indexed := tc.index()
	switch {
	case indexed:
	case tc.ID != "":
		// No index: a new id starts a new call.
		idx = len(a.calls)
		for i, b := range a.calls {
			if b.ID == tc.ID {
				idx = i
			}
		}
	default:
		idx = a.lastIndex
	}
	a.lastIndex = idx
	b := a.calls[idx]
	if b == nil {
		b = &llm.PartialCall{}
		a.calls[idx] = b
	}
	if tc.ID != "" {
		b.ID = tc.ID
	}
	// Most servers send the name once; some repeat it whole in every
	// fragment; a few split it.
	if n := tc.Function.Name; n != "" && n != b.Name {
		b.Name += n
	}
	b.Args = append(b.Args, tc.arguments()...)
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
	r.ToolCalls = llm.AssembleCalls(a.calls)
	return r
}

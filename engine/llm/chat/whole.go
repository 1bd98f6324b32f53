package chat

import (
	"encoding/json"
	"strconv"

	"github.com/quire-sh/quire/engine/llm"
)

// Whole reads a non-streamed chat completion: its text arrives in one
// piece.
func (a *assembler) Whole(b []byte) (llm.Delta, error) {
	var r struct {
		Choices []struct {
			Message      message         `json:"message"`
			FinishReason json.RawMessage `json:"finish_reason"`
		} `json:"choices"`
		Usage json.RawMessage `json:"usage"`
		XGroq struct {
			Usage json.RawMessage `json:"usage"`
		} `json:"x_groq"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return llm.Delta{}, llm.Malformed("the server sent a response that is not a chat completion", b, err)
	}
	if a.usage = readUsage(r.Usage); a.usage == nil {
		a.usage = readUsage(r.XGroq.Usage)
	}
	if e := streamError(r.Error); e != nil {
		return llm.Delta{}, e
	}
	if len(r.Choices) == 0 {
		return llm.Delta{}, llm.Malformed("the server sent a response that is not a chat completion", b, nil)
	}
	ch := r.Choices[0]
	for i := range ch.Message.ToolCalls {
		// Whole calls: each is its own, whatever index the server wrote.
		ch.Message.ToolCalls[i].Index = json.RawMessage(strconv.Itoa(i))
	}
	d := a.addMessage(ch.Message)
	a.finish = finishReason(ch.FinishReason)
	rest := a.flush()
	d.Text += rest.Text
	d.Reasoning += rest.Reasoning
	return d, nil
}

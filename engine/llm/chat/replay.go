package chat

import (
	"net/url"
	"strings"

	"github.com/quire-sh/quire/engine/llm"
)

// Replay says which assistant messages of a request carry back, as
// "reasoning_content", the reasoning the model wrote before them
// (llm.Message.Reasoning, kept in the history).
type Replay int

const (
	// ReplayNever sends no reasoning back. Most servers would ignore it,
	// and strict ones (OpenAI, Groq) refuse a message field they do not
	// know, so it is the default.
	ReplayNever Replay = iota
	// ReplayToolExchanges sends it on the assistant messages of every
	// exchange — the messages between two user messages — in which the
	// model called a tool, in every later request. DeepSeek's thinking
	// mode refuses a request without it there (HTTP 400) and ignores it
	// elsewhere.
	ReplayToolExchanges
	// ReplayAlways sends it on every assistant message that has some.
	ReplayAlways
)

// DefaultReplay is the rule for a server that was given none: DeepSeek's
// own API, or a model named as one of DeepSeek's thinking models with
// tool use (deepseek-reasoner, deepseek-v3.1 and later, under any
// gateway's "vendor/" prefix), gets ReplayToolExchanges; everything else,
// the distilled "deepseek-r1-distill-…" models served by strict hosts
// included, ReplayNever.
func DefaultReplay(baseURL, model string) Replay {
	if u, err := url.Parse(baseURL); err == nil {
		host := strings.ToLower(u.Hostname())
		if host == "deepseek.com" || strings.HasSuffix(host, ".deepseek.com") {
			return ReplayToolExchanges
		}
	}
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	if !strings.HasPrefix(m, "deepseek-") || strings.Contains(m, "distill") {
		return ReplayNever
	}
	for _, v := range []string{"reasoner", "v3.1", "v3.2", "v4"} {
		if strings.Contains(m, v) {
			return ReplayToolExchanges
		}
	}
	return ReplayNever
}

// replayed marks the messages of msgs whose reasoning goes back under
// rule r.
func replayed(msgs []llm.Message, r Replay) []bool {
	out := make([]bool, len(msgs))
	switch r {
	case ReplayAlways:
		for i, m := range msgs {
			out[i] = m.Role == llm.RoleAssistant && m.Reasoning != ""
		}
	case ReplayToolExchanges:
		for start := 0; start < len(msgs); {
			end := start + 1
			for end < len(msgs) && msgs[end].Role != llm.RoleUser {
				end++
			}
			tools := false
			for _, m := range msgs[start:end] {
				tools = tools || (m.Role == llm.RoleAssistant && len(m.Calls) > 0)
			}
			for i := start; i < end && tools; i++ {
				out[i] = msgs[i].Role == llm.RoleAssistant && msgs[i].Reasoning != ""
			}
			start = end
		}
	}
	return out
}

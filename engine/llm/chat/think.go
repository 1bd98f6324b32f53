package chat

import "strings"

// thinkSplitter moves reasoning that a model writes inline in its answer
// — "<think>…</think>", as DeepSeek, Qwen and MiniMax served through
// OpenAI-compatible servers do — out of the visible text. It works on a
// stream: a suffix that may be the start of a tag ("<th") is held back
// until the next fragment shows what it is.
type thinkSplitter struct {
	thinking bool
	held     string
}

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// feed splits the next fragment into visible text and reasoning.
func (t *thinkSplitter) feed(s string) (text, reasoning string) {
	buf := t.held + s
	t.held = ""
	var out, think strings.Builder
	lane := func() *strings.Builder {
		if t.thinking {
			return &think
		}
		return &out
	}
	for buf != "" {
		tag := thinkOpen
		if t.thinking {
			tag = thinkClose
		}
		if i := strings.Index(buf, tag); i >= 0 {
			lane().WriteString(buf[:i])
			buf = buf[i+len(tag):]
			t.thinking = !t.thinking
			continue
		}
		keep := partialSuffix(buf, tag)
		lane().WriteString(buf[:len(buf)-keep])
		t.held = buf[len(buf)-keep:]
		break
	}
	return out.String(), think.String()
}

// finish flushes held-back text to the lane it was in.
func (t *thinkSplitter) finish() (text, reasoning string) {
	h := t.held
	t.held = ""
	if t.thinking {
		return "", h
	}
	return h, ""
}

// partialSuffix is the length of the longest suffix of s that is a proper
// prefix of tag.
func partialSuffix(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasPrefix(tag, s[len(s)-n:]) {
			return n
		}
	}
	return 0
}

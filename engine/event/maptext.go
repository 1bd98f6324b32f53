package event

import (
	"bytes"
	"encoding/json"
)

// MapText returns e with f applied to every text a person or a tool
// wrote: the event's text, the session's working directory, tool call
// targets and every string inside their JSON arguments, approval previews
// and reasons, tool outputs and diffs, turn errors, compaction summaries
// and what a subagent report says of its task. It is how a transcript is redacted before it is shared. e
// itself is not changed; fields f leaves alone keep their memory (and
// arguments their exact bytes).
func (e Event) MapText(f func(string) string) Event {
	e.Text = f(e.Text)
	if s := e.Session; s != nil {
		c := *s
		c.Cwd = f(c.Cwd)
		if p := c.Parent; p != nil {
			cp := *p
			cp.Description = f(cp.Description)
			c.Parent = &cp
		}
		e.Session = &c
	}
	if len(e.Calls) > 0 {
		calls := make([]ToolCall, len(e.Calls))
		for i, c := range e.Calls {
			calls[i] = c.mapText(f)
		}
		e.Calls = calls
	}
	if e.Call != nil {
		c := e.Call.mapText(f)
		e.Call = &c
	}
	if a := e.Approval; a != nil {
		c := *a
		c.Target, c.Preview, c.Reason = f(c.Target), f(c.Preview), f(c.Reason)
		e.Approval = &c
	}
	if r := e.Result; r != nil {
		c := *r
		c.Output, c.Diff = f(c.Output), f(c.Diff)
		e.Result = &c
	}
	if end := e.End; end != nil {
		c := *end
		c.Error = f(c.Error)
		e.End = &c
	}
	if sa := e.Subagent; sa != nil {
		c := *sa
		c.Description, c.Target, c.Error = f(c.Description), f(c.Target), f(c.Error)
		e.Subagent = &c
	}
	if cp := e.Compaction; cp != nil {
		c := *cp
		c.Summary, c.Focus = f(c.Summary), f(c.Focus)
		e.Compaction = &c
	}
	return e
}

func (c ToolCall) mapText(f func(string) string) ToolCall {
	c.Target = f(c.Target)
	c.Arguments = mapJSONStrings(c.Arguments, f)
	return c
}

// mapJSONStrings applies f to every string value (and key) in raw. raw is
// returned as it is when f changes nothing or raw is not JSON (then f is
// applied to the text as a whole).
func mapJSONStrings(raw json.RawMessage, f func(string) string) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if s := f(string(raw)); s != string(raw) {
			out, _ := json.Marshal(s) // still JSON, as the field must be
			return out
		}
		return raw
	}
	changed := false
	v = walkStrings(v, f, &changed)
	if !changed {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

func walkStrings(v any, f func(string) string, changed *bool) any {
	switch x := v.(type) {
	case string:
		if s := f(x); s != x {
			*changed = true
			return s
		}
		return x
	case []any:
		for i := range x {
			x[i] = walkStrings(x[i], f, changed)
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			nk := f(k)
			if nk != k {
				*changed = true
			}
			out[nk] = walkStrings(val, f, changed)
		}
		return out
	}
	return v
}

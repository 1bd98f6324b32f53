package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/tools"
)

// prepareCalls checks each call the model made and plans the valid ones.
func (s *Session) prepareCalls(raw []llm.ToolCall) []*callState {
	out := make([]*callState, 0, len(raw))
	seen := map[string]bool{}
	for i, tc := range raw {
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("call_%d", i+1)
		}
		for n, base := 2, id; seen[id]; n++ {
			id = fmt.Sprintf("%s_%d", base, n)
		}
		seen[id] = true
		c := &callState{call: event.ToolCall{ID: id, Name: tc.Name, Arguments: decodeArguments(tc.Arguments)}}
		out = append(out, c)
		tool, ok := s.cfg.Tools.Lookup(tc.Name)
		if !ok {
			var names []string
			for _, sp := range s.cfg.Tools.Specs() {
				names = append(names, sp.Name)
			}
			c.problem = fmt.Sprintf("error: there is no tool named %q; the available tools are: %s", tc.Name, strings.Join(names, ", "))
			continue
		}
		c.tool, c.spec = tool, tool.Spec()
		c.call.ToolKind = string(c.spec.Kind)
		if why, ok := argumentsObject(c.call.Arguments); !ok {
			c.problem = "error: " + why
			continue
		}
		plan, err := planSafely(tool, s.cfg.Env, c.call.Arguments)
		if err != nil {
			c.problem = "error: " + err.Error()
			continue
		}
		c.plan = plan
		c.call.Target = plan.Target
	}
	return out
}

// planSafely runs a tool's Plan, turning a panic into an error the model
// sees.
func planSafely(tool tools.Tool, env *tools.Env, args json.RawMessage) (p tools.Plan, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the tool failed while checking its arguments: %v", r)
		}
	}()
	return tool.Plan(env, args)
}

// finish records a call's result, once.
func (s *Session) finish(c *callState, r event.ToolResult) {
	if c.done {
		return
	}
	c.done = true
	if r.Output == "" {
		r.Output = noOutput
	}
	s.emit(event.Event{Kind: event.ToolFinished, Turn: s.turn.n, CallID: c.call.ID, Result: &r})
}

// repeatGuard counts how many times in a row the same call was made.
type repeatGuard struct {
	last  string
	count int
}

func (g *repeatGuard) see(c event.ToolCall) int {
	var b bytes.Buffer
	sig := c.Name + "\x00" + string(c.Arguments)
	if json.Compact(&b, c.Arguments) == nil {
		sig = c.Name + "\x00" + b.String()
	}
	if sig == g.last {
		g.count++
	} else {
		g.last, g.count = sig, 1
	}
	return g.count
}

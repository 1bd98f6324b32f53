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

// prepareCalls checks each call the model made and plans the valid ones,
// in order, each against the files as the earlier calls of the batch will
// leave them (tools.Overlay): what a call's approval shows is what it will
// write if the calls before it run. cut says the answer was cut at the
// output limit: a call whose arguments are not whole JSON was being
// written when it happened.
func (s *Session) prepareCalls(raw []llm.ToolCall, cut bool) []*callState {
	out := make([]*callState, 0, len(raw))
	seen := map[string]bool{}
	files := tools.NewOverlay()
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
		tool, ok := s.lookupTool(tc.Name)
		if !ok {
			var names []string
			for _, sp := range s.toolSpecs() {
				names = append(names, sp.Name)
			}
			c.problem = fmt.Sprintf("error: there is no tool named %q; the available tools are: %s", tc.Name, strings.Join(names, ", "))
			continue
		}
		c.tool, c.spec = tool, tool.Spec()
		c.call.ToolKind = string(c.spec.Kind)
		if why, ok := argumentsObject(c.call.Arguments); !ok {
			c.problem = "error: " + why
			if cut {
				c.problem = cutCall
			}
			continue
		}
		plan, deps, err := planSafely(files, tool, s.cfg.Env, id, c.call.Arguments)
		if err != nil {
			c.problem = "error: " + err.Error()
			continue
		}
		c.plan, c.deps = plan, deps
		c.call.Target = plan.Target
	}
	return out
}

// cutCall is what the model is told about a call its answer was cut off
// in the middle of.
const cutCall = "error: not run: your answer reached the output limit (finish reason \"length\") while you were writing this call, so its arguments are incomplete. Make the call again; split large content over several smaller calls (write part of a file, then add to it with edit_file)."

// planSafely plans one call of a batch, turning a panic into an error the
// model sees.
func planSafely(files *tools.Overlay, tool tools.Tool, env *tools.Env, id string, args json.RawMessage) (p tools.Plan, deps []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the tool failed while checking its arguments: %v", r)
		}
	}()
	return files.PlanCall(tool, env, id, args)
}

// unrunDep returns an earlier call of the batch whose planned changes c
// builds on and that will not run (denied, failed to plan, or itself
// refused), or nil.
func (t *turn) unrunDep(c *callState) *callState {
	for _, id := range c.deps {
		for _, d := range t.calls {
			if d.call.ID == id && d.done && !d.approved {
				return d
			}
		}
	}
	return nil
}

// refuseOrphan gives a call that builds on a call that will not run its
// result: applying it would write a change planned against content that
// will never exist.
func (s *Session) refuseOrphan(c, dep *callState) {
	s.finish(c, orphanResult(c, dep, "was not run"))
}

// orphanResult is the result of a call not run because a call it builds
// on (planned against the files as dep would leave them) what: was not
// run, or failed.
func orphanResult(c, dep *callState, what string) event.ToolResult {
	return event.ToolResult{CallID: c.call.ID, Name: c.call.Name, Status: event.ToolError,
		Output: fmt.Sprintf("not run: this call was planned against the files as %s call %s would leave them, and that call %s. Read the files again and redo this change if it is still wanted.", dep.call.Name, dep.call.ID, what)}
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

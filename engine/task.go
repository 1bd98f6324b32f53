package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/tools"
)

// TaskTool is the name of the tool that starts a subagent.
const TaskTool = "task"

// Spawner prepares the child sessions of task calls. The session wiring
// implements it with the agent definitions, the providers and the store;
// the engine runs the children and keeps its own rules (the tools a child
// may have, how deep children go).
type Spawner interface {
	// Agents lists the agent definitions a task call may name, offered
	// to the model in the task tool's description.
	Agents() []Agent
	// Notices are the problems found with the definitions (a malformed
	// file, skipped), shown as warnings when the session starts.
	Notices() []string
	// Plan resolves a task call into its child's settings, each field by
	// the cascade explicit (the call's arguments) > role (the agent
	// definition) > parent. It has no side effects: an unknown agent or
	// a model that cannot be reached is an error the model is told.
	Plan(req TaskRequest) (Child, error)
	// Record opens where the child's events are kept (a session of its
	// own in the store, linked to its parent) and returns its id; a nil
	// Recorder keeps none. close is called once the child has stopped.
	Record(link event.ParentLink, cwd string) (rec Recorder, id string, close func() error, err error)
}

// Agent is an agent definition as the model is told of it.
type Agent struct {
	Name, Description string
}

// TaskRequest is what a task call asks for explicitly, and the parent's
// settings the cascade falls back to.
type TaskRequest struct {
	Agent string
	Model string
	// Tools are names or patterns; nil: the call gave none.
	Tools []string
	// ParentModel and ParentProvider are the parent session's.
	ParentModel, ParentProvider string
}

// Child is a child session's settings, resolved.
type Child struct {
	// Agent is the definition it runs as ("" for none); Instructions its
	// body, told to the child in its system prompt.
	Agent        string
	Instructions string
	// Tools are the names or patterns of the tools it may use, within
	// the parent's; nil means the read-only default.
	Tools []string
	// Model and Provider name its model; Sampler, Cost and ContextWindow
	// go with it. A nil Sampler means the parent's model.
	Model, Provider string
	Sampler         Sampler
	Cost            func(event.Usage) (float64, bool)
	ContextWindow   int
	// Warnings are shown to the user when the child starts (a tool the
	// definition names that the session does not have).
	Warnings []string
}

// MaxSubagentDepth is how deep task calls nest: a session's children
// never get the task tool. One level keeps every subagent visible as one
// block under the call that started it, its approvals asked by one
// parent, and its cost bounded by the parent's batch: a child that could
// start children could fan out without limit (and an agent naming itself
// would never end), while the parent can already start several in
// parallel.
const MaxSubagentDepth = 1

// readOnlyDefault are the tools a child gets when nothing names others:
// those that read and search.
func readOnlyDefault(sp tools.Spec) bool { return !sp.Writes && sp.Name != TaskTool }

// taskArgs are a task call's arguments.
type taskArgs struct {
	Description string   `json:"description"`
	Prompt      string   `json:"prompt"`
	Agent       string   `json:"agent"`
	Model       string   `json:"model"`
	Tools       []string `json:"tools"`
}

// taskAction is what a task call's plan carries to its run.
type taskAction struct {
	args  taskArgs
	child Child
	tools *tools.Registry
}

// taskTool starts a child session for each call; runTask runs it (the
// engine calls it with the call's job, not through Run).
type taskTool struct {
	s    *Session
	spec tools.Spec
}

const maxDescriptionRunes = 80

func (t taskTool) Spec() tools.Spec { return t.spec }

// taskSpec describes the task tool, with the agents sp offers.
func taskSpec(sp Spawner) tools.Spec {
	var b strings.Builder
	b.WriteString("Start a subagent: a separate session with its own context that does one task and reports back. Use it for self-contained work that would fill your context with material you do not need afterwards (searching a large codebase, reading many files, reviewing a change) and start several in one answer to run them in parallel. It sees nothing of this conversation: put everything it needs in prompt. Its report (its last message) is this call's result; the user does not see it unless you relay it. Unless an agent says otherwise it has only the read-only tools (read_file, list_dir, glob, grep).")
	agents := sp.Agents()
	if len(agents) > 0 {
		b.WriteString("\n\nAgents (name one as agent to use its instructions, tools and model):")
		for _, a := range agents {
			fmt.Fprintf(&b, "\n- %s: %s", a.Name, a.Description)
		}
	}
	props := map[string]any{
		"description": map[string]any{"type": "string", "description": "The task in 3 to 6 words, shown to the user."},
		"prompt":      map[string]any{"type": "string", "description": "The whole task: what to do, where to look, what to report."},
		"model":       map[string]any{"type": "string", "description": "A model to use instead of the agent's (or yours); leave it out unless the user asked for one."},
		"tools":       map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Tool names (or patterns such as mcp__github__*) to give it instead of the agent's; only tools you have."},
	}
	if len(agents) > 0 {
		names := make([]string, len(agents))
		for i, a := range agents {
			names[i] = a.Name
		}
		props["agent"] = map[string]any{"type": "string", "enum": names, "description": "The agent to run as; leave it out for a general subagent."}
	}
	schema, err := json.Marshal(map[string]any{
		"type": "object", "properties": props, "required": []string{"description", "prompt"}, "additionalProperties": false,
	})
	if err != nil {
		panic(err) // strings and maps only
	}
	return tools.Spec{Name: TaskTool, Description: b.String(), Schema: schema, Kind: tools.KindOther}
}

// Plan checks the arguments (every problem at once), resolves the child's
// settings and tools, and plans the call as a read of the working
// directory — or, when the child may write, as a write of it, so the
// calls of the batch are ordered around it as around a shell command.
func (t taskTool) Plan(env *tools.Env, _ *tools.Overlay, raw json.RawMessage) (tools.Plan, error) {
	var a taskArgs
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return tools.Plan{}, fmt.Errorf("the arguments are not a task call (description, prompt, and optionally agent, model, tools): %v", err)
	}
	a.Description = strings.Join(strings.Fields(a.Description), " ")
	var problems []string
	switch {
	case a.Description == "":
		problems = append(problems, "description is missing: give the task in 3 to 6 words")
	case utf8.RuneCountInString(a.Description) > maxDescriptionRunes:
		problems = append(problems, fmt.Sprintf("description is longer than %d characters: give the task in 3 to 6 words and the rest in prompt", maxDescriptionRunes))
	}
	if strings.TrimSpace(a.Prompt) == "" {
		problems = append(problems, "prompt is missing: the subagent sees nothing of this conversation, so it needs the whole task")
	}
	for _, p := range a.Tools {
		if _, err := path.Match(p, ""); err != nil || p == "" {
			problems = append(problems, fmt.Sprintf("tools: %q is not a tool name or pattern", p))
		}
	}
	if len(problems) > 0 {
		return tools.Plan{}, errors.New(strings.Join(problems, "; "))
	}
	child, err := t.s.cfg.Subagents.Plan(TaskRequest{Agent: a.Agent, Model: a.Model, Tools: a.Tools,
		ParentModel: t.s.cfg.Model, ParentProvider: t.s.cfg.Provider})
	if err != nil {
		return tools.Plan{}, err
	}
	reg, warnings := narrowTools(t.s.cfg.Tools, child.Tools)
	child.Warnings = append(child.Warnings, warnings...)
	p := tools.Plan{Target: a.Description, Reads: []string{env.Dir}, Action: &taskAction{args: a, child: child, tools: reg}}
	for _, sp := range reg.Specs() {
		if sp.Writes {
			p.Writes = []string{env.Dir}
			break
		}
	}
	return p, nil
}

// Run is never called: the engine runs a task call with runTask, which
// needs the session it reports to.
func (taskTool) Run(context.Context, *tools.Env, tools.Call) tools.Result {
	return tools.Result{Output: "internal error: the task tool was run outside its session; nothing was done", IsError: true}
}

// narrowTools is the child's registry: the parent's tools that patterns
// name (the read-only ones when patterns is nil), never the task tool, so
// no child starts children of its own (MaxSubagentDepth). The warnings
// name what was asked for and is not given: a plain name (not a pattern)
// of no tool of the parent's, and the task tool.
func narrowTools(parent *tools.Registry, patterns []string) (*tools.Registry, []string) {
	var keep []tools.Tool
	for _, sp := range parent.Specs() {
		if sp.Name == TaskTool {
			continue
		}
		ok := patterns == nil && readOnlyDefault(sp)
		for _, p := range patterns {
			if m, _ := path.Match(p, sp.Name); m {
				ok = true
			}
		}
		if ok {
			if t, found := parent.Lookup(sp.Name); found {
				keep = append(keep, t)
			}
		}
	}
	var warnings []string
	var seen []string
	for _, p := range patterns {
		if slices.Contains(seen, p) {
			continue
		}
		seen = append(seen, p)
		switch _, has := parent.Lookup(p); {
		case p == TaskTool:
			warnings = append(warnings, "the subagent runs without task: subagents cannot start subagents of their own")
		case !has && !strings.ContainsAny(p, "*?["):
			warnings = append(warnings, fmt.Sprintf("the subagent runs without %s: this session has no tool of that name", p))
		}
	}
	return tools.NewRegistry(keep...), warnings
}

// toolSpecs are the tools offered to the model now: the registry's of
// the moment, and the task tool for a session that may start subagents.
func (s *Session) toolSpecs() []tools.Spec {
	return s.withTask(s.cfg.Tools.Specs())
}

// fixedSpecs are the tools the session always has, for the system
// prompt: the built-ins (not the MCP servers', which come and go) and
// the task tool.
func (s *Session) fixedSpecs() []tools.Spec {
	return s.withTask(s.cfg.Tools.Fixed())
}

func (s *Session) withTask(specs []tools.Spec) []tools.Spec {
	if s.task != nil {
		specs = append(specs, s.task.spec)
		slices.SortFunc(specs, func(a, b tools.Spec) int { return strings.Compare(a.Name, b.Name) })
	}
	return specs
}

// lookupTool finds a tool the model may call by name.
func (s *Session) lookupTool(name string) (tools.Tool, bool) {
	if s.task != nil && name == TaskTool {
		return *s.task, true
	}
	return s.cfg.Tools.Lookup(name)
}

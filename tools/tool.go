package tools

import (
	"context"
	"encoding/json"
)

// Kind is how a tool is shown to the user and classified by the approval
// policy.
type Kind string

const (
	KindRead    Kind = "read"
	KindSearch  Kind = "search"
	KindEdit    Kind = "edit"
	KindExecute Kind = "execute"
	KindOther   Kind = "other"
)

// Spec is what the model is told about a tool.
type Spec struct {
	Name        string
	Description string
	// Schema is the JSON schema of the arguments object.
	Schema json.RawMessage
	Kind   Kind
	// Writes reports whether the tool may change files or run commands.
	Writes bool
}

// Plan is what a call will do, decided from its arguments before it runs:
// the approval prompt shows it, and the engine serialises calls whose
// Writes overlap.
type Plan struct {
	// Target is what the call acts on, for display: a path, a pattern, a
	// command line.
	Target string
	// Preview is what the user approves: a unified diff for edits, the
	// command for shell calls. Empty for read-only tools.
	Preview string
	// Writes lists the absolute, symlink-resolved paths the call may write.
	// A shell call writes "anything": it lists the working directory.
	Writes []string
	// Command is the shell command line, for per-prefix approval memory.
	Command string
	// InDir reports whether every path in Writes lies inside the working
	// directory (the auto-edit approval mode lets such edits proceed).
	InDir bool
}

// Call is one invocation.
type Call struct {
	ID   string
	Args json.RawMessage
	// Output receives streamed output as it is produced (shell); may be nil.
	// It is called from the tool's goroutine and must not block for long.
	Output func(chunk []byte)
}

// Result is what the model sees as the tool message, plus display data.
type Result struct {
	Output    string
	IsError   bool
	ExitCode  *int
	Truncated bool
	// Diff is a unified diff of what an edit changed, for display.
	Diff string
}

// Tool is one capability offered to the model. Implementations validate
// their arguments in Plan (every problem at once, in words the model can
// act on) and must honour ctx in Run.
type Tool interface {
	Spec() Spec
	Plan(env *Env, args json.RawMessage) (Plan, error)
	Run(ctx context.Context, env *Env, call Call) Result
}

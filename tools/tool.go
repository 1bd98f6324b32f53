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
	// ReadOnlyHint lets the auto-edit mode run a tool that Writes without
	// asking: its provider declares that it only reads (an MCP tool whose
	// server says readOnlyHint and not destructiveHint). The ask mode
	// still asks: the declaration is the server's word, not a guarantee.
	ReadOnlyHint bool
}

// Plan is what a call will do, decided once from its arguments before it
// runs: the approval prompt shows it, the engine orders the calls of a
// batch by its Writes and Reads, and Run applies its Action and nothing
// else.
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
	// Reads lists the absolute paths the call reads: a file, or a
	// directory it lists or walks. The engine runs it after the earlier
	// calls of its batch that write there, and before the later ones.
	Reads []string
	// Command is the shell command line, for per-prefix approval memory.
	Command string
	// InDir reports whether every path in Writes lies inside the working
	// directory (the auto-edit approval mode lets such edits proceed).
	InDir bool
	// Action is what Run applies: the arguments as Plan decoded and
	// checked them, and what it computed from them (for an edit, the new
	// contents the Preview shows). The engine hands it to Run unopened,
	// so what the user approved is exactly what is applied, and the
	// arguments are never decoded twice.
	Action any
}

// Call is one invocation of a planned call.
type Call struct {
	ID string
	// Turn is the turn the call belongs to; file tools pass it to
	// Env.BeforeWrite, which keeps checkpoints per turn.
	Turn int
	// Plan is the plan Plan returned (and the user approved).
	Plan Plan
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

// Tool is one capability offered to the model. Plan validates the
// arguments (every problem at once, in words the model can act on) and
// decides what the call will do, reading the files it changes through
// files: the state the earlier calls of the batch will leave (nil reads
// the disk). Run applies call.Plan.Action and must honour ctx.
type Tool interface {
	Spec() Spec
	Plan(env *Env, files *Overlay, args json.RawMessage) (Plan, error)
	Run(ctx context.Context, env *Env, call Call) Result
}

// unplanned is Run's answer to a call whose plan is not the tool's own, a
// bug of the caller: nothing is done.
func unplanned(tool string) Result {
	return errorResult("internal error: %s was run without the plan it was approved with; nothing was done", tool)
}

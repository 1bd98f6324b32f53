// Package event is quire's one event vocabulary: what the engine emits, what
// the UI reduces into the transcript, what the store appends, what
// `quire exec --json` prints as JSONL, what `quire export` writes and what
// `quire replay` feeds back. The transcript on screen is a pure function of
// these events and the terminal width, and the model's history is a pure
// function of these events alone.
//
// The package is a leaf: it imports nothing of quire's, so scrollback, app
// and the store can use it without pulling in the engine.
//
// Compatibility rules: every event carries the schema version V it was
// written with. Fields are only ever added; a reader ignores fields it does
// not know (encoding/json does) and treats a missing field as its zero
// value. A reader refuses events whose V is newer than SchemaVersion with an
// error naming both versions (see CheckVersion). Renaming or re-purposing a
// field or a kind requires bumping SchemaVersion and an in-memory upgrade
// in Upgrade.
package event

import (
	"encoding/json"
	"fmt"
	"time"
)

// SchemaVersion is the version of the vocabulary this binary writes.
const SchemaVersion = 1

// Kind names what happened. The string values are the stable on-disk and
// JSONL names.
type Kind string

const (
	// SessionStarted opens every session log. Session is set.
	SessionStarted Kind = "session_started"
	// UserMessage is a prompt the user submitted. Text is set; Command is
	// set when the prompt came from a custom /command. The engine emits it
	// only once the message is durable (if a store is attached).
	UserMessage Kind = "user_message"
	// TurnStarted marks the start of a turn; Turn is the new turn number.
	TurnStarted Kind = "turn_started"
	// AssistantDelta is a fragment of the assistant's visible answer. Text
	// is set. Consecutive deltas may be coalesced by a slow consumer.
	AssistantDelta Kind = "assistant_delta"
	// ReasoningDelta is a fragment of reasoning text the server exposed.
	ReasoningDelta Kind = "reasoning_delta"
	// AssistantMessage closes one sampled assistant message. Text holds the
	// whole visible text; Calls lists the tool calls it made, in order;
	// FinishReason says when it was cut short.
	AssistantMessage Kind = "assistant_message"
	// ToolCallRequested announces one tool call. Call is set.
	ToolCallRequested Kind = "tool_call"
	// ApprovalRequested asks the user about a call. Approval is set
	// (CallID, Tool, Target, Preview).
	ApprovalRequested Kind = "approval_requested"
	// ApprovalAnswered records the user's (or the policy's) answer.
	// Approval is set (CallID, Decision, Reason).
	ApprovalAnswered Kind = "approval_answered"
	// ToolOutputDelta is streamed output of a running call. CallID and
	// Text are set.
	ToolOutputDelta Kind = "tool_output"
	// ToolFinished is the result of a call, exactly once per call id.
	// Result is set.
	ToolFinished Kind = "tool_finished"
	// TurnEnded closes a turn. End is set.
	TurnEnded Kind = "turn_ended"
	// Compacted records a compaction. Compaction is set; history before
	// this event is replaced by Compaction.Summary for the model.
	Compacted Kind = "compacted"
	// Notice is information for the user (a guard tripped, a retry).
	// Text is set; Level may be set.
	Notice Kind = "notice"
	// Error is a failure the user should see. Text is set.
	Error Kind = "error"
	// SubagentUpdate reports on the child session a task call runs: once
	// when it starts, at each tool call it makes, and once when it ends
	// (before the task call's ToolFinished, whose output is its report).
	// CallID is the task call; Subagent is set. The child's own events
	// are the log of its own session (Subagent.Session); the parent's log
	// carries these summaries, so the transcript of the parent is a
	// function of the parent's events alone.
	SubagentUpdate Kind = "subagent"
)

// Values of Event.Store.
const (
	// StoreFailing: saving the session failed; what happens now is kept
	// in memory and saved once writing works again.
	StoreFailing = "failing"
	// StoreOK: saving works again; everything shown is saved.
	StoreOK = "ok"
)

// Event is one entry of a session's log. Exactly the fields named by its
// Kind are set; the others are zero and omitted from JSON.
type Event struct {
	V    int       `json:"v"`
	Seq  uint64    `json:"seq"`  // 1-based, strictly increasing within a session
	Time time.Time `json:"time"` // when it happened, for replay pacing
	Kind Kind      `json:"kind"`
	Turn int       `json:"turn,omitempty"` // 1-based turn it belongs to; 0 outside turns

	Text   string `json:"text,omitempty"`
	CallID string `json:"call_id,omitempty"`
	Level  string `json:"level,omitempty"` // for Notice: "info" or "warn"
	// Store is set on a Notice or Error about saving the session: the
	// status the UI shows until the next one (StoreFailing, StoreOK).
	Store string `json:"store,omitempty"`

	// Command, on a UserMessage sent by a custom /command, is the command
	// line the user typed (/review main.go); Text is what it expanded to,
	// which the model received. The transcript shows both.
	Command string `json:"command,omitempty"`

	// Reasoning and State, on an AssistantMessage, are the reasoning the
	// model wrote before it and the protocol's opaque reasoning state
	// (a JSON array the engine hands back to the protocol that wrote it),
	// so the history can give them back to a provider that needs them.
	Reasoning string          `json:"reasoning,omitempty"`
	State     json.RawMessage `json:"state,omitempty"`
	// FinishReason, on an AssistantMessage, is set when the answer did
	// not end the way the model meant: "length" (cut off at the output
	// limit), "content_filter", or the server's own word.
	FinishReason string `json:"finish_reason,omitempty"`

	Session    *SessionInfo `json:"session,omitempty"`
	Calls      []ToolCall   `json:"calls,omitempty"`
	Call       *ToolCall    `json:"call,omitempty"`
	Approval   *Approval    `json:"approval,omitempty"`
	Result     *ToolResult  `json:"result,omitempty"`
	End        *TurnEnd     `json:"end,omitempty"`
	Compaction *Compaction  `json:"compaction,omitempty"`
	Subagent   *Subagent    `json:"subagent,omitempty"`
}

// Typed is what the user typed for a UserMessage: the /command line when
// the prompt came from a custom command, else the prompt itself. Titles
// and /rewind show it.
func (e Event) Typed() string {
	if e.Command != "" {
		return e.Command
	}
	return e.Text
}

// SessionInfo describes a session when it starts (or resumes).
type SessionInfo struct {
	ID       string `json:"id"`
	Cwd      string `json:"cwd"`
	Model    string `json:"model"`
	Version  string `json:"version"`            // quire's version
	Sandbox  string `json:"sandbox,omitempty"`  // profile name
	Approval string `json:"approval,omitempty"` // approval mode
	Resumed  bool   `json:"resumed,omitempty"`
	// Provider names the provider Model is reached through, where one
	// was named (quire models lists them).
	Provider string `json:"provider,omitempty"`
	// Parent is set on a child session, one a task call started.
	Parent *ParentLink `json:"parent,omitempty"`
}

// ParentLink names the session and the task call that started a child
// session, with the agent it runs as and the task's short description.
type ParentLink struct {
	Session     string `json:"session"`
	CallID      string `json:"call_id"`
	Agent       string `json:"agent,omitempty"`
	Description string `json:"description,omitempty"`
}

// ToolCall is one call the model made.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// Display hints, filled by the engine from the tool's plan when the
	// arguments were valid: the tool's kind (read, search, edit, execute,
	// other) and its target (a path, a pattern, a command).
	ToolKind string `json:"tool_kind,omitempty"`
	Target   string `json:"target,omitempty"`
}

// Decision is an answer to an approval request.
type Decision string

const (
	Approve        Decision = "yes"
	ApproveSession Decision = "session" // yes, and don't ask again for this tool / command prefix
	Deny           Decision = "no"
)

// Approval is both the question and the answer of an approval exchange.
type Approval struct {
	CallID string `json:"call_id"`
	Tool   string `json:"tool,omitempty"`
	Target string `json:"target,omitempty"`
	// Preview is what the user decides on: a unified diff for edits, the
	// command line for shell calls.
	Preview  string   `json:"preview,omitempty"`
	Decision Decision `json:"decision,omitempty"`
	Reason   string   `json:"reason,omitempty"` // the user's words to the model, on Deny
	ByPolicy bool     `json:"by_policy,omitempty"`
	// Hook is the hook (its command) that denied the call, when one did;
	// Reason then holds its reason.
	Hook string `json:"hook,omitempty"`
	// Subagent is set when a child session asks, through its parent: the
	// parent's task call that runs it (CallID is then the task call and
	// the child's call joined by "/"); Agent is the agent it runs as.
	Subagent string `json:"subagent,omitempty"`
	Agent    string `json:"agent,omitempty"`
}

// ToolStatus is how a call ended.
type ToolStatus string

const (
	ToolOK        ToolStatus = "ok"
	ToolError     ToolStatus = "error"     // the tool failed; the model sees why
	ToolDenied    ToolStatus = "denied"    // the user or policy said no
	ToolCancelled ToolStatus = "cancelled" // the turn was cancelled before or during the call
)

// ToolResult is the outcome of one call. Output is exactly what the model
// saw as the tool message.
type ToolResult struct {
	CallID     string     `json:"call_id"`
	Name       string     `json:"name,omitempty"`
	Status     ToolStatus `json:"status"`
	Output     string     `json:"output"`
	ExitCode   *int       `json:"exit_code,omitempty"`
	DurationMS int64      `json:"duration_ms"`
	Truncated  bool       `json:"truncated,omitempty"`
	// Diff is a unified diff of what an edit changed, for display.
	Diff string `json:"diff,omitempty"`
	// StreamedBytes is how much output the call streamed in all, set
	// when its ToolOutputDelta events carry only the beginning and the
	// end of it.
	StreamedBytes int64 `json:"streamed_bytes,omitempty"`
}

// TurnState is how a turn ended.
type TurnState string

const (
	TurnCompleted TurnState = "completed"
	TurnCancelled TurnState = "cancelled"
	TurnFailed    TurnState = "error"
)

// Usage is token accounting as reported by the API (or estimated).
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// The parts of the prompt read from and written to the provider's
	// prompt cache, and of the completion spent reasoning, where the
	// provider reports them.
	CacheReadTokens  int  `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int  `json:"cache_write_tokens,omitempty"`
	ReasoningTokens  int  `json:"reasoning_tokens,omitempty"`
	Estimated        bool `json:"estimated,omitempty"`
}

// TurnEnd closes a turn.
type TurnEnd struct {
	State TurnState `json:"state"`
	Usage Usage     `json:"usage"`
	Error string    `json:"error,omitempty"`
	// Truncated says the turn's final answer was cut off at the model's
	// output limit; the answer so far is kept, and a "continue" from the
	// user carries on from it.
	Truncated bool `json:"truncated,omitempty"`
	// ContextTokens is the estimated size of the history after the turn,
	// and ContextWindow the model's window, for the status line.
	ContextTokens int `json:"context_tokens,omitempty"`
	ContextWindow int `json:"context_window,omitempty"`
	// Cost is what the turn's usage cost in US dollars at the model's
	// catalog prices; absent when the price is unknown.
	Cost *float64 `json:"cost,omitempty"`
}

// SubagentState is where a child session stands.
type SubagentState string

const (
	SubagentStarted   SubagentState = "started"
	SubagentRunning   SubagentState = "running" // it made a tool call
	SubagentCompleted SubagentState = "completed"
	SubagentFailed    SubagentState = "failed"
	SubagentCancelled SubagentState = "cancelled"
)

// Done reports whether the state is a final one.
func (s SubagentState) Done() bool {
	return s == SubagentCompleted || s == SubagentFailed || s == SubagentCancelled
}

// Subagent is one report on a child session (see SubagentUpdate).
type Subagent struct {
	// Session is the child session's id; Agent the agent definition it
	// runs as ("" for none); Description the task's few words; Model the
	// model it talks to.
	Session     string        `json:"session,omitempty"`
	Agent       string        `json:"agent,omitempty"`
	Description string        `json:"description,omitempty"`
	Model       string        `json:"model,omitempty"`
	State       SubagentState `json:"state"`
	// Tool and Target are the child's latest tool call, Calls how many
	// it has made.
	Tool   string `json:"tool,omitempty"`
	Target string `json:"target,omitempty"`
	Calls  int    `json:"calls,omitempty"`
	// On the last report: the tokens the child used and what they cost
	// (nil when the price is unknown), and why it did not complete.
	Usage *Usage   `json:"usage,omitempty"`
	Cost  *float64 `json:"cost,omitempty"`
	Error string   `json:"error,omitempty"`
}

// Compaction records a replacement of the model's history by a summary.
type Compaction struct {
	BeforeTokens int    `json:"before_tokens"`
	AfterTokens  int    `json:"after_tokens"`
	Summary      string `json:"summary"`
	Manual       bool   `json:"manual,omitempty"`
	Focus        string `json:"focus,omitempty"`
}

// CheckVersion refuses events written by a newer quire.
func CheckVersion(v int) error {
	if v > SchemaVersion {
		return fmt.Errorf("written by a newer quire (event schema v%d; this binary reads up to v%d): upgrade quire to read it", v, SchemaVersion)
	}
	return nil
}

// Upgrade brings an event written with an older schema to the current one
// in memory. Version 1 is the first; there is nothing to upgrade yet, but
// every reader calls Upgrade so that the first real migration has one
// place to live.
func Upgrade(e *Event) error {
	if err := CheckVersion(e.V); err != nil {
		return err
	}
	if e.V == 0 {
		e.V = 1 // written before versioning was enforced: same shape
	}
	return nil
}

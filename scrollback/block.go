package scrollback

import (
	"strings"
	"time"
)

// ID identifies a block for the life of the process. IDs are allocated
// monotonically and never reused, not even after Clear, so side tables
// (focus, search position, what the inline view emitted) can point at a
// block without fear of it silently becoming another one.
type ID uint64

// Kind is what a block shows.
type Kind uint8

const (
	KindPrompt    Kind = iota + 1 // the user's prompt; starts a turn
	KindAssistant                 // the assistant's answer (markdown)
	KindReasoning                 // reasoning the server exposed; collapsed by default
	KindTool                      // one tool call: header, then output or diff
	KindNotice                    // information (a retry, a compaction, a cancel)
	KindError                     // a failure the user should see
	KindSubagent                  // a task call's child session: progress, then its report
)

func (k Kind) String() string {
	switch k {
	case KindPrompt:
		return "prompt"
	case KindAssistant:
		return "assistant"
	case KindReasoning:
		return "reasoning"
	case KindTool:
		return "tool"
	case KindNotice:
		return "notice"
	case KindError:
		return "error"
	case KindSubagent:
		return "subagent"
	}
	return "unknown"
}

// ToolState is where a tool call stands.
type ToolState uint8

const (
	ToolPending   ToolState = iota // requested, not yet approved or run
	ToolAwaiting                   // waiting for the user's approval
	ToolRunning                    // approved and running
	ToolSucceeded                  // finished ok
	ToolFailed                     // finished with an error
	ToolDenied                     // the user or the policy said no
	ToolCancelled                  // the turn was cancelled
)

func (s ToolState) done() bool { return s >= ToolSucceeded }

// Block is one unit of the transcript. The transcript owns it; callers
// read it through the accessors.
type Block struct {
	id        ID
	kind      Kind
	turn      int // index into Transcript.turns; -1 before the first prompt
	src       strings.Builder
	lines     int // newlines in src, for height estimates
	finished  bool
	collapsed bool
	unfolded  bool // a folded tool body shows every line
	hidden    bool // excluded by the active filter
	warn      bool // a notice at level "warn"
	tool      *toolInfo
	sub       *subInfo // set on a KindSubagent block (which has tool too)

	// Rendering state at one width; see render.go.
	body      BodyRenderer
	bodyWidth int
	fed       int  // bytes of src fed to body
	bodyDone  bool // body.Finish was called
	revs      int  // body revisions the inline view took into account
	view      *blockView
}

type toolInfo struct {
	callID   string
	name     string
	kind     string
	target   string
	state    ToolState
	exitCode *int
	duration time.Duration
	reason   string
	diff     string // a unified diff of what an edit changed
}

// ID is the block's stable identity.
func (b *Block) ID() ID { return b.id }

// Kind is what the block shows.
func (b *Block) Kind() Kind { return b.kind }

// Turn is the 0-based index of the turn the block belongs to, or -1 for
// blocks before the first prompt.
func (b *Block) Turn() int { return b.turn }

// Finished reports whether the block will not change any more (except by
// folding).
func (b *Block) Finished() bool { return b.finished }

// Collapsed reports whether the block shows only its summary.
func (b *Block) Collapsed() bool { return b.collapsed }

// Source is the block's text as it arrived: the prompt, the markdown of
// an answer, the reasoning, the tool output (or the diff of an edit), the
// notice or error.
func (b *Block) Source() string {
	if b.tool != nil {
		if b.tool.diff != "" {
			return b.tool.diff
		}
	}
	return b.src.String()
}

// Tool describes a tool block; ok is false for other kinds.
func (b *Block) Tool() (info ToolInfo, ok bool) {
	if b.tool == nil {
		return ToolInfo{}, false
	}
	t := b.tool
	return ToolInfo{CallID: t.callID, Name: t.name, Kind: t.kind, Target: t.target, State: t.state,
		ExitCode: t.exitCode, Duration: t.duration, Reason: t.reason}, true
}

// ToolInfo is the public description of a tool call block.
type ToolInfo struct {
	CallID   string
	Name     string
	Kind     string // read, search, edit, execute, other (or empty)
	Target   string
	State    ToolState
	ExitCode *int
	Duration time.Duration
	Reason   string // the user's words on a denial
}

func (b *Block) appendSource(s string) {
	b.src.WriteString(s)
	b.lines += strings.Count(s, "\n")
}

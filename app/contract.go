package app

import (
	"context"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// Session is what the app needs of an agent session. Package session's
// Handle satisfies it, and so does replay's Player.
//
// Events, Submit, Cancel, Answer and Compact are called on the loop's
// goroutine and must not block. The other methods may block (they open
// sessions, read and write the store); the loop calls them from effect
// goroutines and shows their results, and their errors, when they arrive.
// After an operation that replaced the session (Switched came back, or
// an error did) the loop asks Events again.
type Session interface {
	Events() <-chan event.Event
	Submit(text string)
	Cancel()
	Answer(callID string, d event.Decision, reason string)
	Compact(focus string)

	// SwitchModel continues the session with another model.
	SwitchModel(ctx context.Context, model string) (Switched, error)
	// Clear starts a new session.
	Clear(ctx context.Context) (Switched, error)
	// Rewind goes back to before prompt n (1 is the first, 0 the last):
	// what is "conversation" (fork the log there), "files" (put back the
	// files quire changed since) or "both".
	Rewind(ctx context.Context, n int, what string) (Switched, error)
	// Sessions lists the stored sessions, newest first.
	Sessions(ctx context.Context) ([]SessionSummary, error)
	// Export writes the session as a JSONL transcript to path ("" picks a
	// name) and says where.
	Export(ctx context.Context, path string) (string, error)
}

// olderHistory is a session that showed its latest turns first (Options
// Prior) and delivers, once, the events before them; the loop puts them
// in front of the transcript.
type olderHistory interface {
	Older() <-chan []event.Event
}

// Switched is what an operation on the session did.
type Switched struct {
	// Notice is shown in the status line.
	Notice string
	// Rebuild: the session was replaced by another (/clear, /rewind) and
	// the transcript is rebuilt from Prior. Otherwise the transcript is
	// kept, and the events of a replacement continue it.
	Rebuild bool
	Prior   []event.Event
	// Prompt is put back into the editor (the prompt /rewind went back to).
	Prompt string
}

// SessionSummary is one stored session in the /sessions list.
type SessionSummary struct {
	ID         string
	LastActive time.Time
	Turns      int
	Title      string
}

// Extensions is a session with MCP servers: what the status line says of
// them, the slash commands they add (their prompts) and /mcp. Package
// session's Handle provides it; a session without (the replay Player)
// has no /mcp. ExtensionSummary and Commands are called on the loop's
// goroutine and must not block; MCP and RunCommand may, and run as jobs.
type Extensions interface {
	// ExtensionsChanged is signalled when the summary or the commands
	// changed.
	ExtensionsChanged() <-chan struct{}
	// ExtensionSummary is the status line's word ("mcp 2/3 x failed"),
	// "" when there is nothing to say.
	ExtensionSummary() string
	Commands() []ExtensionCommand
	// MCP carries out /mcp ARGS: lines for the overlay, or a notice.
	MCP(ctx context.Context, args []string) (lines []string, notice string, err error)
	// RunCommand carries out an extension's command and returns the text
	// to send as the user's message.
	RunCommand(ctx context.Context, name string, args []string) (string, error)
}

// ExtensionCommand is a slash command an extension adds.
type ExtensionCommand struct {
	Name string // without the slash
	Args string // synopsis for /help
	Help string
}

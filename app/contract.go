package app

import (
	"context"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// Session is what the app needs of an agent session. Package session's
// Handle satisfies it, and so does replay's Player.
//
// Events, Submit, SubmitCommand, Cancel, Answer and Compact are called on
// the loop's goroutine and must not block. The other methods may block (they open
// sessions, read and write the store); the loop calls them from effect
// goroutines and shows their results, and their errors, when they arrive.
// After an operation that replaced the session (Switched came back, or
// an error did) the loop asks Events again.
type Session interface {
	Events() <-chan event.Event
	Submit(text string)
	// SubmitCommand sends the prompt a /command from outside the app's
	// table expanded to (text), recording the line typed (command) for
	// the transcript.
	SubmitCommand(command, text string)
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

// commandSource is a session whose commands from outside the app's table
// change while it runs (an MCP server connects and offers its prompts):
// each list received replaces the one Options.Commands gave, in
// precedence order, checked with CheckCommands by the sender, which
// reports what it drops.
type commandSource interface {
	CommandUpdates() <-chan []Command
}

// projectTrust is a session that asks the user, once as it starts,
// whether to trust the project's own files that would make quire run
// programs or change settings (package session's Handle). The loop
// shows the question before anything else and holds the first prompt
// back until it is answered; AnswerTrust may block (it records the
// answer and may restart the session with the files), so the loop calls
// it off its goroutine and takes its result like a switch's.
type projectTrust interface {
	// TrustQuestion is the question, or nil when there is none.
	TrustQuestion() *TrustQuestion
	AnswerTrust(ctx context.Context, a TrustAnswer) (Switched, error)
}

// TrustQuestion asks about a project's files at once.
type TrustQuestion struct {
	// Project is the project's directory.
	Project string
	Files   []TrustFile
	// Applies says what trusting them changes, and when.
	Applies string
}

// TrustFile is one file the question is about.
type TrustFile struct {
	// Name is its path in the project, What what such a file does.
	Name, What string
	// Summary says line by line what this content would do; Content is
	// the file itself, for the user who wants to read it.
	Summary []string
	Content string
	// Before is what the user decided about an earlier content of the
	// file ("trusted", "declined"), or "".
	Before string
}

// TrustAnswer is the user's answer to a TrustQuestion.
type TrustAnswer uint8

const (
	// TrustLater: not now; nothing is recorded and the question comes
	// back next time.
	TrustLater TrustAnswer = iota
	// TrustYes trusts the files as shown.
	TrustYes
	// TrustNo declines them as shown: quire does not use them and does
	// not ask again until they change.
	TrustNo
)

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
// them and /mcp. Package session's Handle provides it; a session without
// (the replay Player) has no /mcp. The servers' prompts are commands like
// any other from outside the app's table: they come through
// commandSource. ExtensionSummary is called on the loop's goroutine and
// must not block; MCP may, and runs as a job.
type Extensions interface {
	// ExtensionsChanged is signalled when the summary changed.
	ExtensionsChanged() <-chan struct{}
	// ExtensionSummary is the status line's word ("mcp 2/3 x failed"),
	// "" when there is nothing to say.
	ExtensionSummary() string
	// MCP carries out /mcp ARGS: lines for the overlay, or a notice.
	MCP(ctx context.Context, args []string) (lines []string, notice string, err error)
}

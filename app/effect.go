package app

import "github.com/quire-sh/quire/engine/event"

// Effect is work the state asked for that must happen outside it: talking
// to the session, the terminal or the disk. The loop runs effects after the
// state change that produced them, in order; those that touch the disk or
// the store run off its goroutine and report back (effects.go).
type Effect interface{ isEffect() }

// SubmitEffect sends a prompt to the session.
type SubmitEffect struct{ Text string }

// CommandEffect runs a command from outside the app's table: Expand
// makes the prompt of Args off the loop, and the prompt is sent, in its
// place among the prompts sent after it, with Typed (the line as typed)
// for the transcript.
type CommandEffect struct {
	Command Command
	Args    string
	Typed   string
}

// CancelEffect cancels the running turn.
type CancelEffect struct{}

// AnswerEffect answers an approval request.
type AnswerEffect struct {
	CallID   string
	Decision event.Decision
	Reason   string
}

// CompactEffect asks for a compaction by hand.
type CompactEffect struct{ Focus string }

// CopyEffect puts text on the clipboard.
type CopyEffect struct {
	Text  string
	Lines int
}

// EditorEffect opens $EDITOR on the prompt's text and puts the result back.
type EditorEffect struct{ Text string }

// ModeEffect switches between full-screen and inline at run time.
type ModeEffect struct{ Minimal bool }

// MouseEffect turns mouse capture on or off.
type MouseEffect struct{ On bool }

// ExportEffect writes the session as a JSONL transcript.
type ExportEffect struct{ Path string }

// HistoryEffect appends a sent prompt to the history file.
type HistoryEffect struct{ Text string }

// SessionsEffect lists the stored sessions in an overlay.
type SessionsEffect struct{}

// MCPEffect carries out /mcp [restart NAME].
type MCPEffect struct{ Args []string }

// SwitchEffect replaces the running session (/model, /clear, /rewind).
type SwitchEffect struct {
	Op SwitchOp
	// Model is /model's argument.
	Model string
	// Prompt and What are /rewind's: the prompt to go back to before (0:
	// the last), and conversation, files or both.
	Prompt int
	What   string
}

// SwitchOp is what a SwitchEffect does.
type SwitchOp uint8

const (
	SwitchModel SwitchOp = iota
	SwitchClear
	SwitchRewind
)

// CompletePathEffect lists a directory for Tab's @path completion; the
// names come back to the state, which completes if the prompt has not
// changed meanwhile.
type CompletePathEffect struct {
	// Dir and Base split the word after '@': the directory to list
	// (relative to the session's) and the start of the name.
	Dir, Base string
	// Text and Cursor are the prompt when Tab was pressed.
	Text   string
	Cursor int
}

// TrustEffect answers the question about the project's files.
type TrustEffect struct{ Answer TrustAnswer }

// RedrawEffect repaints the whole screen (Ctrl+L).
type RedrawEffect struct{}

// PlaybackEffect pauses, resumes or steps a replay.
type PlaybackEffect struct{ Step bool }

// SuspendEffect stops quire as Ctrl+Z does in a shell.
type SuspendEffect struct{}

func (SubmitEffect) isEffect()       {}
func (CommandEffect) isEffect()      {}
func (CancelEffect) isEffect()       {}
func (AnswerEffect) isEffect()       {}
func (CompactEffect) isEffect()      {}
func (CopyEffect) isEffect()         {}
func (EditorEffect) isEffect()       {}
func (ModeEffect) isEffect()         {}
func (MouseEffect) isEffect()        {}
func (ExportEffect) isEffect()       {}
func (HistoryEffect) isEffect()      {}
func (SessionsEffect) isEffect()     {}
func (SwitchEffect) isEffect()       {}
func (MCPEffect) isEffect()          {}
func (CompletePathEffect) isEffect() {}
func (RedrawEffect) isEffect()       {}
func (TrustEffect) isEffect()        {}
func (SuspendEffect) isEffect()      {}
func (PlaybackEffect) isEffect()     {}

package app

import "github.com/quire-sh/quire/engine/event"

// Effect is work the state asked for that must happen outside it: talking
// to the session, the terminal or the disk. The loop runs effects after the
// state change that produced them, in order.
type Effect interface{ isEffect() }

// SubmitEffect sends a prompt to the session.
type SubmitEffect struct{ Text string }

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

// SlashEffect is a /command the loop carries out with resources the state
// does not hold (/model, /rewind, /sessions, /clear).
type SlashEffect struct{ Inv SlashInvocation }

// RedrawEffect repaints the whole screen (Ctrl+L).
type RedrawEffect struct{}

// PlaybackEffect pauses, resumes or steps a replay.
type PlaybackEffect struct{ Step bool }

// SuspendEffect stops quire as Ctrl+Z does in a shell.
type SuspendEffect struct{}

func (SubmitEffect) isEffect()   {}
func (CancelEffect) isEffect()   {}
func (AnswerEffect) isEffect()   {}
func (CompactEffect) isEffect()  {}
func (CopyEffect) isEffect()     {}
func (EditorEffect) isEffect()   {}
func (ModeEffect) isEffect()     {}
func (MouseEffect) isEffect()    {}
func (ExportEffect) isEffect()   {}
func (SlashEffect) isEffect()    {}
func (RedrawEffect) isEffect()   {}
func (SuspendEffect) isEffect()  {}
func (PlaybackEffect) isEffect() {}

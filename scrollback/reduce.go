package scrollback

import (
	"cmp"
	"fmt"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// reducer is the state Apply keeps between events: which blocks are still
// streaming and which block shows which tool call.
type reducer struct {
	assistant *Block // the answer being streamed, if any
	reasoning *Block // the reasoning being streamed, if any
	calls     map[string]*Block
	turnOpen  bool
}

func (r *reducer) init()  { r.calls = make(map[string]*Block) }
func (r *reducer) reset() { *r = reducer{}; r.init() }

// Apply reduces one engine event into the transcript. The transcript is a
// pure function of the events applied and the width: a replay draws what
// the live run drew.
func (t *Transcript) Apply(e event.Event) {
	r := &t.red
	switch e.Kind {
	case event.SessionStarted:
		if e.Session != nil && e.Session.Cwd != "" {
			t.cwd = e.Session.Cwd
		}
	case event.UserMessage:
		t.closeStreams()
		b := t.addBlock(KindPrompt)
		t.turns[len(t.turns)-1].number = e.Turn
		if e.Command != "" {
			// A custom command shows what was typed, with the text it
			// expanded to (what the model received) folded below.
			b.appendSource(e.Command + "\n" + e.Text)
			b.collapsed = true
		} else {
			b.appendSource(e.Text)
		}
		t.finish(b)
	case event.TurnStarted:
		r.turnOpen = true
		if n := len(t.turns); n > 0 && t.turns[n-1].number == 0 {
			t.turns[n-1].number = e.Turn
		}
	case event.ReasoningDelta:
		if r.assistant != nil { // reasoning after text starts a new step
			t.finish(r.assistant)
			r.assistant = nil
		}
		if r.reasoning == nil {
			r.reasoning = t.addBlock(KindReasoning)
		}
		t.appendTo(r.reasoning, e.Text)
	case event.AssistantDelta:
		if r.reasoning != nil {
			t.finish(r.reasoning)
			r.reasoning = nil
		}
		if r.assistant == nil {
			r.assistant = t.addBlock(KindAssistant)
		}
		t.appendTo(r.assistant, e.Text)
	case event.AssistantMessage:
		if r.reasoning != nil {
			t.finish(r.reasoning)
			r.reasoning = nil
		}
		b := r.assistant
		if b == nil && e.Text != "" {
			b = t.addBlock(KindAssistant)
		}
		if b != nil {
			// Deltas a slow consumer dropped are recovered from the
			// message, which holds the whole text.
			if have := b.src.String(); len(e.Text) > len(have) && e.Text[:len(have)] == have {
				t.appendTo(b, e.Text[len(have):])
			}
			t.finish(b)
		}
		r.assistant = nil
	case event.ToolCallRequested:
		if e.Call != nil {
			t.toolBlock(e.Call.ID, e.Call.Name, e.Call.ToolKind, e.Call.Target)
		}
	case event.ApprovalRequested:
		if a := e.Approval; a != nil && !t.subagentAsks(a, true) {
			b := t.toolBlock(a.CallID, a.Tool, "", a.Target)
			t.setToolState(b, ToolAwaiting)
		}
	case event.ApprovalAnswered:
		if a := e.Approval; a != nil && !t.subagentAsks(a, false) {
			b := t.toolBlock(a.CallID, a.Tool, "", a.Target)
			if a.Decision == event.Deny {
				b.tool.reason = a.Reason
				t.setToolState(b, ToolDenied)
			} else {
				t.setToolState(b, ToolRunning)
			}
		}
	case event.ToolOutputDelta:
		b := t.toolBlock(e.CallID, "", "", "")
		if b.tool.state < ToolRunning {
			b.tool.state = ToolRunning
		}
		t.appendTo(b, e.Text)
	case event.ToolFinished:
		if res := e.Result; res != nil {
			t.finishTool(res)
		}
	case event.SubagentUpdate:
		t.applySubagent(e)
	case event.TurnEnded:
		t.endTurn(e.End)
	case event.Compacted:
		if c := e.Compaction; c != nil {
			how := "Context compacted"
			if c.Manual {
				how = "Context compacted on request"
			}
			t.notice(fmt.Sprintf("%s: %d → %d tokens", how, c.BeforeTokens, c.AfterTokens), false)
		}
	case event.Notice:
		t.notice(e.Text, e.Level == "warn")
	case event.Error:
		t.closeStreams()
		b := t.addBlock(KindError)
		b.appendSource(e.Text)
		t.finish(b)
	}
}

func (t *Transcript) notice(text string, warn bool) {
	b := t.addBlock(KindNotice)
	b.warn = warn
	b.appendSource(text)
	t.finish(b)
}

// toolBlock returns the block of a call, creating it when an event names
// a call that was never announced (an approval for a call the log lost).
func (t *Transcript) toolBlock(callID, name, kind, target string) *Block {
	if b, ok := t.red.calls[callID]; ok {
		if !b.finished && (name != "" && b.tool.name == "" || target != "" && b.tool.target == "") {
			b.tool.name = cmp.Or(b.tool.name, name)
			b.tool.target = cmp.Or(b.tool.target, target)
			t.changed(b)
		}
		return b
	}
	// A tool call ends the streamed text before it.
	if t.red.assistant != nil {
		t.finish(t.red.assistant)
		t.red.assistant = nil
	}
	if t.red.reasoning != nil {
		t.finish(t.red.reasoning)
		t.red.reasoning = nil
	}
	b := t.addBlock(KindTool)
	b.tool = &toolInfo{callID: callID, name: name, kind: kind, target: target}
	t.red.calls[callID] = b
	t.changed(b)
	return b
}

// setToolState records where a call stands. Only its result (or the end
// of the turn) finishes the block: a finished block never changes again,
// which is what lets the inline view write it out once.
func (t *Transcript) setToolState(b *Block, s ToolState) {
	if b.finished {
		return
	}
	b.tool.state = s
	t.changed(b)
}

func (t *Transcript) finishTool(res *event.ToolResult) {
	b := t.toolBlock(res.CallID, res.Name, "", "")
	tl := b.tool
	if b.finished {
		return // exactly one result per call; ignore a duplicate
	}
	switch res.Status {
	case event.ToolOK:
		tl.state = ToolSucceeded
	case event.ToolError:
		tl.state = ToolFailed
	case event.ToolDenied:
		tl.state = ToolDenied
	case event.ToolCancelled:
		tl.state = ToolCancelled
	}
	tl.exitCode = res.ExitCode
	tl.duration = time.Duration(res.DurationMS) * time.Millisecond
	tl.diff = res.Diff
	if b.src.Len() == 0 && res.Output != "" && tl.state != ToolDenied {
		// Output that did not stream shows the result the model saw.
		b.appendSource(res.Output)
	}
	b.body = nil // the body may switch from streamed output to a diff
	t.finish(b)
}

func (t *Transcript) appendTo(b *Block, text string) {
	if text == "" || b.finished {
		return
	}
	b.appendSource(text)
	if b.body != nil && b.bodyWidth > 0 {
		// Feed the live renderer now so a frame only asks it for lines.
		b.feed()
	}
	t.changed(b)
}

// finish marks b as complete.
func (t *Transcript) finish(b *Block) {
	if b.finished {
		return
	}
	b.finished = true
	t.changed(b)
	t.filterFinished(b)
}

// closeStreams finishes streamed text: a new prompt or an error ends it.
func (t *Transcript) closeStreams() {
	if t.red.assistant != nil {
		t.finish(t.red.assistant)
		t.red.assistant = nil
	}
	if t.red.reasoning != nil {
		t.finish(t.red.reasoning)
		t.red.reasoning = nil
	}
}

func (t *Transcript) endTurn(end *event.TurnEnd) {
	t.closeStreams()
	t.red.turnOpen = false
	state := event.TurnCompleted
	if end != nil {
		state = end.State
	}
	// Every call gets a result from the engine; a log cut short (a crash,
	// an old session) must still not leave a call spinning forever.
	for id, b := range t.red.calls {
		if !b.tool.state.done() {
			b.tool.state = ToolCancelled
		}
		t.finish(b)
		delete(t.red.calls, id)
	}
	switch state {
	case event.TurnCancelled:
		t.notice("Turn cancelled", false)
	case event.TurnFailed:
		msg := "Turn failed"
		if end != nil && end.Error != "" {
			msg = end.Error
		}
		b := t.addBlock(KindError)
		b.appendSource(msg)
		t.finish(b)
	}
}

// Streaming reports whether a turn is in progress.
func (t *Transcript) Streaming() bool { return t.red.turnOpen }

// ToolBlock returns the block showing a tool call.
func (t *Transcript) ToolBlock(callID string) (ID, bool) {
	for i := len(t.blocks) - 1; i >= 0; i-- {
		if b := t.blocks[i]; b.tool != nil && b.tool.callID == callID {
			return b.id, true
		}
	}
	return 0, false
}

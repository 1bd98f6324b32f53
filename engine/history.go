package engine

import (
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
)

// HistoryFromEvents rebuilds the model's history — exactly the messages it
// was sent, after the system prompt — from a session's events. The live
// session keeps its history by applying the very events it emits to the
// same builder, so resuming from the log gives the model what it saw.
func HistoryFromEvents(evs []event.Event) []Message {
	var b historyBuilder
	for _, e := range evs {
		b.apply(e)
	}
	b.settle()
	return b.messages()
}

// historyBuilder folds events into a history.
type historyBuilder struct {
	msgs []Message
	// lastUser is the text of the latest prompt, re-stated after a
	// compaction.
	lastUser string
	// turnItems are the assistant and tool messages of the current turn,
	// kept verbatim across a compaction in the middle of it.
	turnItems []Message
	// pending are the calls of the latest assistant message still waiting
	// for a result, and results what has arrived for them.
	pending []event.ToolCall
	results map[string]string
	failed  map[string]bool // calls whose result is not a success
	// openTurn is the turn that started and has not ended, 0 if none.
	openTurn int
	lastTurn int
	lastSeq  uint64
}

func (b *historyBuilder) apply(e event.Event) {
	if e.Seq > b.lastSeq {
		b.lastSeq = e.Seq
	}
	if e.Turn > b.lastTurn {
		b.lastTurn = e.Turn
	}
	switch e.Kind {
	case event.UserMessage:
		b.settle()
		b.msgs = append(b.msgs, Message{Role: RoleUser, Content: e.Text})
		b.lastUser = e.Text
		b.turnItems = nil
	case event.TurnStarted:
		b.openTurn = e.Turn
	case event.AssistantMessage:
		b.settle()
		m := Message{Role: RoleAssistant, Content: e.Text, Calls: e.Calls, Reasoning: e.Reasoning, State: decodeState(e.State)}
		b.add(m)
		if len(e.Calls) > 0 {
			b.pending = e.Calls
			b.results = make(map[string]string, len(e.Calls))
			b.failed = map[string]bool{}
		}
	case event.ToolFinished:
		if e.Result == nil || b.pending == nil {
			return
		}
		b.results[e.Result.CallID] = e.Result.Output
		if e.Result.Status != event.ToolOK {
			b.failed[e.Result.CallID] = true
		}
		if len(b.results) >= len(b.pending) {
			b.settle()
		}
	case event.TurnEnded:
		b.settle()
		b.openTurn = 0
		b.turnItems = nil
	case event.Compacted:
		b.settle()
		if e.Compaction == nil {
			return
		}
		var items []Message
		if e.Turn != 0 {
			items = b.turnItems
		}
		b.msgs = rebuildAfterCompaction(b.lastUser, items, e.Compaction.Summary, e.Turn != 0)
	}
}

// add appends a message of the current turn.
func (b *historyBuilder) add(m Message) {
	b.msgs = append(b.msgs, m)
	if b.openTurn != 0 {
		b.turnItems = append(b.turnItems, m)
	}
}

// settle appends the results of the pending calls in the order the model
// made them, answering any call left without one.
func (b *historyBuilder) settle() {
	if b.pending == nil {
		return
	}
	for _, c := range b.pending {
		out, ok := b.results[c.ID]
		if !ok {
			out = missingResult
		}
		if out == "" {
			out = noOutput
		}
		b.add(Message{Role: RoleTool, CallID: c.ID, Name: c.Name, Content: out, IsError: !ok || b.failed[c.ID]})
	}
	b.pending, b.results, b.failed = nil, nil, nil
}

// unanswered lists the pending calls without a result.
func (b *historyBuilder) unanswered() []event.ToolCall {
	var out []event.ToolCall
	for _, c := range b.pending {
		if _, ok := b.results[c.ID]; !ok {
			out = append(out, c)
		}
	}
	return out
}

// messages returns a copy of the history.
func (b *historyBuilder) messages() []Message {
	return append([]Message(nil), b.msgs...)
}

// rebuildAfterCompaction is the history that replaces everything before a
// compaction, in a fixed order: the last prompt verbatim in <user_query>,
// the current turn's messages verbatim, the summary, and — when the turn
// goes on — a reminder to carry on. The system prompt (with AGENTS.md)
// comes before all of it in every request and never passes through the
// summariser.
func rebuildAfterCompaction(lastUser string, turnItems []Message, summary string, midTurn bool) []Message {
	var out []Message
	if lastUser != "" {
		out = append(out, Message{Role: RoleUser, Special: SpecialQuery,
			Content: "The user's latest message, verbatim:\n<user_query>\n" + lastUser + "\n</user_query>"})
	}
	out = append(out, turnItems...)
	out = append(out, Message{Role: RoleUser, Special: SpecialSummary, Content: summaryPreamble + "\n<summary>\n" + summary + "\n</summary>"})
	if midTurn {
		out = append(out, Message{Role: RoleUser, Special: SpecialReminder, Content: continueReminder})
	}
	return out
}

const (
	summaryPreamble  = "This conversation ran out of context and was compacted. The summary below replaces the earlier messages; the full transcript is kept in the session log."
	continueReminder = "Continue the current task from where it stopped, using the summary above. Do not repeat work that is already done and do not restate this instruction."
)

// ReasoningStates lists the reasoning state of each assistant message of
// a history, in order: what a provider is asked whether it can take back.
func ReasoningStates(history []Message) [][]llm.ReasoningState {
	var out [][]llm.ReasoningState
	for _, m := range history {
		if m.Role == RoleAssistant && len(m.State) > 0 {
			out = append(out, m.State)
		}
	}
	return out
}

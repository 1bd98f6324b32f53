// Package engine runs quire's conversations with the model: one session
// actor per conversation, the turn loop (sample, approve, run tools,
// sample again), compaction, and the headless `quire exec` runner.
//
// A Session is owned by one goroutine, the actor; everything else talks
// to it with commands and listens to its events. The actor's state is
// guarded by a mutex it holds except while it waits, so a streamed delta
// is handled in the stream's own goroutine when nothing sent before it
// still waits (no wake-up of the actor per delta); what ends or starts
// work (a finished sample, a tool's result, a command) always goes through
// the actor:
//
//	s, err := engine.New(cfg)            // or engine.Resume(cfg, priorEvents)
//	go func() { for e := range s.Events() { ... } }()
//	s.Submit("fix the failing test")     // queued in order while a turn runs
//	s.SubmitCommand("/review a.go", text) // a custom command's expansion, the line typed kept beside it
//	s.Answer(callID, event.Approve, "")  // answers an ApprovalRequested event
//	s.Cancel()                           // Esc: the turn ends Cancelled
//	s.Compact("keep the auth details")   // /compact [focus]
//	s.Notify("warn", "…")                // a notice from outside the turn loop
//	info := s.Info()
//	s.Close()                            // Events is closed after the last event
//
// For scripts, Exec runs one unattended turn (calls that would need
// approval are denied like a policy denial and the turn goes on) and
// prints its answer or its events as JSONL.
//
// The events (package event) are the session's whole output and its
// record: the UI draws them, the Recorder stores them, and
// HistoryFromEvents rebuilds from them exactly the history the model
// was sent, which is how Resume continues a session. The engine assigns
// Seq and Time; a UserMessage is recorded durably before it is emitted,
// and emitted when its turn starts (a prompt queued behind a running turn
// is not yet part of the log). When the Recorder fails (a full disk), the
// engine says so once with a Notice whose Store is StoreFailing (the UI's
// status line shows it), goes on, and says StoreOK once recording works
// again; a prompt that cannot be recorded is not sent, and Exec fails with
// one line on stderr.
//
// A call's streamed output (ToolOutputDelta) is bounded: the first 64 KiB
// as it comes, then at the end of the call how much was left out and the
// last 64 KiB (bound.go), so the store and `quire exec --json` do not grow
// with what a command prints; the model gets the tool's own result.
//
// Within a turn the engine samples the model through its Sampler (a
// protocol package over package llm), offering the tools the registry
// holds at that moment — its list changes as MCP servers connect, change
// their lists and fail, so every request asks (the definitions are
// derived again only when the list changed), and a request first waits
// for tool sources still starting. When the model asks for tools the
// engine plans the calls in the model's order, each against the files as the
// earlier calls will leave them (tools.Overlay), asks the Approver about
// each call in that order, one at a time, then runs the approved calls in
// parallel — a call that writes what an earlier one reads or writes, or
// reads what it writes, waits for it; a call planned on the changes of an
// earlier call that was denied or failed is not run — feeds the results
// back in the order of the calls and samples again, until the model
// answers without tools. A denial, a cancel or a new prompt during approval stops the
// calls not yet approved and ends the turn Cancelled; a tool's failure is
// just that call's result. Every call gets exactly one ToolFinished, so
// the next request is always valid. Guards stop a turn that exceeds its
// tool rounds or repeats one call three times in a row, and fail one
// whose answer is empty because the output limit was hit. An answer cut
// at the output limit is kept and marked (its FinishReason, the turn's
// TurnEnd.Truncated, a notice), so a "continue" from the user carries on
// from it; a tool call cut in the middle is not run, and the model is
// told why.
//
// Hooks (Config.Hooks, the user's own programs; package ext/hooks runs
// them) sit at two kinds of point. Before a call is put to the approval
// gate its PreToolUse hooks run, off the actor, one call at a time in
// the model's order: a refusal gives the call a denied result carrying
// the hook's reason (the turn goes on, the model told why), and a hook
// may also ask that the user be asked; it can never approve a call. The
// other events (SessionStart, UserPromptSubmit once the prompt is
// durable, PostToolUse, PermissionDenied, Notification when an approval
// waits, PreCompact, PostCompact, Stop, SessionEnd) are handed over and
// never awaited; a hook that fails is a warning notice in the log, and
// nothing a hook says reaches the model but a refusal's reason.
//
// With Config.Subagents set, the model also has the task tool (task.go,
// subagent.go): each call runs a child session, a Session like this one
// with its own history (the task's prompt), a narrower tool set (the
// read-only tools unless its agent names others, never more than the
// parent's and never the task tool: children are one level deep), the
// parent's sandbox profile, approver and approval mode, and its own model
// when its agent names one (the Spawner, which the session wiring
// implements, resolves each setting explicit > agent > parent and stores
// the child as a session of its own). A task call plans like a read, so
// several run in parallel; the call's goroutine drives its child, the
// parent records SubagentUpdate events (started, each tool call, how it
// ended) and asks the child's approvals in its own flow under the id
// "TASKCALL/CHILDCALL", and the child's last answer (bounded, asked for
// again when it is empty) is the call's result. A cancel of the parent's
// turn cancels its children; a child's failure is only its call's
// result; its tokens and cost roll up into the parent's TurnEnd.
//
// Before each request the history's size is estimated (the API's last
// count plus bytes/4 of what came since); at 85 % of the window the
// history is compacted: summarised by the model into nine sections and
// replaced by the last prompt, the current turn's messages and the
// summary. The system prompt, with the project's AGENTS.md verbatim, is
// rebuilt for every request and never summarised.
package engine

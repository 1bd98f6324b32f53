package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/internal/queue"
)

// Session is one conversation with the model, owned by a single goroutine
// (the actor). Its methods only post commands to that goroutine and never
// block on it, except Info and History, which wait for the answer. The
// events it emits arrive on Events in order.
type Session struct {
	cfg    Config
	system string
	// defs are the tool definitions of the registry's latest version,
	// derived once per change (toolDefs); the request workers read them.
	defsMu      sync.Mutex
	defs        []llm.ToolSpec
	defsVersion uint64
	defsBuilt   bool
	// task is the task tool, for a session with Subagents.
	task *taskTool

	cmds *queue.Unbounded[command] // the mailbox: a sender never blocks, however stalled the session is
	work chan any
	out  *outbox
	done chan struct{}

	// act is held by whoever runs the actor's handlers: the actor
	// goroutine from the moment it takes a message until it waits for
	// the next, or a worker handing a report over itself (report). queued
	// counts reports sent on work and not yet handled; exited is set, under
	// act, when the actor has stopped.
	act    sync.Mutex
	queued atomic.Int64
	exited bool

	// cancelFn cancels what runs now (a turn or a manual compaction). It
	// is also called directly by Cancel, so the HTTP stream and running
	// tools stop even before the actor reads the command.
	cancelMu sync.Mutex
	cancelFn context.CancelFunc

	finalMu sync.Mutex
	final   Info

	// stopping is set by Close before anything else, so that no queued
	// prompt starts while the shutdown command waits behind a finished
	// sample.
	stopping atomic.Bool

	// Everything below is owned by the actor goroutine.
	hist         historyBuilder
	seq          uint64
	turnNo       int
	jobs         int
	queue        []queued
	turn         *turn
	manual       *manualCompaction
	closing      bool
	resumed      bool
	usage        event.Usage
	lastUsage    int // tokens the API counted for the history up to lastUsageLen
	lastUsageLen int
	suppress     suppression
	recordFailed bool
	// asks are the children's approval requests waiting for the user, by
	// the id they are asked under (askID).
	asks map[string]pendingAsk
}

// queued is work waiting for the current turn to end: a prompt, or a
// manual compaction.
type queued struct {
	prompt  string
	command string // the /command line the prompt came from, if any
	compact bool
	focus   string
}

// Info is a snapshot of a session.
type Info struct {
	ID      string
	Model   string
	Resumed bool
	// Turn is the number of the latest turn; Running reports whether it
	// is still going, Queued how many prompts wait behind it.
	Turn    int
	Running bool
	Queued  int
	// ContextTokens estimates the history's size; ContextWindow is the
	// model's window.
	ContextTokens int
	ContextWindow int
	// Usage totals every turn of this run of the session.
	Usage event.Usage
	// LastSeq is the Seq of the latest event.
	LastSeq uint64
}

// New starts a new session. Its first event is SessionStarted.
func New(cfg Config) (*Session, error) {
	s, err := build(cfg, nil)
	if err != nil {
		return nil, err
	}
	go s.run()
	return s, nil
}

// Resume starts a session that continues the one whose events are prior:
// the history is rebuilt from them (HistoryFromEvents), Seq and turn
// numbers carry on, and SessionStarted is emitted with Resumed set. A turn
// the log left open (quire was killed during it) is closed first: its
// unanswered calls get a result and it ends Cancelled.
func Resume(cfg Config, prior []event.Event) (*Session, error) {
	if len(prior) == 0 {
		return nil, fmt.Errorf("resume: the session log is empty")
	}
	// A resumed session keeps the id of its log, unless the caller names
	// it: a fork (/rewind) carries its source's SessionStarted but is a
	// session of its own.
	for _, e := range prior {
		if cfg.SessionID != "" {
			break
		}
		if e.Kind == event.SessionStarted && e.Session != nil && e.Session.ID != "" {
			cfg.SessionID = e.Session.ID
		}
	}
	s, err := build(cfg, prior)
	if err != nil {
		return nil, err
	}
	go s.run()
	return s, nil
}

// build prepares a session without starting its actor.
func build(cfg Config, prior []event.Event) (*Session, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Session{
		cfg:  cfg,
		cmds: queue.NewUnbounded[command](),
		work: make(chan any, 256),
		out:  newOutbox(),
		done: make(chan struct{}),
	}
	if cfg.Subagents != nil {
		s.task = &taskTool{s: s, spec: taskSpec(cfg.Subagents)}
	}
	s.system = systemPrompt(promptEnv{
		Dir: cfg.Env.Dir, OS: osName(), Date: cfg.Now(), Sandbox: cfg.Sandbox, Approval: cfg.ApprovalMode,
		Tools: s.fixedSpecs(), Instructions: cfg.Instructions, Role: cfg.Role, AgentsMD: readAgentsMD(cfg.Env.Dir),
	})
	for _, e := range prior {
		if err := event.Upgrade(&e); err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
		s.hist.apply(e)
	}
	s.seq, s.turnNo, s.resumed = s.hist.lastSeq, s.hist.lastTurn, prior != nil
	s.emit(event.Event{Kind: event.SessionStarted, Session: &event.SessionInfo{
		ID: cfg.SessionID, Cwd: cfg.Env.Dir, Model: cfg.Model, Provider: cfg.Provider, Version: cfg.Version,
		Sandbox: cfg.Sandbox, Approval: cfg.ApprovalMode, Resumed: s.resumed, Parent: cfg.Parent,
	}})
	for _, n := range cfg.Notices {
		s.notice(0, n.Level, n.Text)
	}
	if sp := cfg.Subagents; sp != nil {
		for _, n := range sp.Notices() {
			s.notice(0, "warn", n)
		}
	}
	trigger := "startup"
	if s.resumed {
		trigger = "resume"
	}
	s.observe(HookEvent{Name: HookSessionStart, Trigger: trigger})
	if s.hist.openTurn != 0 {
		s.closeInterruptedTurn(s.hist.openTurn)
	}
	return s, nil
}

// closeInterruptedTurn ends a turn a previous run left open.
func (s *Session) closeInterruptedTurn(n int) {
	for _, c := range s.hist.unanswered() {
		s.emit(event.Event{Kind: event.ToolFinished, Turn: n, CallID: c.ID, Result: &event.ToolResult{
			CallID: c.ID, Name: c.Name, Status: event.ToolCancelled, Output: missingResult,
		}})
	}
	s.emit(event.Event{Kind: event.TurnEnded, Turn: n, End: &event.TurnEnd{
		State: event.TurnCancelled, Error: "interrupted: quire stopped during this turn",
		ContextTokens: s.estimate(), ContextWindow: s.cfg.ContextWindow,
	}})
}

// Events delivers the session's events in order. A slow reader never
// stalls the session: text deltas wait and merge, other events wait. The
// channel is closed after Close, once the last event is delivered; read
// it until then.
func (s *Session) Events() <-chan event.Event { return s.out.out }

// Submit sends a prompt. It starts a turn at once when none runs;
// otherwise it waits its turn in order — except while the session waits
// for an approval, where a new prompt also stops the calls not yet
// approved and ends the running turn Cancelled.
func (s *Session) Submit(text string) { s.cmds.Push(cmdSubmit{text: text}) }

// SubmitCommand sends the prompt a custom /command expanded to: text is
// what the model receives, command the line the user typed, which the
// UserMessage records beside it. It queues and interjects as Submit does.
func (s *Session) SubmitCommand(command, text string) {
	s.cmds.Push(cmdSubmit{text: text, command: command})
}

// Cancel stops the running turn (or manual compaction) promptly: the
// HTTP stream is closed, running tools are cancelled, every open call
// gets a result and the turn ends Cancelled. Queued prompts stay queued.
func (s *Session) Cancel() {
	s.cancelMu.Lock()
	if s.cancelFn != nil {
		s.cancelFn()
	}
	s.cancelMu.Unlock()
	s.cmds.Push(cmdCancel{})
}

// Answer answers the ApprovalRequested event for callID. An answer for a
// call that is not waiting is ignored.
func (s *Session) Answer(callID string, d event.Decision, reason string) {
	s.cmds.Push(cmdAnswer{callID, d, reason})
}

// Compact replaces the history by a summary now (after the running turn,
// if any), with focus added to the summary instructions. It runs even
// when automatic compaction is suppressed.
func (s *Session) Compact(focus string) { s.cmds.Push(cmdCompact{focus}) }

// Info returns a snapshot of the session.
func (s *Session) Info() Info {
	reply := make(chan Info, 1)
	s.cmds.Push(cmdInfo{reply})
	select {
	case i := <-reply:
		return i
	case <-s.done:
		s.finalMu.Lock()
		defer s.finalMu.Unlock()
		return s.final
	}
}

// History returns a copy of the history the next request would send
// (after the system prompt); nil once the session is closed.
func (s *Session) History() []Message {
	reply := make(chan []Message, 1)
	s.cmds.Push(cmdHistory{reply})
	select {
	case h := <-reply:
		return h
	case <-s.done:
		return nil
	}
}

// Notify shows the user a notice (level "info" or "warn") in the
// session's transcript and records it: news from outside the turn loop,
// such as an MCP server that stopped.
func (s *Session) Notify(level, text string) { s.cmds.Push(cmdNotify{level, text}) }

// Close cancels the running turn, waits until it has ended (its events
// are emitted), drops queued prompts and stops the session. Events is
// closed after the last event.
func (s *Session) Close() {
	s.stopping.Store(true)
	s.cmds.Push(cmdShutdown{})
	s.Cancel()
	<-s.done
}

type (
	cmdSubmit struct{ text, command string }
	cmdCancel struct{}
	cmdAnswer struct {
		callID string
		d      event.Decision
		reason string
	}
	cmdCompact  struct{ focus string }
	cmdInfo     struct{ reply chan Info }
	cmdHistory  struct{ reply chan []Message }
	cmdShutdown struct{}
	cmdNotify   struct{ level, text string }
	command     any
)

// run is the actor. Worker reports (sample progress and results, tool
// output and results, compaction results) always go before commands: a
// finished sample or batch is digested before new work is taken.
//
// The actor's state is guarded by act, which the actor holds except while
// it waits: a worker whose report may be handled at once (report) takes
// act and runs the handler itself instead of waking the actor.
func (s *Session) run() {
	s.act.Lock()
	defer func() {
		s.observe(HookEvent{Name: HookSessionEnd, Trigger: "exit"})
		s.finalMu.Lock()
		s.final = s.info()
		s.finalMu.Unlock()
		s.exited = true
		s.out.close()
		close(s.done)
		s.act.Unlock()
	}()
	for {
		select {
		case m := <-s.work:
			s.handleQueued(m)
			continue
		default:
		}
		if s.closing && s.turn == nil && s.manual == nil {
			return
		}
		if c, ok := s.cmds.Pop(); ok {
			s.handleCommand(c)
			continue
		}
		s.act.Unlock()
		select {
		case m := <-s.work:
			s.act.Lock()
			s.handleQueued(m)
		case <-s.cmds.Wake():
			s.act.Lock()
		}
	}
}

// handleQueued handles a report that came through work; act is held.
func (s *Session) handleQueued(m any) {
	s.handleWork(m)
	s.queued.Add(-1)
}

func (s *Session) handleCommand(c command) {
	switch c := c.(type) {
	case cmdSubmit:
		if s.closing {
			return
		}
		s.queue = append(s.queue, queued{prompt: c.text, command: c.command})
		if t := s.turn; t != nil && (t.phase == phaseApproving || t.phase == phaseHooking) {
			s.interject()
			return
		}
		s.maybeStart()
	case cmdCancel:
		s.cancelCurrent()
	case cmdAnswer:
		s.answer(c.callID, c.d, c.reason)
	case cmdCompact:
		if s.closing {
			return
		}
		s.queue = append(s.queue, queued{compact: true, focus: c.focus})
		s.maybeStart()
	case cmdInfo:
		c.reply <- s.info()
	case cmdHistory:
		c.reply <- s.hist.messages()
	case cmdNotify:
		turn := 0
		if s.turn != nil {
			turn = s.turn.n
		}
		s.notice(turn, c.level, c.text)
	case cmdShutdown:
		s.closing = true
		s.queue = nil
		s.cancelCurrent()
	}
}

func (s *Session) info() Info {
	i := Info{
		ID: s.cfg.SessionID, Model: s.cfg.Model, Resumed: s.resumed,
		Turn: s.turnNo, Running: s.turn != nil, Queued: len(s.queue),
		ContextTokens: s.estimate(), ContextWindow: s.cfg.ContextWindow,
		Usage: s.usage, LastSeq: s.seq,
	}
	return i
}

// maybeStart is the single-flight gate: it starts the next queued item
// when nothing runs.
func (s *Session) maybeStart() {
	if s.turn != nil || s.manual != nil || s.closing || s.stopping.Load() || len(s.queue) == 0 {
		return
	}
	q := s.queue[0]
	s.queue = s.queue[1:]
	if q.compact {
		s.startManualCompaction(q.focus)
		return
	}
	s.startTurn(q.prompt, q.command)
}

// setCancel publishes the cancel function of what runs now.
func (s *Session) setCancel(f context.CancelFunc) {
	s.cancelMu.Lock()
	s.cancelFn = f
	s.cancelMu.Unlock()
}

// send hands a worker's report to the actor; it gives up only once the
// actor has exited (a tool that ignored its cancel and finished late).
func (s *Session) send(m any) {
	s.queued.Add(1)
	select {
	case s.work <- m:
	case <-s.done:
		s.queued.Add(-1)
	}
}

// report hands a worker's report to the actor's handler in the worker's
// own goroutine when nothing sent before it is still waiting, so a
// streamed delta costs no wake-up of the actor (the stream's goroutine
// emits it, records it and gives it to the consumer itself); otherwise it
// queues behind what waits, as send does. Only reports that end nothing
// go this way (a delta, never a sample's end): what the actor must look
// at after a report (a turn ended, the session closing, a queued prompt)
// comes through work.
func (s *Session) report(m any) {
	s.act.Lock()
	if s.exited {
		s.act.Unlock()
		return
	}
	if s.queued.Load() == 0 {
		s.handleWork(m)
		s.act.Unlock()
		return
	}
	s.act.Unlock()
	s.send(m)
}

// emit stamps an event, records it, folds it into the history and queues
// it for the consumer.
func (s *Session) emit(e event.Event) {
	s.seq++
	e.V, e.Seq, e.Time = event.SchemaVersion, s.seq, s.cfg.Now()
	var err error
	if r := s.cfg.Recorder; r != nil {
		err = r.Record(e, false)
	}
	s.hist.apply(e)
	s.out.push(e)
	if r := s.cfg.Recorder; r != nil {
		s.storeState(err)
	}
}

// emitDurable is emit for events that must be in the store before anyone
// sees them. On failure nothing is emitted.
func (s *Session) emitDurable(e event.Event) error {
	e.V, e.Seq, e.Time = event.SchemaVersion, s.seq+1, s.cfg.Now()
	if r := s.cfg.Recorder; r != nil {
		if err := r.Record(e, true); err != nil {
			return err
		}
	}
	s.seq++
	s.hist.apply(e)
	s.out.push(e)
	return nil
}

// storeState tells the user, through a Notice carrying the status the UI
// shows, when saving the session starts failing and when it works again.
// The conversation goes on either way: the Recorder keeps what it could
// not save and saves it once it can.
func (s *Session) storeState(err error) {
	switch {
	case err != nil && !s.recordFailed:
		s.recordFailed = true
		s.emit(event.Event{Kind: event.Notice, Level: "warn", Store: event.StoreFailing,
			Text: fmt.Sprintf("%v; what follows is kept in memory until it can be saved", err)})
	case err == nil && s.recordFailed:
		s.recordFailed = false
		s.emit(event.Event{Kind: event.Notice, Level: "info", Store: event.StoreOK, Text: "the session is saved again"})
	}
}

func (s *Session) notice(turn int, level, text string) {
	s.emit(event.Event{Kind: event.Notice, Turn: turn, Level: level, Text: text})
}

// toolDefs are the definitions of the tools the registry holds now. The
// registry's list changes while the session runs (MCP servers connect,
// change their lists, fail), so every request asks; the definitions are
// derived again only when its version moved. Safe for concurrent use.
func (s *Session) toolDefs() []llm.ToolSpec {
	v := s.cfg.Tools.Version()
	s.defsMu.Lock()
	defer s.defsMu.Unlock()
	if s.defsBuilt && v == s.defsVersion {
		return s.defs
	}
	specs := s.toolSpecs()
	defs := make([]llm.ToolSpec, 0, len(specs))
	for _, sp := range specs {
		params := sp.Schema
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		defs = append(defs, llm.ToolSpec{Name: sp.Name, Description: sp.Description, Schema: params})
	}
	s.defs, s.defsVersion, s.defsBuilt = defs, v, true
	return defs
}

// estimate is the size of the next request in tokens: what the API last
// counted plus bytes/4 of what was added since, or bytes/4 of everything
// when the API has not reported usage.
func (s *Session) estimate() int {
	msgs := s.hist.msgs
	if s.lastUsage > 0 && s.lastUsageLen <= len(msgs) {
		return s.lastUsage + historyBytes(msgs[s.lastUsageLen:])/4
	}
	n := len(s.system) + historyBytes(msgs)
	for _, t := range s.toolDefs() {
		n += len(t.Name) + len(t.Description) + len(t.Schema)
	}
	return n / 4
}

package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/tools"
)

// A task call runs a child session: a Session like any other, with its own
// history (the task's prompt), the tools Plan gave it, the parent's
// sandbox profile, approver and approval mode, and its own model when its
// agent names one. The call's goroutine drives it and reports to the
// parent's actor, which records what the transcript needs in the parent's
// log: SubagentUpdate events, and the child's approvals, asked through
// the parent's flow.

const (
	// maxReportBytes bounds the report the parent model is given.
	maxReportBytes = 32 << 10
	// childToolRounds caps a child's tool rounds (the parent's own cap
	// when that is lower): a subagent that loops is stopped sooner than
	// the main session, which the user watches.
	childToolRounds = 50
	// reportAttempts is how many times a child that ended without a
	// report is asked again for one (the completion contract's
	// recovery), waiting reportRetryBase, then twice as long, up to
	// reportRetryMax, before each.
	reportAttempts  = 2
	reportRetryBase = 250 * time.Millisecond
	reportRetryMax  = 2 * time.Second
)

// reportPrompt asks a child that ended without a report for one.
const reportPrompt = "You stopped without writing your report. Write it now as your answer: what you found or did (with file paths and line numbers where they matter) and what you could not finish. Do not call tools unless something essential is missing."

// roleSection is the child's part of its system prompt.
func roleSection(c Child) string {
	var b strings.Builder
	b.WriteString("# Your role\n\nYou are a subagent: the main agent of this session gave you one task, which is the user's message below. Work on it alone with your tools; nobody can answer questions, and nobody reads your messages but the main agent. When you are done, answer with your report: what you found or did, with file paths and line numbers where they matter, and anything you could not finish. Your last message is the only thing the main agent receives, so make it complete and concise.\n")
	if ins := strings.TrimSpace(c.Instructions); ins != "" {
		fmt.Fprintf(&b, "\n# Instructions of the agent %q\n\n%s\n", c.Agent, ins)
	}
	return b.String()
}

// Reports of a task call's goroutine to the actor.
type (
	// subagentNote is a SubagentUpdate to record.
	subagentNote struct {
		job    int
		callID string
		info   event.Subagent
	}
	// subagentWarning is a notice about the child for the user.
	subagentWarning struct {
		job    int
		callID string
		text   string
	}
	// childAsk is a child's approval request, asked through the parent.
	childAsk struct {
		job      int
		callID   string // the task call
		agent    string
		child    *Session
		approval event.Approval
	}
	// childDenied is a call the child's policy denied (unattended),
	// mirrored so the parent's log says so.
	childDenied struct {
		job      int
		callID   string
		agent    string
		approval event.Approval
	}
)

// pendingAsk is a child's approval request waiting for the user.
type pendingAsk struct {
	task   string // the parent's task call
	callID string // the child's own call
	agent  string
	child  *Session
}

// askID is the id a child's call is asked about under in the parent: the
// task call and the child's call, which are unique only together.
func askID(task, call string) string { return task + "/" + call }

// subagentHook fires the SubagentStart and SubagentStop hook events: on
// the parent's actor, as the child starts and once it has ended
// (info.State says how).
func (s *Session) subagentHook(name string, turn int, callID string, info event.Subagent) {
	s.observe(HookEvent{Name: name, Turn: turn, CallID: callID, Tool: TaskTool, Reason: info.Error, Subagent: &info})
}

// openCall finds a call of the running batch that has not finished.
func (t *turn) openCall(callID string) *callState {
	for _, c := range t.calls {
		if c.call.ID == callID && !c.done {
			return c
		}
	}
	return nil
}

// handleSubagent digests a task call's report; it is false when m is not
// one.
func (s *Session) handleSubagent(m any) bool {
	t := s.turn
	switch m := m.(type) {
	case subagentNote:
		if m.job != t.job || t.openCall(m.callID) == nil {
			return true
		}
		info := m.info
		s.emit(event.Event{Kind: event.SubagentUpdate, Turn: t.n, CallID: m.callID, Subagent: &info})
		switch {
		case info.State == event.SubagentStarted:
			s.subagentHook(HookSubagentStart, t.n, m.callID, info)
		case info.State.Done():
			t.addChildUsage(info.Usage, info.Cost)
			s.dropAsks(m.callID, "the subagent stopped")
			s.subagentHook(HookSubagentStop, t.n, m.callID, info)
		}
	case subagentWarning:
		if m.job == t.job && t.openCall(m.callID) != nil {
			s.notice(t.n, "warn", m.text)
		}
	case childAsk:
		if m.job != t.job || t.openCall(m.callID) == nil {
			// The task call is over: its child is stopping, and nobody
			// will be asked.
			return true
		}
		id := askID(m.callID, m.approval.CallID)
		if s.asks == nil {
			s.asks = map[string]pendingAsk{}
		}
		s.asks[id] = pendingAsk{task: m.callID, callID: m.approval.CallID, agent: m.agent, child: m.child}
		a := m.approval
		a.CallID, a.Subagent, a.Agent = id, m.callID, m.agent
		s.emit(event.Event{Kind: event.ApprovalRequested, Turn: t.n, CallID: id, Approval: &a})
	case childDenied:
		if m.job == t.job && t.openCall(m.callID) != nil {
			id := askID(m.callID, m.approval.CallID)
			a := m.approval
			a.CallID, a.Subagent, a.Agent = id, m.callID, m.agent
			s.emit(event.Event{Kind: event.ApprovalAnswered, Turn: t.n, CallID: id, Approval: &a})
		}
	default:
		return false
	}
	return true
}

// answerChild passes the user's answer about a child's call to the child,
// recording it in the parent's log; it is false when callID is not one.
func (s *Session) answerChild(callID string, d event.Decision, reason string) bool {
	ask, ok := s.asks[callID]
	if !ok {
		return false
	}
	delete(s.asks, callID)
	turn := 0
	if s.turn != nil {
		turn = s.turn.n
	}
	s.emit(event.Event{Kind: event.ApprovalAnswered, Turn: turn, CallID: callID, Approval: &event.Approval{
		CallID: callID, Decision: d, Reason: reason, Subagent: ask.task, Agent: ask.agent,
	}})
	ask.child.Answer(ask.callID, d, reason)
	return true
}

// dropAsks closes the questions of a task call's child that stopped (all
// of them when task is ""), so no approval prompt waits for a child that
// is gone.
func (s *Session) dropAsks(task, why string) {
	turn := 0
	if s.turn != nil {
		turn = s.turn.n
	}
	for _, id := range slices.Sorted(maps.Keys(s.asks)) {
		ask := s.asks[id]
		if task != "" && ask.task != task {
			continue
		}
		delete(s.asks, id)
		s.emit(event.Event{Kind: event.ApprovalAnswered, Turn: turn, CallID: id, Approval: &event.Approval{
			CallID: id, Decision: event.Deny, ByPolicy: true, Reason: why, Subagent: ask.task, Agent: ask.agent,
		}})
	}
}

// addChildUsage rolls a child's tokens and cost up into the turn's.
func (t *turn) addChildUsage(u *event.Usage, cost *float64) {
	if u == nil || u.TotalTokens == 0 {
		return
	}
	t.childUsage = addUsage(t.childUsage, *u)
	if cost != nil {
		t.childCost += *cost
	} else {
		t.childCostUnknown = true
	}
}

// childConfig is the configuration of a task call's child: the parent's,
// but for its own history, tools, model, role and store, a tighter round
// cap, and the parent's turn for the checkpoints of the files it writes
// (so /rewind of that turn puts them back).
func (s *Session) childConfig(a *taskAction, rec Recorder, id string, turn int, link event.ParentLink) Config {
	p := s.cfg
	env := *p.Env
	if bw := p.Env.BeforeWrite; bw != nil {
		env.BeforeWrite = func(_ int, path string) error { return bw(turn, path) }
	}
	rounds := childToolRounds
	if p.MaxToolRounds > 0 && p.MaxToolRounds < rounds {
		rounds = p.MaxToolRounds
	}
	c := Config{
		SessionID: id, Parent: &link,
		Model: p.Model, Provider: p.Provider, Sampler: p.Sampler, Cost: p.Cost, ContextWindow: p.ContextWindow,
		CompactPercent: p.CompactPercent, MaxTokens: p.MaxTokens, Temperature: p.Temperature,
		Tools: a.tools, Env: &env, Approver: p.Approver, Recorder: rec, Unattended: p.Unattended,
		// The user's hooks gate and observe a child's calls as the
		// parent's.
		Hooks:   p.Hooks,
		Version: p.Version, Sandbox: p.Sandbox, ApprovalMode: p.ApprovalMode,
		Role:          roleSection(a.child),
		MaxToolRounds: rounds,
		// The child's tools must stop before the parent gives up on the
		// task call.
		ToolCancelGrace: p.ToolCancelGrace / 2,
		CompactAttempts: p.CompactAttempts, CompactDelay: p.CompactDelay, CompactTimeout: p.CompactTimeout,
		Now: p.Now, ToolOutput: p.ToolOutput,
	}
	if ch := a.child; ch.Sampler != nil {
		c.Model, c.Provider, c.Sampler, c.Cost, c.ContextWindow, c.MaxTokens = ch.Model, ch.Provider, ch.Sampler, ch.Cost, ch.ContextWindow, 0
	}
	return c
}

// childOutcome is what the parent learns of a child's run.
type childOutcome struct {
	report   string // the child's last answer
	warn     string // its last warning (why a guard stopped it)
	refused  string // why its prompt was never sent
	state    event.TurnState
	err      string
	ended    bool
	usage    event.Usage
	cost     float64
	costSome bool // some turn's cost was known
	costGap  bool // some turn used tokens at an unknown price
}

// runTask runs a task call: it starts the child, forwards its progress
// and approvals to the parent's actor, stops it when ctx ends (the
// parent's turn was cancelled), and returns its report as the call's
// result. A child's failure is only this call's result: the parent's
// turn goes on.
func (s *Session) runTask(ctx context.Context, job, turn int, c *callState) tools.Result {
	a, ok := c.plan.Action.(*taskAction)
	if !ok {
		return unplannedTask
	}
	callID := c.call.ID
	link := event.ParentLink{Session: s.cfg.SessionID, CallID: callID, Agent: a.child.Agent, Description: a.args.Description}
	rec, id, closeRec, err := s.cfg.Subagents.Record(link, s.cfg.Env.Dir)
	if err != nil {
		return tools.Result{Output: fmt.Sprintf("error: the subagent could not start: %v", err), IsError: true}
	}
	child, err := New(s.childConfig(a, rec, id, turn, link))
	if err != nil {
		if closeRec != nil {
			closeRec()
		}
		return tools.Result{Output: fmt.Sprintf("error: the subagent could not start: %v", err), IsError: true}
	}
	info := event.Subagent{Session: child.cfg.SessionID, Agent: a.child.Agent, Description: a.args.Description,
		Model: child.cfg.Model, State: event.SubagentStarted}
	note := func() { s.send(subagentNote{job: job, callID: callID, info: info}) }
	note()
	for _, w := range a.child.Warnings {
		s.send(subagentWarning{job: job, callID: callID, text: w})
	}
	stop := context.AfterFunc(ctx, child.Cancel)
	out := s.driveChild(ctx, child, a.args.Prompt, func(e event.Event) {
		switch e.Kind {
		case event.ToolCallRequested:
			if e.Call != nil {
				info.Calls++
				info.State, info.Tool, info.Target = event.SubagentRunning, e.Call.Name, e.Call.Target
				note()
			}
		case event.ApprovalRequested:
			if e.Approval != nil {
				s.send(childAsk{job: job, callID: callID, agent: a.child.Agent, child: child, approval: *e.Approval})
			}
		case event.ApprovalAnswered:
			if e.Approval != nil && e.Approval.ByPolicy {
				s.send(childDenied{job: job, callID: callID, agent: a.child.Agent, approval: *e.Approval})
			}
		}
	})
	stop()
	if closeRec != nil {
		if err := closeRec(); err != nil {
			s.send(subagentWarning{job: job, callID: callID, text: fmt.Sprintf("the subagent's session %s could not be saved: %v", info.Session, err)})
		}
	}
	usage := out.usage
	info.Usage, info.Tool, info.Target = &usage, "", ""
	if out.costSome && !out.costGap {
		cost := out.cost
		info.Cost = &cost
	}
	res := s.taskResult(ctx, &info, out)
	note()
	return res
}

// driveChild submits prompt to the child and reads its events until it
// has stopped, asking again for a report when a turn completes without
// one; each event is also passed to see.
func (s *Session) driveChild(ctx context.Context, child *Session, prompt string, see func(event.Event)) childOutcome {
	var out childOutcome
	started, closing, attempts := false, false, 0
	closeChild := func() {
		if !closing {
			closing = true
			go child.Close()
		}
	}
	if ctx.Err() != nil {
		closeChild() // cancelled before it began
	} else {
		child.Submit(prompt)
	}
	for e := range child.Events() {
		see(e)
		switch e.Kind {
		case event.UserMessage:
			started = true
		case event.TurnStarted:
			if ctx.Err() != nil {
				// The cancel came before the turn it was meant for.
				child.Cancel()
			}
		case event.AssistantMessage:
			if len(e.Calls) == 0 {
				out.report = e.Text
			}
		case event.Notice:
			if e.Level == "warn" {
				out.warn = e.Text
			}
		case event.Error:
			if !started && out.refused == "" {
				out.refused = e.Text // the prompt was not saved, so never sent
				closeChild()
			}
		case event.TurnEnded:
			out.ended = true
			if end := e.End; end != nil {
				out.state, out.err = end.State, end.Error
				out.usage = addUsage(out.usage, end.Usage)
				switch {
				case end.Cost != nil:
					out.cost += *end.Cost
					out.costSome = true
				case end.Usage.TotalTokens > 0:
					out.costGap = true
				}
			}
			if out.state == event.TurnCompleted && strings.TrimSpace(out.report) == "" && attempts < reportAttempts && !closing {
				attempts++
				wait := min(reportRetryBase<<(attempts-1), reportRetryMax)
				select {
				case <-time.After(wait):
				case <-ctx.Done():
				}
				if ctx.Err() == nil {
					child.Submit(reportPrompt)
					continue
				}
			}
			closeChild()
		}
	}
	closeChild() // Events closed by itself: the child has stopped already
	return out
}

// unplannedTask is the result of a task call run without its plan.
var unplannedTask = tools.Result{Output: "internal error: the task call was run without its plan; nothing was done", IsError: true}

// taskResult is the task call's result for the child's outcome, with the
// state its last SubagentUpdate reports.
func (s *Session) taskResult(ctx context.Context, info *event.Subagent, out childOutcome) tools.Result {
	fail := func(state event.SubagentState, why, output string) tools.Result {
		info.State, info.Error = state, why
		return tools.Result{Output: output, IsError: true}
	}
	where := fmt.Sprintf(" Its session is %s.", info.Session)
	last := ""
	if r := strings.TrimSpace(out.report); r != "" {
		last = " Its last message: " + boundReport(r, info.Session)
	}
	switch {
	case ctx.Err() != nil:
		return fail(event.SubagentCancelled, "cancelled", fmt.Sprintf("cancelled: the user cancelled the turn, so the subagent stopped after %s.", plural(info.Calls, "tool call")))
	case out.refused != "":
		return fail(event.SubagentFailed, out.refused, "error: the subagent could not start: "+out.refused)
	case !out.ended:
		return fail(event.SubagentFailed, "it stopped before its turn ended", "error: the subagent stopped before its turn ended."+where)
	case out.state == event.TurnCompleted && strings.TrimSpace(out.report) != "":
		info.State = event.SubagentCompleted
		return tools.Result{Output: boundReport(out.report, info.Session)}
	case out.state == event.TurnCompleted:
		return fail(event.SubagentFailed, "it gave no report", "error: the subagent finished without a report, even when asked again for one."+where)
	case out.state == event.TurnCancelled:
		why := out.warn
		if why == "" {
			why = "a call it needed was denied"
		}
		return fail(event.SubagentFailed, why, "error: the subagent stopped before it finished: "+why+where+last)
	}
	why := out.err
	if why == "" {
		why = "its turn failed"
	}
	return fail(event.SubagentFailed, why, "error: the subagent failed: "+why+where+last)
}

// boundReport cuts a report longer than maxReportBytes, saying where the
// rest is.
func boundReport(r, session string) string {
	if len(r) <= maxReportBytes {
		return r
	}
	n := maxReportBytes
	for n > 0 && r[n]&0xC0 == 0x80 {
		n--
	}
	return r[:n] + fmt.Sprintf("\n\n[The report is %d KiB; only its first %d KiB are here. The whole of it is in session %s.]", len(r)>>10, maxReportBytes>>10, session)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/tools"
)

type phase int

const (
	phaseSampling phase = iota
	// phaseHooking: the call at the approval cursor waits for its
	// PreToolUse hooks.
	phaseHooking
	phaseApproving
	phaseRunning
	phaseCompacting
)

// turn is the state of the running turn, owned by the actor.
type turn struct {
	n      int
	ctx    context.Context
	cancel context.CancelFunc
	job    int // the worker whose reports count; older ones are ignored
	phase  phase

	rounds   int
	usage    event.Usage
	text     strings.Builder // the visible text of the sample in flight
	calls    []*callState    // the current batch
	next     int             // the batch's approval cursor
	repeat   repeatGuard
	stopped  string // why the batch was cut short: a denial or an interjection
	canceled bool
	// truncated: the turn's final answer was cut at the output limit.
	truncated bool

	// childUsage is what the subagents of the turn used, and childCost
	// what it cost (childCostUnknown: some of it at an unknown price);
	// TurnEnd rolls them up with the turn's own.
	childUsage       event.Usage
	childCost        float64
	childCostUnknown bool

	overflowRetried bool // a context overflow already led to a compaction
	justCompacted   bool // skip the threshold check once
	compactFailed   error
}

// callState is one call of a batch.
type callState struct {
	call     event.ToolCall
	tool     tools.Tool
	spec     tools.Spec
	plan     tools.Plan
	deps     []string // earlier calls whose planned changes the plan builds on
	problem  string   // why it cannot run at all (unknown tool, bad arguments)
	approved bool
	done     bool
	// hooked: its PreToolUse hooks have run; mustAsk: one of them wants
	// the user asked whatever the approval mode says.
	hooked  bool
	mustAsk bool
}

// Worker reports.
type (
	sampleDelta struct {
		job       int
		text      string
		reasoning bool
	}
	sampleRetry struct {
		job     int
		attempt int
		wait    time.Duration
		err     *llm.Error
	}
	sampleDone struct {
		job  int
		resp llm.Response
		err  error
		// promptEstimate is the request's size, for usage the API did not
		// report.
		promptEstimate int
	}
	toolOutput struct {
		job    int
		callID string
		text   string
	}
	toolDone struct {
		job    int
		index  int
		result event.ToolResult
		ran    bool // the tool ran (its result is its own)
	}
	batchDone   struct{ job int }
	compactDone struct {
		job     int
		summary string
		err     error
	}
)

func (s *Session) handleWork(m any) {
	switch m := m.(type) {
	case compactDone:
		if s.manual != nil && m.job == s.manual.job {
			s.manualCompacted(m)
			return
		}
	case hookProblem:
		turn := 0
		if s.turn != nil {
			turn = s.turn.n
		}
		s.notice(turn, "warn", m.text)
		return
	}
	t := s.turn
	if t == nil {
		return
	}
	if s.handleSubagent(m) {
		return
	}
	switch m := m.(type) {
	case sampleDelta:
		if m.job != t.job {
			return
		}
		kind := event.AssistantDelta
		if m.reasoning {
			kind = event.ReasoningDelta
		} else {
			t.text.WriteString(m.text)
		}
		s.emit(event.Event{Kind: kind, Turn: t.n, Text: m.text})
	case sampleRetry:
		if m.job == t.job {
			s.notice(t.n, "warn", fmt.Sprintf("%v; retrying in %s (attempt %d)", m.err, m.wait.Round(100*time.Millisecond), m.attempt+1))
		}
	case sampleDone:
		if m.job == t.job {
			s.sampled(m)
		}
	case toolOutput:
		if m.job != t.job {
			return
		}
		for _, c := range t.calls {
			if c.call.ID == m.callID && !c.done {
				s.emit(event.Event{Kind: event.ToolOutputDelta, Turn: t.n, CallID: m.callID, Text: m.text})
			}
		}
	case toolDone:
		if m.job == t.job && m.index < len(t.calls) {
			c := t.calls[m.index]
			open := !c.done
			s.finish(c, m.result)
			if m.ran && open {
				e := callEvent(HookPostToolUse, t.n, c)
				r := m.result
				e.Result = &r
				s.observe(e)
			}
		}
	case hookVerdict:
		if m.job == t.job && t.phase == phaseHooking {
			s.hooked(m)
		}
	case batchDone:
		if m.job == t.job {
			s.batchFinished()
		}
	case compactDone:
		if m.job == t.job && t.phase == phaseCompacting {
			s.autoCompacted(m)
		}
	}
}

// startTurn acknowledges a prompt — only once it is durable — and starts
// its turn.
func (s *Session) startTurn(prompt, command string) {
	n := s.turnNo + 1
	if err := s.emitDurable(event.Event{Kind: event.UserMessage, Turn: n, Text: prompt, Command: command}); err != nil {
		s.recordFailed = true // this Error carries the status; no Notice besides
		s.emit(event.Event{Kind: event.Error, Store: event.StoreFailing, Text: fmt.Sprintf("your message was not sent: %v", err)})
		s.maybeStart()
		return
	}
	s.turnNo = n
	ctx, cancel := context.WithCancel(context.Background())
	s.turn = &turn{n: n, ctx: ctx, cancel: cancel}
	s.setCancel(cancel)
	// The prompt is durable: an observer never sees one that is then lost.
	s.observe(HookEvent{Name: HookUserPromptSubmit, Turn: n, Prompt: prompt})
	s.emit(event.Event{Kind: event.TurnStarted, Turn: n})
	s.presample()
}

// presample decides, before every request, whether the history must be
// compacted first.
func (s *Session) presample() {
	t := s.turn
	if t.ctx.Err() != nil {
		s.endTurn(event.TurnCancelled, "")
		return
	}
	est := s.estimate()
	window := s.cfg.ContextWindow
	over := est*100 >= window*s.cfg.CompactPercent
	if t.justCompacted {
		t.justCompacted = false
		if over && t.compactFailed == nil && !s.suppress.auto() {
			// Compacting again would not help: the turn's own messages
			// are what is large.
			s.suppress = suppressUntilManual
			s.notice(t.n, "warn", fmt.Sprintf("The context is still %d%% full after compaction; automatic compaction is off until you run /compact.", est*100/window))
		}
		s.startSample()
		return
	}
	// After a failed compaction the turn goes on without: trying again at
	// every round would only repeat the failure and its waits.
	if over && !s.suppress.auto() && t.compactFailed == nil {
		reason := fmt.Sprintf("Context window %d%% full: compacting the conversation.", est*100/window)
		if est >= window {
			reason = "The latest tool output would overflow the context window: compacting the conversation."
		}
		s.startAutoCompaction(reason)
		return
	}
	s.startSample()
}

func (s *Session) startSample() {
	t := s.turn
	t.phase = phaseSampling
	s.jobs++
	job := s.jobs
	t.job = job
	t.text.Reset()
	req := llm.Request{
		Model: s.cfg.Model, System: s.system, Messages: requestMessages(s.hist.msgs),
		MaxTokens: s.cfg.MaxTokens, Temperature: s.cfg.Temperature,
	}
	est := s.estimate()
	ctx := t.ctx
	go func() {
		// Tools still starting (MCP servers connecting in the background)
		// are waited for, so the model sees them; each start is bounded,
		// and a cancel ends the wait.
		_ = s.cfg.Tools.Settle(ctx)
		req.Tools = s.toolDefs()
		resp, err := s.cfg.Sampler.Stream(ctx, req, llm.Handler{
			Text:      func(d string) { s.report(sampleDelta{job: job, text: d}) },
			Reasoning: func(d string) { s.report(sampleDelta{job: job, text: d, reasoning: true}) },
			Retry: func(attempt int, wait time.Duration, err *llm.Error) {
				s.send(sampleRetry{job: job, attempt: attempt, wait: wait, err: err})
			},
		})
		s.send(sampleDone{job: job, resp: resp, err: err, promptEstimate: est})
	}()
}

// sampled digests a finished request.
func (s *Session) sampled(m sampleDone) {
	t := s.turn
	s.addUsage(m)
	if err := m.err; err != nil {
		switch {
		case t.ctx.Err() != nil || llm.KindOf(err) == llm.KindCancelled:
			s.emitPartial()
			s.endTurn(event.TurnCancelled, "")
		case llm.IsContextOverflow(err) && !t.overflowRetried:
			t.overflowRetried = true
			s.startAutoCompaction("The conversation no longer fits the model's context window: compacting it and trying again.")
		default:
			s.emitPartial()
			s.endTurn(event.TurnFailed, err.Error())
		}
		return
	}
	if s.suppress == suppressUntilSuccess {
		s.suppress = suppressNone
	}
	finish := m.resp.FinishReason
	cut := finish == llm.FinishLength
	calls := s.prepareCalls(m.resp.ToolCalls, cut)
	evCalls := make([]event.ToolCall, len(calls))
	for i, c := range calls {
		evCalls[i] = c.call
	}
	s.emit(event.Event{Kind: event.AssistantMessage, Turn: t.n, Text: m.resp.Text, Calls: evCalls,
		Reasoning: m.resp.Reasoning, State: encodeState(m.resp.State), FinishReason: unusualFinish(finish)})
	if u := m.resp.Usage; u != nil {
		s.lastUsage = u.PromptTokens + u.CompletionTokens
		s.lastUsageLen = len(s.hist.msgs)
	}
	if len(calls) == 0 {
		switch {
		case cut && strings.TrimSpace(m.resp.Text) == "":
			s.endTurn(event.TurnFailed, "the model used its whole output budget without answering (finish reason \"length\"); raise the max tokens setting or ask for something smaller")
			return
		case cut:
			// The partial answer is in the history, so a "continue" from
			// the user has the model carry on from where it was cut.
			t.truncated = true
			s.notice(t.n, "warn", "The answer was cut off at the model's output limit (finish reason \"length\"). Send \"continue\" to have it carry on.")
		default:
			s.noticeFinish(finish)
		}
		s.endTurn(event.TurnCompleted, "")
		return
	}
	if cut {
		s.notice(t.n, "warn", "The model's answer was cut off at its output limit while it was writing tool calls; a call it could not finish was not run, and the model was told so.")
	} else {
		s.noticeFinish(finish)
	}
	t.calls, t.next, t.stopped = calls, 0, ""
	for _, c := range calls {
		call := c.call
		s.emit(event.Event{Kind: event.ToolCallRequested, Turn: t.n, Call: &call})
	}
	t.rounds++
	if max := s.cfg.MaxToolRounds; max > 0 && t.rounds > max {
		s.notice(t.n, "warn", fmt.Sprintf("Stopped: this turn reached its limit of %d tool rounds. Send a message to let it continue.", max))
		s.stopRemaining(0, event.ToolCancelled, fmt.Sprintf("not run: the turn reached its limit of %d tool rounds", max))
		s.endTurn(event.TurnCancelled, "")
		return
	}
	for i, c := range calls {
		if t.repeat.see(c.call) >= 3 {
			s.notice(t.n, "warn", fmt.Sprintf("Stopped: the model called %s with the same arguments 3 times in a row.", c.call.Name))
			s.stopRemaining(i, event.ToolCancelled, "not run: this exact call was made 3 times in a row, so the turn was stopped; try a different approach")
			// The calls before it run: they are not repeats.
			t.stopped = "repeat"
			break
		}
	}
	for _, c := range calls {
		if c.problem != "" && !c.done {
			s.finish(c, event.ToolResult{CallID: c.call.ID, Name: c.call.Name, Status: event.ToolError, Output: c.problem})
		}
	}
	s.advanceApproval()
}

// unusualFinish is the finish reason worth keeping on an answer: one
// that says it did not end the way the model meant (cut at the output
// limit, stopped by a filter, a server's own word); "" otherwise.
func unusualFinish(f string) string {
	switch f {
	case "", llm.FinishStop, llm.FinishToolCalls:
		return ""
	}
	return f
}

// noticeFinish tells the user when an answer that was not cut at the
// output limit still did not end the way the model meant.
func (s *Session) noticeFinish(finish string) {
	switch f := unusualFinish(finish); f {
	case "":
	case llm.FinishContentFilter:
		s.notice(s.turn.n, "warn", "The provider's content filter stopped the answer (finish reason \"content_filter\").")
	default:
		s.notice(s.turn.n, "warn", fmt.Sprintf("The answer may be incomplete: the server ended it with finish reason %q.", f))
	}
}

// addUsage counts a request's tokens, estimating them when the API did
// not say.
func (s *Session) addUsage(m sampleDone) {
	t := s.turn
	if m.err != nil && m.resp.Usage == nil && m.resp.Text == "" && m.resp.Reasoning == "" {
		return // nothing was generated; a refused request costs nothing to count
	}
	var u event.Usage
	if r := m.resp.Usage; r != nil {
		u = event.Usage{PromptTokens: r.PromptTokens, CompletionTokens: r.CompletionTokens, TotalTokens: r.TotalTokens,
			CacheReadTokens: r.CacheReadTokens, CacheWriteTokens: r.CacheWriteTokens, ReasoningTokens: r.ReasoningTokens}
	} else {
		u = event.Usage{PromptTokens: m.promptEstimate, CompletionTokens: estimateTokens(m.resp.Text + m.resp.Reasoning), Estimated: true}
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	t.usage = addUsage(t.usage, u)
}

func addUsage(a, b event.Usage) event.Usage {
	return event.Usage{
		PromptTokens: a.PromptTokens + b.PromptTokens, CompletionTokens: a.CompletionTokens + b.CompletionTokens,
		TotalTokens:     a.TotalTokens + b.TotalTokens,
		CacheReadTokens: a.CacheReadTokens + b.CacheReadTokens, CacheWriteTokens: a.CacheWriteTokens + b.CacheWriteTokens,
		ReasoningTokens: a.ReasoningTokens + b.ReasoningTokens,
		Estimated:       a.Estimated || b.Estimated,
	}
}

// emitPartial records what the user saw of an answer that was cut short,
// so the history matches the screen.
func (s *Session) emitPartial() {
	t := s.turn
	if t.text.Len() > 0 {
		s.emit(event.Event{Kind: event.AssistantMessage, Turn: t.n, Text: t.text.String()})
		t.text.Reset()
	}
}

// batchFinished continues the turn once every call of a batch has its
// result.
func (s *Session) batchFinished() {
	t := s.turn
	for _, c := range t.calls {
		if !c.done {
			s.finish(c, event.ToolResult{CallID: c.call.ID, Name: c.call.Name, Status: event.ToolCancelled, Output: "cancelled"})
		}
	}
	if t.canceled || t.ctx.Err() != nil || t.stopped != "" {
		s.endTurn(event.TurnCancelled, "")
		return
	}
	s.presample()
}

// endTurn closes the turn, answering any call still open, and starts the
// next queued item.
func (s *Session) endTurn(state event.TurnState, errText string) {
	t := s.turn
	for _, c := range t.calls {
		if !c.done {
			s.finish(c, event.ToolResult{CallID: c.call.ID, Name: c.call.Name, Status: event.ToolCancelled, Output: "not run: the turn ended"})
		}
	}
	s.dropAsks("", "the turn ended")
	end := &event.TurnEnd{
		State: state, Usage: addUsage(t.usage, t.childUsage), Error: errText, Truncated: t.truncated,
		ContextTokens: s.estimate(), ContextWindow: s.cfg.ContextWindow,
	}
	end.Cost = t.cost(s.cfg.Cost)
	s.emit(event.Event{Kind: event.TurnEnded, Turn: t.n, End: end})
	s.observe(HookEvent{Name: HookStop, Turn: t.n, State: state, Reason: errText})
	s.usage = addUsage(s.usage, end.Usage)
	t.cancel()
	s.setCancel(nil)
	s.turn = nil
	s.maybeStart()
}

// cost is what the turn cost in US dollars: its own requests at the
// session's prices and its subagents' at theirs; nil when a part that
// used tokens has an unknown price.
func (t *turn) cost(price func(event.Usage) (float64, bool)) *float64 {
	if t.usage.TotalTokens == 0 && t.childUsage.TotalTokens == 0 {
		return nil
	}
	total := t.childCost
	if t.childCostUnknown {
		return nil
	}
	if t.usage.TotalTokens > 0 {
		if price == nil {
			return nil
		}
		usd, ok := price(t.usage)
		if !ok {
			return nil
		}
		total += usd
	}
	return &total
}

package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/quire-sh/quire/engine/event"
)

// The points of a session's life hooks may run at, as hooks.json names
// them (the names other agents' settings.json uses).
const (
	HookSessionStart     = "SessionStart"
	HookSessionEnd       = "SessionEnd"
	HookUserPromptSubmit = "UserPromptSubmit"
	HookPreToolUse       = "PreToolUse"
	HookPostToolUse      = "PostToolUse"
	HookPermissionDenied = "PermissionDenied"
	HookPreCompact       = "PreCompact"
	HookPostCompact      = "PostCompact"
	// SubagentStart and SubagentStop fire when a task call's child
	// session starts and when it ends.
	HookSubagentStart = "SubagentStart"
	HookSubagentStop  = "SubagentStop"
	HookStop          = "Stop"
	HookNotification  = "Notification"
)

// HookEvents are every hook event, in the order of a session's life.
func HookEvents() []string {
	return []string{
		HookSessionStart, HookUserPromptSubmit, HookPreToolUse, HookPermissionDenied, HookPostToolUse,
		HookNotification, HookPreCompact, HookPostCompact, HookSubagentStart, HookSubagentStop,
		HookStop, HookSessionEnd,
	}
}

// Hooks are the user's own programs, run at points of a session's life.
// Package ext/hooks satisfies it. Only PreToolUse can change what
// happens, and only by refusing a call or asking that the user be asked
// about it; the other events are observed, never awaited, and nothing a
// hook says reaches the model except a refusal's reason.
type Hooks interface {
	// Gates reports whether any PreToolUse hook applies to the tool;
	// it is called on the session's goroutine and must return at once.
	Gates(tool string) bool
	// PreToolUse runs the hooks that apply to a call, before the user is
	// asked about it, and returns what they decided. The engine calls it
	// off the session's goroutine, one call at a time in the model's
	// order; ctx ends when the turn is cancelled.
	PreToolUse(ctx context.Context, e HookEvent) HookVerdict
	// Observe hands over an observational event. It must return at once:
	// the hooks run elsewhere, in order, and a problem with one (it timed
	// out, crashed, said something unreadable) is passed to report, which
	// may be called from any goroutine and shows it in the transcript.
	Observe(e HookEvent, report func(problem string))
}

// HookEvent is one point of a session's life as hooks see it. Name, the
// session's id and directory are always set; the rest as the event has
// them.
type HookEvent struct {
	Name      string
	SessionID string
	Cwd       string
	Turn      int
	// Trigger is what set the event off: "startup" or "resume" for
	// SessionStart, "exit" for SessionEnd, "auto" or "manual" for
	// PreCompact and PostCompact.
	Trigger string
	// The call, for PreToolUse, PostToolUse and PermissionDenied.
	CallID    string
	Tool      string
	Arguments json.RawMessage
	// Result is what the call gave, for PostToolUse.
	Result *event.ToolResult
	// Prompt is the user's prompt, for UserPromptSubmit.
	Prompt string
	// DeniedBy is "user", "policy" or "hook", and Reason why, for
	// PermissionDenied; Reason is also a failed turn's error for Stop.
	DeniedBy string
	Reason   string
	// Message says what quire needs of the user, for Notification.
	Message string
	// State is how the turn ended, for Stop.
	State event.TurnState
	// Focus is the focus given to /compact, and the sizes before and
	// after, for PreCompact and PostCompact.
	Focus        string
	BeforeTokens int
	AfterTokens  int
	// Subagent is the child session a task call runs, for SubagentStart
	// and SubagentStop (its State then says how it ended).
	Subagent *event.Subagent
}

// HookDecision is what PreToolUse hooks decided about a call.
type HookDecision uint8

const (
	// HookAllow: no hook objected. It does not approve the call: the
	// approval mode still decides whether the user is asked.
	HookAllow HookDecision = iota
	// HookAsk: a hook wants the user asked about the call even where the
	// approval mode would not ask.
	HookAsk
	// HookDeny: a hook refused the call.
	HookDeny
)

// HookVerdict is the outcome of the PreToolUse hooks of one call.
type HookVerdict struct {
	Decision HookDecision
	// Reason is why a hook refused the call, as the model is told it;
	// Hook names the hook (its command).
	Reason string
	Hook   string
	// Problems are hooks that failed and were passed over (hooks fail
	// open), one line each for the user.
	Problems []string
}

// Notice is a line for the user in the transcript: Level "info" or
// "warn".
type Notice struct {
	Level, Text string
}

// hookProblem is an observational hook's failure, reported back to the
// actor to be shown.
type hookProblem struct{ text string }

// hookVerdict is the outcome of a call's PreToolUse hooks.
type hookVerdict struct {
	job     int
	index   int
	verdict HookVerdict
}

// observe hands an observational event to the hooks, if there are any.
func (s *Session) observe(e HookEvent) {
	h := s.cfg.Hooks
	if h == nil {
		return
	}
	e.SessionID, e.Cwd = s.cfg.SessionID, s.cfg.Env.Dir
	h.Observe(e, func(problem string) { s.send(hookProblem{problem}) })
}

// callEvent is a hook event about a call.
func callEvent(name string, turn int, c *callState) HookEvent {
	return HookEvent{Name: name, Turn: turn, CallID: c.call.ID, Tool: c.call.Name, Arguments: c.call.Arguments}
}

// startPreToolUse runs the PreToolUse hooks of the call at the approval
// cursor off the actor; their verdict comes back as a hookVerdict.
func (s *Session) startPreToolUse(c *callState) {
	t := s.turn
	t.phase = phaseHooking
	s.jobs++
	t.job = s.jobs
	job, index, ctx := t.job, t.next, t.ctx
	e := callEvent(HookPreToolUse, t.n, c)
	e.SessionID, e.Cwd = s.cfg.SessionID, s.cfg.Env.Dir
	h := s.cfg.Hooks
	go func() {
		v := h.PreToolUse(ctx, e)
		s.send(hookVerdict{job: job, index: index, verdict: v})
	}()
}

// hooked applies the verdict of a call's PreToolUse hooks: a refusal
// gives the call its result and the model the hook's reason; otherwise
// the call goes on to the approval gate.
func (s *Session) hooked(m hookVerdict) {
	t := s.turn
	if m.index != t.next || m.index >= len(t.calls) {
		return
	}
	c := t.calls[m.index]
	c.hooked = true
	for _, p := range m.verdict.Problems {
		s.notice(t.n, "warn", p)
	}
	switch m.verdict.Decision {
	case HookDeny:
		reason := m.verdict.Reason
		if reason == "" {
			reason = "no reason given"
		}
		s.emit(event.Event{Kind: event.ApprovalAnswered, Turn: t.n, CallID: c.call.ID, Approval: &event.Approval{
			CallID: c.call.ID, Tool: c.call.Name, Target: c.plan.Target, Decision: event.Deny,
			Reason: "hook: " + reason, Hook: m.verdict.Hook,
		}})
		s.finish(c, event.ToolResult{CallID: c.call.ID, Name: c.call.Name, Status: event.ToolDenied,
			Output: fmt.Sprintf("denied: a hook the user set up refused this call. Its reason: %s", reason)})
		e := callEvent(HookPermissionDenied, t.n, c)
		e.DeniedBy, e.Reason = "hook", reason
		s.observe(e)
		t.next++
	case HookAsk:
		c.mustAsk = true
	}
	s.advanceApproval()
}

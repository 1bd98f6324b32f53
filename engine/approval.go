package engine

import (
	"strings"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/tools"
)

// advanceApproval walks the batch in model order, asking about each call
// the approver wants asked about, one at a time.
func (s *Session) advanceApproval() {
	t := s.turn
	for t.next < len(t.calls) {
		c := t.calls[t.next]
		if c.done || c.approved {
			t.next++
			continue
		}
		if dep := t.unrunDep(c); dep != nil {
			s.refuseOrphan(c, dep)
			t.next++
			continue
		}
		// The user's hooks come first: a call they refuse is never put
		// to the user.
		if h := s.cfg.Hooks; h != nil && !c.hooked && h.Gates(c.call.Name) {
			s.startPreToolUse(c)
			return
		}
		if a := s.cfg.Approver; c.mustAsk || a != nil && a.NeedsApproval(c.spec, c.plan) {
			if s.cfg.Unattended {
				s.denyUnattended(c)
				t.next++
				continue
			}
			t.phase = phaseApproving
			// The Notification hooks are handed the request before anyone
			// can see it and answer: an answer never overtakes them.
			s.observe(HookEvent{Name: HookNotification, Turn: t.n, CallID: c.call.ID, Tool: c.call.Name,
				Message: approvalMessage(c)})
			s.emit(event.Event{Kind: event.ApprovalRequested, Turn: t.n, CallID: c.call.ID, Approval: &event.Approval{
				CallID: c.call.ID, Tool: c.call.Name, Target: c.plan.Target, Preview: c.plan.Preview,
			}})
			return
		}
		c.approved = true
		t.next++
	}
	s.startBatch()
}

// unattendedReason is what the model is told about a call denied because
// nobody can approve it.
const unattendedReason = "denied: this call needs the user's approval and quire is running unattended (quire exec with --approval ask), so it was not run. Do not retry it; finish what you can without it and say what is left to do."

// refuser is implemented by approvers (tools.Policy) that explain a
// denial in terms of the approval mode actually in force.
type refuser interface {
	Refusal(spec tools.Spec, plan tools.Plan) string
}

func (s *Session) denyUnattended(c *callState) {
	t := s.turn
	out := unattendedReason
	if r, ok := s.cfg.Approver.(refuser); ok {
		out = r.Refusal(c.spec, c.plan)
	}
	s.emit(event.Event{Kind: event.ApprovalAnswered, Turn: t.n, CallID: c.call.ID, Approval: &event.Approval{
		CallID: c.call.ID, Tool: c.call.Name, Target: c.plan.Target, Decision: event.Deny, ByPolicy: true,
		Reason: "needs approval, and nobody can be asked",
	}})
	s.finish(c, event.ToolResult{CallID: c.call.ID, Name: c.call.Name, Status: event.ToolDenied, Output: out})
	e := callEvent(HookPermissionDenied, t.n, c)
	e.DeniedBy, e.Reason = "policy", "needs approval, and nobody can be asked"
	s.observe(e)
}

// approvalMessage is what a Notification hook is told when a call waits
// for the user.
func approvalMessage(c *callState) string {
	msg := "quire needs your approval to run " + c.call.Name
	if c.plan.Target != "" {
		msg += ": " + oneLine(c.plan.Target)
	}
	return msg
}

func (s *Session) answer(callID string, d event.Decision, reason string) {
	if s.answerChild(callID, d, reason) {
		return
	}
	t := s.turn
	if t == nil || t.phase != phaseApproving || t.next >= len(t.calls) || t.calls[t.next].call.ID != callID {
		return // stale: the call was already decided or the turn is over
	}
	c := t.calls[t.next]
	s.emit(event.Event{Kind: event.ApprovalAnswered, Turn: t.n, CallID: callID, Approval: &event.Approval{
		CallID: callID, Tool: c.call.Name, Decision: d, Reason: reason,
	}})
	switch d {
	case event.Approve, event.ApproveSession:
		if d == event.ApproveSession && s.cfg.Approver != nil {
			s.cfg.Approver.Remember(c.spec, c.plan)
		}
		c.approved = true
		t.next++
		s.advanceApproval()
	default:
		out := "The user denied this call."
		if strings.TrimSpace(reason) != "" {
			out += " They said: " + reason
		}
		s.finish(c, event.ToolResult{CallID: callID, Name: c.call.Name, Status: event.ToolDenied, Output: out})
		e := callEvent(HookPermissionDenied, t.n, c)
		e.DeniedBy, e.Reason = "user", reason
		s.observe(e)
		t.stopped = "denied"
		s.stopRemaining(t.next+1, event.ToolCancelled, "not run: cancelled because the user denied an earlier call")
		s.startBatch()
	}
}

// interject handles a prompt that arrives while a call waits for
// approval: the remaining calls are not run and the turn ends Cancelled
// once the approved ones finish; the prompt runs next.
func (s *Session) interject() {
	t := s.turn
	s.stopRemaining(t.next, event.ToolCancelled, "not run: the user sent a new message instead of answering")
	t.stopped = "interjected"
	s.startBatch()
}

// stopRemaining gives every undecided call from index from on a result.
func (s *Session) stopRemaining(from int, status event.ToolStatus, output string) {
	t := s.turn
	for _, c := range t.calls[min(from, len(t.calls)):] {
		if !c.done && !c.approved {
			s.finish(c, event.ToolResult{CallID: c.call.ID, Name: c.call.Name, Status: status, Output: output})
		}
	}
	t.next = len(t.calls)
}

// cancelCurrent stops what runs now.
func (s *Session) cancelCurrent() {
	if m := s.manual; m != nil {
		m.cancel()
	}
	t := s.turn
	if t == nil {
		return
	}
	t.canceled = true
	t.cancel()
	if t.phase == phaseApproving || t.phase == phaseHooking {
		for _, c := range t.calls {
			if !c.done {
				s.finish(c, event.ToolResult{CallID: c.call.ID, Name: c.call.Name, Status: event.ToolCancelled, Output: "not run: the user cancelled the turn"})
			}
		}
		s.endTurn(event.TurnCancelled, "")
	}
}

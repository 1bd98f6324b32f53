package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quire-sh/quire/engine"
)

// maxReason bounds the reason a refusal gives the model.
const maxReason = 2000

// decision is what one PreToolUse hook said about a call.
type decision struct {
	verdict engine.HookDecision
	reason  string
	// problem is why what it printed was not read, or why it failed: the
	// call goes ahead (hooks fail open) and the user is told.
	problem string
}

// decisionOutput is what a PreToolUse hook may print on stdout: quire's
// (and older agents') {"decision": …, "reason": …}, or the
// hookSpecificOutput other agents' hooks print now.
type decisionOutput struct {
	Decision           *string `json:"decision"`
	Reason             string  `json:"reason"`
	HookSpecificOutput *struct {
		PermissionDecision       *string `json:"permissionDecision"`
		PermissionDecisionReason string  `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

// decide reads a PreToolUse hook's outcome. A decision printed as JSON
// on stdout comes first; then exit status 2 refuses the call, with
// stderr as the reason; anything else lets it go ahead. A hook that timed
// out, crashed, was not found or printed JSON that is not a decision
// lets the call go ahead, and says why in problem.
func decide(h Hook, o outcome) decision {
	if o.cancelled {
		return decision{}
	}
	if p := o.failure(h); p != "" && (o.timedOut || o.startErr != nil || o.signal != 0) {
		return decision{problem: p + "; the call went ahead"}
	}
	var d decision
	out := bytes.TrimSpace(o.stdout)
	if len(out) > 0 && out[0] == '{' {
		verdict, reason, ok, problem := readDecision(out)
		switch {
		case problem != "":
			d.problem = fmt.Sprintf("hook %s (%s, from %s) printed %s; it was ignored", shownCommand(h.Command), h.Event, h.From, problem)
		case ok:
			d.verdict, d.reason = verdict, clean(reason, maxReason)
			return d
		}
	}
	switch o.exit {
	case 0:
		return d
	case 2:
		d.verdict = engine.HookDeny
		d.reason = clean(strings.TrimSpace(string(o.stderr)), maxReason)
		return d
	}
	// Another status is the hook failing, not refusing.
	if d.problem == "" {
		d.problem = o.failure(h)
	}
	d.problem += "; the call went ahead"
	return d
}

// readDecision reads a decision printed as JSON. ok is false when the
// JSON holds no decision; problem is set when it is not valid JSON or
// holds a decision quire does not know.
func readDecision(out []byte) (verdict engine.HookDecision, reason string, ok bool, problem string) {
	var d decisionOutput
	if err := json.Unmarshal(out, &d); err != nil {
		return 0, "", false, "output that is not valid JSON"
	}
	word, reason := d.Decision, d.Reason
	if hs := d.HookSpecificOutput; hs != nil && hs.PermissionDecision != nil {
		word, reason = hs.PermissionDecision, hs.PermissionDecisionReason
	}
	if word == nil || *word == "" {
		return 0, "", false, ""
	}
	switch strings.ToLower(*word) {
	case "deny", "block":
		return engine.HookDeny, reason, true, ""
	case "allow", "approve":
		return engine.HookAllow, reason, true, ""
	case "ask":
		return engine.HookAsk, reason, true, ""
	}
	return 0, "", false, fmt.Sprintf("an unknown decision %s", quoteName(*word))
}

package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/tools"
)

// Approver decides which tool calls need the user's yes and remembers a
// "yes for this session". tools.Policy satisfies it. A session shares it
// with the subagents it starts, whose goroutines call it too, so it must
// be safe for concurrent use.
type Approver interface {
	NeedsApproval(spec tools.Spec, plan tools.Plan) bool
	Remember(spec tools.Spec, plan tools.Plan)
}

// Sampler streams one answer from a model. Each wire protocol's package
// (llm/chat, …) satisfies it; the engine knows nothing else of the
// transport.
type Sampler interface {
	Stream(ctx context.Context, req llm.Request, h llm.Handler) (llm.Response, error)
}

// Recorder persists events. With durable true the event, and every event
// before it, must be committed when Record returns; the engine asks for
// that for user messages only, before it shows or answers them.
type Recorder interface {
	Record(e event.Event, durable bool) error
}

// Config configures a session. Model, Sampler, Tools and Env are
// required; every other zero field takes the default named beside it.
type Config struct {
	// SessionID names the session; a new random id when empty (a resumed
	// session keeps the id of its log).
	SessionID string
	// Model is sent with every request.
	Model string
	// Provider names the provider Model is reached through, for
	// SessionInfo.
	Provider string
	// Sampler sends requests to the model over its provider's protocol.
	Sampler Sampler
	// ContextWindow is the model's window in tokens (default 128,000).
	ContextWindow int
	// CompactPercent is how full the window may get before the history is
	// compacted ahead of the next request (default 85).
	CompactPercent int
	// Cost prices a turn's usage in US dollars for TurnEnd.Cost; nil, or
	// ok false, when the price is unknown.
	Cost func(event.Usage) (usd float64, ok bool)
	// MaxTokens caps each answer; 0 leaves it to the server.
	MaxTokens int
	// Temperature is sent when not zero.
	Temperature float32

	Tools *tools.Registry
	Env   *tools.Env
	// Approver is asked about every call; nil runs every call unasked.
	Approver Approver
	// Recorder persists events; nil keeps none.
	Recorder Recorder
	// Hooks are run at points of the session's life; nil runs none.
	Hooks Hooks
	// Notices are shown right after SessionStarted: what the wiring of
	// the session found wrong or wants said (a broken hooks.json, a
	// project file left out, a skipped skill).
	Notices []Notice
	// Subagents, when set, offers the model the task tool, which runs a
	// child session prepared by it; nil offers no task tool. A child's
	// own configuration never has one (MaxSubagentDepth).
	Subagents Spawner
	// Role, for a child session, is its part of the system prompt: that
	// it is a subagent, and its agent's instructions.
	Role string
	// Parent, for a child session, names the session and task call that
	// started it; SessionStarted carries it.
	Parent *event.ParentLink
	// Unattended means nobody can answer approvals (quire exec): a call
	// the Approver wants asked about is denied the way a policy denies —
	// ApprovalAnswered with ByPolicy set, the model told why — and, unlike
	// a user's denial, the turn goes on.
	Unattended bool

	// Instructions are sections of the system prompt beyond quire's own
	// (the list of skills), each starting with its heading; they follow
	// the environment and come before AGENTS.md.
	Instructions []string

	// Version, Sandbox and ApprovalMode are shown in SessionInfo and told
	// to the model.
	Version      string
	Sandbox      string
	ApprovalMode string

	// MaxToolRounds caps how many times one turn may go back to the model
	// with tool results (default 100; negative: no cap).
	MaxToolRounds int
	// ToolCancelGrace is how long a cancelled tool may take to stop before
	// its call is reported cancelled without it (default 2 s).
	ToolCancelGrace time.Duration

	// Compaction tuning: attempts per input level (default 3), the wait
	// between them (default 3 s) and the limit on each (default 120 s).
	CompactAttempts int
	CompactDelay    time.Duration
	CompactTimeout  time.Duration

	// Now is the clock for event times and the system prompt's date
	// (default time.Now).
	Now func() time.Time

	// ToolOutput, when set, is applied to every tool result before the
	// model sees it (the redact_tool_output setting plugs in package
	// redact's rule set). The result event carries what the model saw.
	ToolOutput func(string) string
}

const (
	defaultContextWindow  = 128_000
	defaultCompactPercent = 85
	defaultMaxToolRounds  = 100
)

func (c Config) withDefaults() (Config, error) {
	var errs []error
	if c.Model == "" {
		errs = append(errs, errors.New("no model: pass --model or set QUIRE_MODEL"))
	}
	if c.Sampler == nil {
		errs = append(errs, errors.New("engine: Config.Sampler is nil"))
	}
	if c.Tools == nil {
		errs = append(errs, errors.New("engine: Config.Tools is nil"))
	}
	if c.Env == nil {
		errs = append(errs, errors.New("engine: Config.Env is nil"))
	}
	if err := errors.Join(errs...); err != nil {
		return c, err
	}
	if c.ContextWindow <= 0 {
		c.ContextWindow = defaultContextWindow
	}
	if c.CompactPercent <= 0 || c.CompactPercent > 100 {
		c.CompactPercent = defaultCompactPercent
	}
	if c.MaxToolRounds == 0 {
		c.MaxToolRounds = defaultMaxToolRounds
	}
	if c.ToolCancelGrace <= 0 {
		c.ToolCancelGrace = 2 * time.Second
	}
	if c.CompactAttempts <= 0 {
		c.CompactAttempts = 3
	}
	if c.CompactDelay <= 0 {
		c.CompactDelay = 3 * time.Second
	}
	if c.CompactTimeout <= 0 {
		c.CompactTimeout = 120 * time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.SessionID == "" {
		c.SessionID = newSessionID(c.Now())
	}
	return c, nil
}

// newSessionID is time-ordered (so ids sort by creation) and random.
func newSessionID(now time.Time) string {
	return fmt.Sprintf("%s-%s", now.UTC().Format("20060102T150405"), randomHex(6))
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand since Go 1.24)
	return hex.EncodeToString(b)
}

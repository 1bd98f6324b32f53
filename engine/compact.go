package engine

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
)

// suppression turns automatic compaction off after a failure that would
// only repeat: until the next successful request (quota, auth), or until
// the user compacts by hand (the input is too large, the server rejects
// the request). A manual /compact always runs.
type suppression int

const (
	suppressNone suppression = iota
	suppressUntilSuccess
	suppressUntilManual
)

func (s suppression) auto() bool { return s != suppressNone }

// minSummaryChars is the floor below which a summary is degenerate.
const minSummaryChars = 500

// manualCompaction is a /compact running while no turn does.
type manualCompaction struct {
	job    int
	cancel context.CancelFunc
	focus  string
	before int
}

// compactionError carries how a failure suppresses automatic compaction.
type compactionError struct {
	grade suppression
	err   error
}

func (e *compactionError) Error() string { return e.err.Error() }
func (e *compactionError) Unwrap() error { return e.err }

func (s *Session) startAutoCompaction(reason string) {
	t := s.turn
	t.phase = phaseCompacting
	s.jobs++
	t.job = s.jobs
	s.notice(t.n, "info", reason)
	s.observe(HookEvent{Name: HookPreCompact, Turn: t.n, Trigger: "auto", BeforeTokens: s.estimate()})
	s.runCompaction(t.ctx, t.job, "")
}

func (s *Session) startManualCompaction(focus string) {
	if len(s.hist.msgs) == 0 {
		s.notice(0, "info", "Nothing to compact yet.")
		s.maybeStart()
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.jobs++
	s.manual = &manualCompaction{job: s.jobs, cancel: cancel, focus: focus, before: s.estimate()}
	s.setCancel(cancel)
	text := "Compacting the conversation."
	if focus != "" {
		text = fmt.Sprintf("Compacting the conversation (focus: %s).", focus)
	}
	s.notice(0, "info", text)
	s.observe(HookEvent{Name: HookPreCompact, Trigger: "manual", Focus: focus, BeforeTokens: s.manual.before})
	s.runCompaction(ctx, s.jobs, focus)
}

// runCompaction starts the summariser on a copy of the history.
func (s *Session) runCompaction(ctx context.Context, job int, focus string) {
	c := compactor{
		sampler: s.cfg.Sampler, model: s.cfg.Model, window: s.cfg.ContextWindow,
		attempts: s.cfg.CompactAttempts, delay: s.cfg.CompactDelay, timeout: s.cfg.CompactTimeout,
	}
	msgs := s.hist.messages()
	go func() {
		summary, err := c.run(ctx, msgs, focus)
		s.send(compactDone{job: job, summary: summary, err: err})
	}()
}

// autoCompacted continues the turn after an automatic compaction.
func (s *Session) autoCompacted(m compactDone) {
	t := s.turn
	if t.ctx.Err() != nil {
		s.endTurn(event.TurnCancelled, "")
		return
	}
	before := s.estimate()
	if m.err != nil {
		s.compactionFailed(t.n, m.err)
		if t.overflowRetried {
			s.endTurn(event.TurnFailed, "the conversation is larger than the model's context window and compaction failed: "+m.err.Error())
			return
		}
		t.compactFailed = m.err
		t.justCompacted = true
		s.startSample()
		return
	}
	s.compacted(t.n, before, m.summary, false, "")
	t.compactFailed = nil
	t.justCompacted = true
	s.presample()
}

func (s *Session) manualCompacted(m compactDone) {
	mc := s.manual
	s.manual = nil
	s.setCancel(nil)
	mc.cancel()
	switch {
	case m.err != nil && errors.Is(m.err, context.Canceled):
		s.notice(0, "info", "Compaction cancelled.")
	case m.err != nil:
		s.compactionFailed(0, m.err)
	default:
		s.compacted(0, mc.before, m.summary, true, mc.focus)
	}
	s.maybeStart()
}

func (s *Session) compacted(turn, before int, summary string, manual bool, focus string) {
	after := s.estimateRebuilt(summary, turn != 0)
	s.emit(event.Event{Kind: event.Compacted, Turn: turn, Compaction: &event.Compaction{
		BeforeTokens: before, AfterTokens: after,
		Summary: summary, Manual: manual, Focus: focus,
	}})
	s.lastUsage, s.lastUsageLen = 0, 0
	s.suppress = suppressNone
	trigger := "auto"
	if manual {
		trigger = "manual"
	}
	s.observe(HookEvent{Name: HookPostCompact, Turn: turn, Trigger: trigger, Focus: focus, BeforeTokens: before, AfterTokens: after})
}

// estimateRebuilt is the size the history will have once the Compacted
// event is applied; the event is emitted with it.
func (s *Session) estimateRebuilt(summary string, midTurn bool) int {
	var items []Message
	if midTurn {
		items = s.hist.turnItems
	}
	n := len(s.system) + historyBytes(rebuildAfterCompaction(s.hist.lastUser, items, summary, midTurn))
	return n / 4
}

func (s *Session) compactionFailed(turn int, err error) {
	var ce *compactionError
	if errors.As(err, &ce) && ce.grade > s.suppress {
		s.suppress = ce.grade
	}
	text := "Compaction failed: " + err.Error()
	switch s.suppress {
	case suppressUntilManual:
		text += ". Automatic compaction is off until you run /compact."
	case suppressUntilSuccess:
		text += ". Automatic compaction is off until a request succeeds."
	}
	s.notice(turn, "warn", text)
}

// compactor is the summariser: it turns a history into a summary with
// the input ladder (verbatim, then fitted, then lossy) and the quality
// gates.
type compactor struct {
	sampler  Sampler
	model    string
	window   int
	attempts int
	delay    time.Duration
	timeout  time.Duration
}

type inputLevel int

const (
	levelVerbatim inputLevel = iota
	levelFitted
	levelLossy
)

func (c compactor) run(ctx context.Context, msgs []Message, focus string) (string, error) {
	var overflow error
	prev := 0 // size of the input the server found too large
	for _, level := range []inputLevel{levelVerbatim, levelFitted, levelLossy} {
		input, ok := summaryInput(msgs, level, c.window, prev)
		if !ok {
			continue
		}
		prev = len(input)
		summary, err := c.sample(ctx, input, focus)
		if err == nil {
			return summary, nil
		}
		if !llm.IsContextOverflow(err) {
			return "", err
		}
		overflow = err
	}
	if overflow == nil {
		overflow = errors.New("it does not fit the context window even when cut down")
	}
	return "", &compactionError{grade: suppressUntilManual, err: fmt.Errorf("the conversation is too large to summarise: %w", overflow)}
}

// sample asks for a summary, retrying transient failures (timeouts,
// server errors, a degenerate summary) with a pause between attempts.
func (c compactor) sample(ctx context.Context, input, focus string) (string, error) {
	req := llm.Request{Model: c.model, System: summarySystemPrompt, Messages: []llm.Message{
		{Role: llm.RoleUser, Content: summaryRequest(input, focus)},
	}}
	var last error
	for attempt := 1; attempt <= c.attempts; attempt++ {
		if attempt > 1 {
			if err := llm.SleepContext(ctx, c.delay); err != nil {
				return "", err
			}
		}
		actx, cancel := context.WithTimeout(ctx, c.timeout)
		resp, err := c.sampler.Stream(actx, req, llm.Handler{})
		cancel()
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if err != nil {
			switch llm.KindOf(err) {
			case llm.KindContextOverflow:
				return "", err
			case llm.KindAuth, llm.KindQuota:
				return "", &compactionError{grade: suppressUntilSuccess, err: err}
			case llm.KindInvalidRequest, llm.KindModelNotFound, llm.KindProvider:
				return "", &compactionError{grade: suppressUntilManual, err: err}
			case llm.KindCancelled:
				err = fmt.Errorf("the summary took longer than %s", c.timeout)
			}
			last = err
			continue
		}
		summary := cleanSummary(resp.Text)
		if n := utf8.RuneCountInString(summary); n < minSummaryChars {
			last = fmt.Errorf("the summary was too short to be trusted (%d characters; at least %d needed)", n, minSummaryChars)
			continue
		}
		return summary, nil
	}
	return "", fmt.Errorf("no usable summary after %d attempts: %w", c.attempts, last)
}

// summaryInput renders the history for the summariser at a level of the
// ladder, and reports whether it fits. Verbatim is everything; fitted
// shortens large tool outputs until the whole fits 85 % of the window;
// lossy keeps every user message and earlier summary but cuts tool output
// to a line or two and drops the oldest exchanges to fit 70 %. When the
// server refused an input of rejected bytes, the next level also stays
// under three quarters of that.
func summaryInput(msgs []Message, level inputLevel, window, rejected int) (string, bool) {
	budget := window * 85 / 100 * 4 // in bytes
	if level == levelLossy {
		budget = window * 70 / 100 * 4
	}
	if rejected > 0 {
		budget = min(budget, rejected*3/4)
	}
	switch level {
	case levelVerbatim:
		s := renderTranscript(msgs, -1, -1)
		return s, len(s) <= budget
	case levelFitted:
		longest := 0
		for _, m := range msgs {
			if m.Role == RoleTool {
				longest = max(longest, len(m.Content))
			}
		}
		lo, hi := 0, longest // largest cap that fits
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if len(renderTranscript(msgs, mid, -1)) <= budget {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		s := renderTranscript(msgs, lo, -1)
		return s, len(s) <= budget
	default:
		// Rendered sizes add up, so the oldest messages to drop can be
		// found from per-message sizes without rendering again.
		parts := make([]string, len(msgs))
		for i, m := range msgs {
			parts[i] = renderTranscript([]Message{m}, 200, 2000)
		}
		size := 0
		for _, p := range parts {
			size += len(p)
		}
		for start := 0; start < len(msgs); start++ {
			if size <= budget {
				return renderTranscript(keepEssential(msgs, start), 200, 2000), true
			}
			if msgs[start].Special != SpecialSummary {
				size -= len(parts[start])
			}
		}
		return "", false
	}
}

// keepEssential is msgs from start on, plus every earlier summary (a
// summary is never dropped: it is the only record of what came before).
func keepEssential(msgs []Message, start int) []Message {
	var out []Message
	for i, m := range msgs {
		if i >= start || m.Special == SpecialSummary {
			out = append(out, m)
		}
	}
	return out
}

// renderTranscript writes the history as text for the summariser. Tool
// outputs longer than toolCap and other texts longer than textCap keep
// their head and tail (a negative cap keeps everything).
func renderTranscript(msgs []Message, toolCap, textCap int) string {
	var b strings.Builder
	for _, m := range msgs {
		switch {
		case m.Special == SpecialSummary:
			b.WriteString("[summary of the conversation before an earlier compaction]\n")
			b.WriteString(m.Content)
		case m.Special == SpecialReminder:
			continue
		case m.Role == RoleUser:
			b.WriteString("[user]\n")
			b.WriteString(headTail(m.Content, textCap))
		case m.Role == RoleAssistant:
			b.WriteString("[assistant]\n")
			b.WriteString(headTail(m.Content, textCap))
			for _, c := range m.Calls {
				fmt.Fprintf(&b, "\n[tool call %s] %s %s", c.ID, c.Name, headTail(wireArguments(c.Arguments), max(textCap, toolCap)))
			}
		case m.Role == RoleTool:
			fmt.Fprintf(&b, "[tool result %s: %s]\n", m.CallID, m.Name)
			b.WriteString(headTail(m.Content, toolCap))
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

// headTail shortens s to about n bytes, keeping its start and end.
func headTail(s string, n int) string {
	if n < 0 || len(s) <= n {
		return s
	}
	head := n * 2 / 3
	tail := n - head
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	cut := len(s) - tail
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return s[:head] + fmt.Sprintf("\n… [%d bytes omitted] …\n", cut-head) + s[cut:]
}

const summarySystemPrompt = "You summarise a coding session between a user and a coding agent so that the agent can continue the work with a fresh context window. You write for the agent, precisely and completely; the summary is all it will know about what came before."

func summaryRequest(transcript, focus string) string {
	var b strings.Builder
	b.WriteString("Here is the conversation so far:\n\n<transcript>\n")
	b.WriteString(transcript)
	b.WriteString("</transcript>\n\n")
	b.WriteString(`Write a summary of it. First think in an <analysis> block about what matters; it will be discarded. Then write exactly one <summary> block with these nine numbered sections, writing "None" under a section that has nothing:

1. Primary request and intent: everything the user asked for, in detail.
2. Key technical concepts: technologies, frameworks and conventions involved.
3. Files and code sections: every file read, changed or created, why it matters, and full snippets of the important code.
4. Errors and fixes: each error met and how it was fixed, including what the user said about it.
5. Problem solving: problems solved and troubleshooting still going on.
6. All user messages: every message the user wrote that is not a tool result, verbatim or nearly so.
7. Pending tasks: what the user asked for that is not done yet.
8. Current work: exactly what was being worked on just before this summary, with file names and code.
9. Next step: the next step, directly in line with the latest request, quoting the latest messages verbatim so the task does not drift.

Rules: do not call tools. Do not restate these instructions or present them as a message from the user. Work only from the transcript above; do not ask to read anything else.`)
	if f := strings.TrimSpace(focus); f != "" {
		b.WriteString("\n\nThe user asked this summary to pay particular attention to: ")
		b.WriteString(f)
	}
	return b.String()
}

var (
	analysisBlock = regexp.MustCompile(`(?is)<analysis>.*?</analysis>`)
	controlTag    = regexp.MustCompile(`(?i)<(/?)(summary|analysis|user_query|transcript)\b`)
)

// cleanSummary treats the summariser's answer as untrusted: it drops the
// <analysis> scratchpad, keeps what is inside the outer <summary> block,
// and breaks any control tag left in the body with a zero-width space so
// it cannot be taken for a tag on the next round.
func cleanSummary(s string) string {
	s = analysisBlock.ReplaceAllString(s, "")
	lower := strings.ToLower(s)
	if i := strings.Index(lower, "<summary>"); i >= 0 {
		body := s[i+len("<summary>"):]
		if j := strings.LastIndex(strings.ToLower(body), "</summary>"); j >= 0 {
			body = body[:j]
		}
		s = body
	} else if i := strings.Index(lower, "<analysis>"); i >= 0 {
		s = s[:i] // an analysis that never ended and no summary after it
	}
	s = controlTag.ReplaceAllString(s, "<$1\u200b$2")
	return strings.TrimSpace(s)
}

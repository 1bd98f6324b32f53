package scrollback

import (
	"fmt"
	"strings"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
)

// A subagent (the child session a task call runs) is one block: the task
// call's tool block, turned into a KindSubagent block by its first
// SubagentUpdate. Its header names the agent and the task and says where
// it stands; while it runs, one line shows the child's latest tool call
// (or the approval it waits for), and once it is done its body is the
// report, laid out as markdown and folded like a tool's output. Progress
// only changes the block's small header and progress line, so a frame
// costs what any changed block costs. The elapsed time of a running
// subagent is measured from its first update's time to the latest
// event's, or to the time the app gives with SetNow as a live session
// ticks (a replay gives none, so it shows what each event said); once it
// is done, its call's duration.

// subInfo is what a subagent block shows of its child.
type subInfo struct {
	agent, description string
	state              event.SubagentState
	tool, target       string
	calls              int
	asking             string // the call it waits for approval of
	started, last      time.Time
	tokens             int
	shown              string // the running time last laid out
}

// applySubagent folds a SubagentUpdate into its task call's block.
func (t *Transcript) applySubagent(e event.Event) {
	u := e.Subagent
	if u == nil || e.CallID == "" {
		return
	}
	b := t.toolBlock(e.CallID, "", "", "")
	if b.finished {
		return
	}
	if b.sub == nil {
		b.sub = &subInfo{started: e.Time}
		b.kind = KindSubagent
		b.body = nil // the report is laid out as markdown, not as tool output
	}
	s := b.sub
	s.agent, s.description, s.state, s.calls = u.Agent, u.Description, u.State, u.Calls
	s.tool, s.target, s.last = u.Tool, u.Target, e.Time
	if u.Usage != nil {
		s.tokens = u.Usage.TotalTokens
	}
	if u.State.Done() {
		s.asking = ""
	}
	t.changed(b)
}

// subagentAsks shows, in the subagent's block, the approval its child
// waits for; it reports whether a names a subagent (the approval is then
// the block's, not a tool block of its own).
func (t *Transcript) subagentAsks(a *event.Approval, asking bool) bool {
	if a.Subagent == "" {
		return false
	}
	b, ok := t.red.calls[a.Subagent]
	if !ok || b.sub == nil || b.finished {
		return true
	}
	b.sub.asking = ""
	if asking {
		b.sub.asking = strings.TrimSpace(a.Tool + " " + render.FirstLine(a.Target))
	}
	t.changed(b)
	return true
}

// layoutSubagent lays out a subagent block: its header, then its
// progress line while it runs, or its report once it is done.
func (t *Transcript) layoutSubagent(b *Block, v *blockView, width int) {
	th := &t.theme
	s := b.sub
	mark, markStyle, status := "● ", th.ToolPending, "running"
	var took string
	if b.finished {
		took = formatDuration(b.tool.duration)
		switch b.tool.state {
		case ToolSucceeded:
			mark, markStyle, status = "✓ ", th.ToolOK, ""
		case ToolFailed, ToolDenied:
			mark, markStyle, status = "✗ ", th.ToolFailed, "failed"
		default:
			mark, markStyle, status = "⊘ ", th.Muted, "cancelled"
		}
	} else {
		took = t.runningFor(s)
		s.shown = took
		if s.asking != "" {
			mark, status = "? ", "awaiting approval"
		}
	}
	name := s.agent
	if name == "" {
		name = "subagent"
	}
	head := render.Line{Spans: []render.Span{{Text: mark, Style: markStyle}, {Text: name, Style: th.ToolName}}}
	if d := s.description; d != "" {
		head.Spans = append(head.Spans, render.Span{Text: " "}, render.Span{Text: render.FirstLine(d), Style: th.ToolTarget})
	}
	var meta []string
	if status != "" {
		meta = append(meta, status)
	}
	if s.calls > 0 {
		meta = append(meta, plural(s.calls, "call", "calls"))
	}
	if took != "" {
		meta = append(meta, took)
	}
	if s.tokens > 0 {
		meta = append(meta, tokensText(s.tokens))
	}
	if len(meta) > 0 {
		style := th.Muted
		if status == "failed" {
			style = th.ToolFailed
		}
		head.Spans = append(head.Spans, render.Span{Text: "  " + strings.Join(meta, " · "), Style: style})
	}
	v.gutterFirst = render.Span{Text: "  │ ", Style: th.Muted}
	v.gutter = v.gutterFirst
	if !b.finished {
		if !b.collapsed {
			v.body = []render.Line{truncate(t.progressLine(s), max(width-4, 1))}
			v.bodyN = 1
		}
		v.head = append(v.head, head)
		return
	}
	t.layoutText(b, v, max(width-4, 1), t.opt.Assistant)
	total := v.bodyN
	switch fold := t.opt.FoldLines; {
	case b.collapsed:
		if total > 0 {
			head.Spans = append(head.Spans, render.Span{Text: " ▸ " + plural(total, "line", "lines"), Style: th.Muted})
		}
		v.bodyN = 0
	case !b.unfolded && total > fold+1:
		v.bodyN = fold
		v.foot = append(v.foot, render.Line{Spans: []render.Span{{
			Text: "  … " + plural(total-fold, "more line", "more lines"), Style: th.Muted}}})
	}
	v.head = append(v.head, head)
}

// SetNow gives the transcript the time during a live session, so running
// subagents show how long they have run; only the blocks whose shown
// time changes are laid out again. It reports whether any did.
func (t *Transcript) SetNow(now time.Time) (changed bool) {
	t.now = now
	for _, b := range t.red.calls {
		if s := b.sub; s != nil && !b.finished && t.runningFor(s) != s.shown {
			t.changed(b)
			changed = true
		}
	}
	return changed
}

// runningFor is how long a running subagent has run, in whole seconds.
func (t *Transcript) runningFor(s *subInfo) string {
	end := s.last
	if t.now.After(end) {
		end = t.now
	}
	d := end.Sub(s.started)
	if d < time.Second {
		return ""
	}
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d/time.Second))
	}
	return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
}

// progressLine is what a running subagent is doing.
func (t *Transcript) progressLine(s *subInfo) render.Line {
	th := &t.theme
	switch {
	case s.asking != "":
		return render.Line{Spans: []render.Span{{Text: "asks to run ", Style: th.Muted}, {Text: s.asking, Style: th.ToolPending}}}
	case s.tool != "":
		l := render.Line{Spans: []render.Span{{Text: "→ ", Style: th.Muted}, {Text: s.tool, Style: th.ToolName}}}
		if s.target != "" {
			l.Spans = append(l.Spans, render.Span{Text: " " + render.FirstLine(s.target), Style: th.ToolTarget})
		}
		return l
	}
	return render.Line{Spans: []render.Span{{Text: "starting…", Style: th.Muted}}}
}

// tokensText is a token count in a few characters.
func tokensText(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d tokens", n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk tokens", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1fM tokens", float64(n)/1e6)
}

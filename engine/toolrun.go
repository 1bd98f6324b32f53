package engine

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/internal/pathx"
	"github.com/quire-sh/quire/tools"
)

// startBatch runs the approved calls of the batch in parallel.
func (s *Session) startBatch() {
	t := s.turn
	t.phase = phaseRunning
	s.jobs++
	t.job = s.jobs
	var run []int
	for i, c := range t.calls {
		if c.approved && !c.done {
			run = append(run, i)
		}
	}
	if len(run) == 0 {
		s.batchFinished()
		return
	}
	jobs := make([]*callState, len(t.calls))
	copy(jobs, t.calls)
	go s.runBatch(t.ctx, t.job, t.n, jobs, run)
}

// runBatch is the batch worker. Calls run concurrently; a call that
// writes what an earlier call reads or writes, or reads what it writes,
// waits for it, so edits to one file apply in the order the model made
// them and a read sees the writes requested before it. A call planned on
// an earlier call's changes is not run when that call failed. Results are
// reported as they come; the actor keeps them in request order. After a
// cancel, tools get ToolCancelGrace to stop before their calls are
// reported cancelled without them.
func (s *Session) runBatch(ctx context.Context, job, turn int, calls []*callState, run []int) {
	finished := make(map[int]chan struct{}, len(run))
	for _, i := range run {
		finished[i] = make(chan struct{})
	}
	// succeeded[j] is written before finished[j] is closed and read only
	// after, so the close orders the two.
	succeeded := make([]bool, len(calls))
	results := make(chan toolDone, len(run))
	for k, i := range run {
		var waits []int
		for _, j := range run[:k] {
			if ordered(calls[j].plan, calls[i].plan) {
				waits = append(waits, j)
			}
		}
		c := calls[i]
		go func() {
			defer close(finished[i])
			for _, j := range waits {
				select {
				case <-finished[j]:
				case <-ctx.Done():
				}
			}
			var r event.ToolResult
			ran := false
			switch failed := failedDep(calls, succeeded, waits, c); {
			case ctx.Err() != nil:
				r = event.ToolResult{CallID: c.call.ID, Name: c.call.Name, Status: event.ToolCancelled, Output: "not run: the user cancelled the turn"}
			case failed != nil:
				r = orphanResult(c, failed, "failed")
			default:
				r, ran = s.runTool(ctx, job, turn, c), true
			}
			succeeded[i] = r.Status == event.ToolOK
			results <- toolDone{job: job, index: i, result: r, ran: ran}
		}()
	}
	pending := make(map[int]bool, len(run))
	for _, i := range run {
		pending[i] = true
	}
	cancelled := ctx.Done()
	var grace <-chan time.Time
	for len(pending) > 0 {
		select {
		case r := <-results:
			delete(pending, r.index)
			s.send(r)
		case <-cancelled:
			cancelled = nil
			grace = time.After(s.cfg.ToolCancelGrace)
		case <-grace:
			for i := range pending {
				c := calls[i]
				s.send(toolDone{job: job, index: i, result: event.ToolResult{CallID: c.call.ID, Name: c.call.Name, Status: event.ToolCancelled,
					Output: fmt.Sprintf("cancelled: the tool did not stop within %s of the cancel", s.cfg.ToolCancelGrace)}})
			}
			pending = nil
		}
	}
	s.send(batchDone{job: job})
}

// ordered reports whether a later call b must wait for an earlier call a:
// one writes what the other reads or writes.
func ordered(a, b tools.Plan) bool {
	return overlaps(a.Writes, b.Writes) || overlaps(a.Writes, b.Reads) || overlaps(a.Reads, b.Writes)
}

// failedDep returns the call among waits (all finished) whose planned
// changes c builds on and which did not succeed, or nil.
func failedDep(calls []*callState, succeeded []bool, waits []int, c *callState) *callState {
	for _, j := range waits {
		for _, id := range c.deps {
			if calls[j].call.ID == id && !succeeded[j] {
				return calls[j]
			}
		}
	}
	return nil
}

// runTool runs one call, turning a panic into an error result.
func (s *Session) runTool(ctx context.Context, job, turn int, c *callState) (r event.ToolResult) {
	start := time.Now()
	bound := &streamBound{emit: func(text string) { s.send(toolOutput{job: job, callID: c.call.ID, text: text}) }}
	out := &utf8Carry{emit: bound.write}
	var res tools.Result
	func() {
		defer func() {
			if p := recover(); p != nil {
				res = tools.Result{Output: fmt.Sprintf("error: the tool crashed: %v", p), IsError: true}
			}
		}()
		if _, ok := c.tool.(taskTool); ok {
			res = s.runTask(ctx, job, turn, c)
			return
		}
		res = c.tool.Run(ctx, s.cfg.Env, tools.Call{ID: c.call.ID, Turn: turn, Plan: c.plan, Output: out.write})
	}()
	out.flush()
	bound.flush()
	if f := s.cfg.ToolOutput; f != nil {
		res.Output = f(res.Output)
	}
	status := event.ToolOK
	if res.IsError {
		status = event.ToolError
		if ctx.Err() != nil {
			status = event.ToolCancelled
		}
	}
	return event.ToolResult{
		CallID: c.call.ID, Name: c.call.Name, Status: status, Output: res.Output, ExitCode: res.ExitCode,
		DurationMS: time.Since(start).Milliseconds(), Truncated: res.Truncated, Diff: res.Diff,
		StreamedBytes: bound.omittedTotal(),
	}
}

// utf8Carry holds back a character split across output chunks, so every
// ToolOutputDelta is valid text.
type utf8Carry struct {
	buf  []byte
	emit func(string)
}

func (u *utf8Carry) write(p []byte) {
	u.buf = append(u.buf, p...)
	cut := len(u.buf)
	// Back up over at most 3 bytes of an incomplete final character.
	for i := len(u.buf) - 1; i >= 0 && i >= len(u.buf)-3; i-- {
		if utf8.RuneStart(u.buf[i]) {
			if !utf8.FullRune(u.buf[i:]) {
				cut = i
			}
			break
		}
	}
	if cut == 0 {
		return
	}
	u.emit(strings.ToValidUTF8(string(u.buf[:cut]), "\uFFFD"))
	u.buf = append(u.buf[:0], u.buf[cut:]...)
}

func (u *utf8Carry) flush() {
	if len(u.buf) > 0 {
		u.emit(strings.ToValidUTF8(string(u.buf), "\uFFFD"))
		u.buf = nil
	}
}

// overlaps reports whether two write sets touch a common path: the same
// file, or a directory and something inside it.
func overlaps(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if pathx.Within(x, y) || pathx.Within(y, x) {
				return true
			}
		}
	}
	return false
}

package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quire-sh/quire/engine/event"
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
	go s.runBatch(t.ctx, t.job, jobs, run)
}

// runBatch is the batch worker. Calls run concurrently; a call whose
// writes overlap an earlier call's waits for it, so edits to one file
// apply in the order the model made them. Results are reported as they
// come; the actor keeps them in request order. After a cancel, tools get
// ToolCancelGrace to stop before their calls are reported cancelled
// without them.
func (s *Session) runBatch(ctx context.Context, job int, calls []*callState, run []int) {
	finished := make(map[int]chan struct{}, len(run))
	for _, i := range run {
		finished[i] = make(chan struct{})
	}
	results := make(chan toolDone, len(run))
	for k, i := range run {
		var deps []chan struct{}
		for _, j := range run[:k] {
			if overlaps(calls[j].plan.Writes, calls[i].plan.Writes) {
				deps = append(deps, finished[j])
			}
		}
		c := calls[i]
		go func() {
			defer close(finished[i])
			for _, d := range deps {
				select {
				case <-d:
				case <-ctx.Done():
				}
			}
			var r event.ToolResult
			if ctx.Err() != nil {
				r = event.ToolResult{CallID: c.call.ID, Name: c.call.Name, Status: event.ToolCancelled, Output: "not run: the user cancelled the turn"}
			} else {
				r = s.runTool(ctx, job, c)
			}
			results <- toolDone{job: job, index: i, result: r}
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

// runTool runs one call, turning a panic into an error result.
func (s *Session) runTool(ctx context.Context, job int, c *callState) (r event.ToolResult) {
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
		res = c.tool.Run(ctx, s.cfg.Env, tools.Call{ID: c.call.ID, Args: c.call.Arguments, Output: out.write})
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
			if within(x, y) || within(y, x) {
				return true
			}
		}
	}
	return false
}

func within(path, dir string) bool {
	path, dir = filepath.Clean(path), filepath.Clean(dir)
	if path == dir {
		return true
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

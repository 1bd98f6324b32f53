package hooks

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/quire-sh/quire/engine"
)

// Options configure a Runner.
type Options struct {
	// Env is the environment hooks start from (default: quire's own).
	Env []string
	// Queue bounds the observed events waiting for their hooks (default
	// 256); beyond it events are dropped, and the user told.
	Queue int
	// CloseGrace is how long Close lets observed events' hooks finish
	// before it stops them (default 10 s).
	CloseGrace time.Duration
}

// Runner runs a set of hooks for a session. It satisfies engine.Hooks:
// PreToolUse runs a call's hooks and waits for them; observed events go
// into a bounded queue that one goroutine works through in order, so
// the session never waits for an observer and no more than one event's
// hooks run at a time.
type Runner struct {
	set  *Set
	base []string

	queue  chan observed
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	grace  time.Duration

	mu      sync.Mutex
	closed  bool
	dropped int
	report  func(string) // the latest reporter, for the dropped count
}

var _ engine.Hooks = (*Runner)(nil)

type observed struct {
	e      engine.HookEvent
	hooks  []Hook
	report func(string)
}

// NewRunner starts a runner of set. Close stops it.
func NewRunner(set *Set, opt Options) *Runner {
	if opt.Env == nil {
		opt.Env = os.Environ()
	}
	if opt.Queue <= 0 {
		opt.Queue = 256
	}
	if opt.CloseGrace <= 0 {
		opt.CloseGrace = 10 * time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Runner{
		set: set, base: opt.Env,
		queue: make(chan observed, opt.Queue), ctx: ctx, cancel: cancel,
		done: make(chan struct{}), grace: opt.CloseGrace,
	}
	go r.work()
	return r
}

// Gates reports whether a PreToolUse hook applies to the tool.
func (r *Runner) Gates(tool string) bool {
	return len(r.set.matching(engine.HookPreToolUse, tool)) > 0
}

// PreToolUse runs the call's PreToolUse hooks side by side and waits
// for them. Any refusal refuses the call (the reasons of every hook that
// refused, joined); otherwise a hook that asks for the user makes quire
// ask. A hook that failed is passed over, and said in Problems.
func (r *Runner) PreToolUse(ctx context.Context, e engine.HookEvent) engine.HookVerdict {
	hooks := r.set.matching(engine.HookPreToolUse, e.Tool)
	in := encodeInput(e)
	decisions := make([]decision, len(hooks))
	var wg sync.WaitGroup
	for i, h := range hooks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			decisions[i] = decide(h, run(ctx, h, e, r.base, in))
		}()
	}
	wg.Wait()
	var v engine.HookVerdict
	if ctx.Err() != nil {
		return v // the turn was cancelled; nothing to decide
	}
	var reasons, deniers []string
	for i, d := range decisions {
		if d.problem != "" {
			v.Problems = append(v.Problems, d.problem)
		}
		switch d.verdict {
		case engine.HookDeny:
			deniers = append(deniers, hooks[i].Command)
			if d.reason != "" {
				reasons = append(reasons, d.reason)
			}
		case engine.HookAsk:
			if v.Decision == engine.HookAllow {
				v.Decision = engine.HookAsk
			}
		}
	}
	if len(deniers) > 0 {
		v.Decision = engine.HookDeny
		v.Reason = strings.Join(reasons, "; ")
		v.Hook = strings.Join(deniers, "; ")
	}
	return v
}

// Observe queues e for its hooks and returns at once. An event no hook
// is for costs nothing; when the queue is full the event is dropped and
// the user told once the queue moves again.
func (r *Runner) Observe(e engine.HookEvent, report func(string)) {
	hooks := r.set.matching(e.Name, subject(e))
	if len(hooks) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.report = report
	select {
	case r.queue <- observed{e: e, hooks: hooks, report: report}:
	default:
		r.dropped++
	}
}

// work runs the observed events' hooks, one event at a time, in order.
func (r *Runner) work() {
	defer close(r.done)
	for o := range r.queue {
		in := encodeInput(o.e)
		problems := make([]string, len(o.hooks))
		var wg sync.WaitGroup
		for i, h := range o.hooks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				problems[i] = run(r.ctx, h, o.e, r.base, in).failure(h)
			}()
		}
		wg.Wait()
		if r.ctx.Err() != nil {
			continue // stopped by Close: nobody is left to tell
		}
		for _, p := range problems {
			if p != "" {
				o.report(p)
			}
		}
		r.mu.Lock()
		dropped, report := r.dropped, r.report
		r.dropped = 0
		r.mu.Unlock()
		if dropped > 0 {
			report(fmt.Sprintf("hooks fell behind: %d events were not given to their hooks", dropped))
		}
	}
}

// Close stops taking events, gives the queued ones' hooks CloseGrace to
// finish (SessionEnd's among them), then stops what still runs and
// returns once nothing does.
func (r *Runner) Close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		<-r.done
		return
	}
	r.closed = true
	close(r.queue)
	r.mu.Unlock()
	select {
	case <-r.done:
	case <-time.After(r.grace):
		r.cancel()
		<-r.done
	}
	r.cancel()
}

package term

import (
	"sync"
	"time"
)

// Terminal replies (to DECRQM, XTVERSION, DA1, CPR, OSC queries) arrive on
// the same byte stream as the user's keys. The decoder recognises them by
// shape and hands them here; whoever asked is waiting on a channel. So a
// probe never reads the tty itself and can never eat a keystroke.

type replyKind uint8

const (
	replyCPR       replyKind = iota // a = row, b = column (1-based)
	replyDECRPM                     // a = mode, b = state
	replyDA1                        // text = attributes
	replyXTVersion                  // text = name and version
	replyOSC                        // text = the OSC body
)

type reply struct {
	kind replyKind
	a, b int
	text string
}

// lateReplyGrace is how long after a cursor query gave up its reply is
// still taken as a reply. Without it, a slow answer "CSI 1;5R" would reach
// the app as Ctrl+F3.
const lateReplyGrace = 500 * time.Millisecond

type replyWaiter struct {
	kinds []replyKind
	ch    chan reply
}

func (w *replyWaiter) wants(k replyKind) bool {
	for _, x := range w.kinds {
		if x == k {
			return true
		}
	}
	return false
}

type replyRouter struct {
	mu      sync.Mutex
	waiters []*replyWaiter
	// lateCPR counts cursor reports still owed to queries that timed out;
	// lateUntil is when we stop expecting them.
	lateCPR   int
	lateUntil time.Time
}

func (r *replyRouter) register(kinds ...replyKind) *replyWaiter {
	w := &replyWaiter{kinds: kinds, ch: make(chan reply, 8)}
	r.mu.Lock()
	r.waiters = append(r.waiters, w)
	r.mu.Unlock()
	return w
}

// unregister removes w. If answered is false and w waited for a cursor
// report, that report may still come and is swallowed for a while.
func (r *replyRouter) unregister(w *replyWaiter, answered bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, x := range r.waiters {
		if x == w {
			r.waiters = append(r.waiters[:i], r.waiters[i+1:]...)
			break
		}
	}
	if !answered && w.wants(replyCPR) {
		r.lateCPR++
		r.lateUntil = time.Now().Add(lateReplyGrace)
	}
}

// wantCPR reports whether a "CSI row;col R" now is a reply.
func (r *replyRouter) wantCPR() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range r.waiters {
		if w.wants(replyCPR) {
			return true
		}
	}
	return r.lateCPR > 0 && time.Now().Before(r.lateUntil)
}

// deliver hands rep to the waiters that want it: a cursor report to the
// oldest such waiter (queries are answered in order), anything else to all.
func (r *replyRouter) deliver(rep reply) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range r.waiters {
		if !w.wants(rep.kind) {
			continue
		}
		select {
		case w.ch <- rep:
		default:
		}
		if rep.kind == replyCPR {
			return
		}
	}
	if rep.kind == replyCPR && r.lateCPR > 0 {
		r.lateCPR--
	}
}

package term

import (
	"errors"
	"fmt"
	"time"
)

// ErrNoReply means the terminal did not answer a query in time.
var ErrNoReply = errors.New("terminal did not answer")

// CursorPosition asks the terminal where the cursor is (CSI 6n) and
// returns its 0-based column and row. The query is queued behind pending
// frames, so the answer reflects them; timeout counts from the call. Keys
// typed meanwhile are delivered as usual; only the reply is taken out of
// the input. A reply arriving up to half a second after the timeout is
// still swallowed rather than misread as a key.
func (t *Terminal) CursorPosition(timeout time.Duration) (x, y int, err error) {
	if t.closed.Load() || t.awayUntil() != nil {
		return 0, 0, ErrClosed
	}
	w := t.replies.register(replyCPR)
	answered := false
	defer func() { t.replies.unregister(w, answered) }()
	if err := t.submit([]byte(seqCPRQuery)); err != nil {
		return 0, 0, err
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-w.ch:
		answered = true
		return max(r.b-1, 0), max(r.a-1, 0), nil
	case <-timer.C:
		return 0, 0, fmt.Errorf("cursor position: %w within %v", ErrNoReply, timeout)
	}
}

// Probe refines Caps with what the terminal itself says, and returns the
// result (also kept for Caps). It sends DECRQM for mode 2026, XTVERSION
// when Caps.ShouldProbeVersion (never through a multiplexer, which would
// answer for itself), and DA1 last: nearly every terminal answers DA1, and
// answers in order, so its reply means no other answer is coming and the
// probe ends without waiting out the timeout. Keys typed meanwhile are
// delivered as usual; late replies are recognised by their shape and
// dropped, never seen as keys.
func (t *Terminal) Probe(timeout time.Duration) Caps {
	caps := t.Caps()
	if t.closed.Load() || t.awayUntil() != nil || caps.Term == "dumb" {
		return caps
	}
	w := t.replies.register(replyDECRPM, replyDA1, replyXTVersion)
	defer t.replies.unregister(w, true)
	query := seqSyncModeQuery
	if caps.ShouldProbeVersion() {
		query += seqXTVersionQuery
	}
	query += seqDA1Query
	if t.submit([]byte(query)) != nil {
		return caps
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	sawDECRPM := false
wait:
	for {
		select {
		case r := <-w.ch:
			switch r.kind {
			case replyDECRPM:
				if r.a == 2026 {
					sawDECRPM = true
					caps.SyncProbed = true
					// 1 set, 2 reset, 3 permanently set: the mode exists.
					// 0 unknown, 4 permanently reset: it does not.
					caps.SyncOutput = r.b >= 1 && r.b <= 3
				}
			case replyXTVersion:
				caps.applyXTVersion(r.text)
			case replyDA1:
				if !sawDECRPM {
					// Answered DA1 but not DECRQM: the terminal knows
					// neither the query nor, very likely, the mode.
					caps.SyncProbed = true
					caps.SyncOutput = false
				}
				break wait
			}
		case <-timer.C:
			break wait
		}
	}
	if caps.Multiplexer == "tmux" && t.tmuxOption != nil {
		// Whether tmux takes OSC 52 itself is an option, not a reply.
		if v, err := t.tmuxOption("set-clipboard"); err == nil {
			caps.TmuxClipboard = v == "on"
			caps.Clipboard = caps.Clipboard || caps.TmuxClipboard
		}
	}
	t.capsMu.Lock()
	t.caps = caps
	t.capsMu.Unlock()
	return caps
}

// StartProbe runs Probe in the background and delivers its result as a
// CapsEvent on Events, so that asking the terminal never delays the first
// frame. Keys typed while it waits arrive as usual.
func (t *Terminal) StartProbe(timeout time.Duration) {
	go func() {
		caps := t.Probe(timeout)
		t.post(CapsEvent{Caps: caps})
	}()
}

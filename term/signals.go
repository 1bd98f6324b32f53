package term

import (
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// signalHandler keeps the terminal sane across signals:
//
//   - SIGTERM, SIGHUP, and SIGINT (which in raw mode only comes from
//     kill(1), since Ctrl+C is a key): restore at once, queue a
//     SignalEvent, and re-raise the signal with its default action if the
//     process has not closed the terminal within Options.ExitGrace.
//   - SIGQUIT: restore, then re-raise, so Go's goroutine dump prints on a
//     sane terminal.
//   - SIGTSTP from outside: Suspend. During a hand-off the child got it
//     too (Ctrl+Z in $EDITOR); then we stop alongside it.
//   - SIGCONT after a stop we did not arrange (kill -STOP): take the
//     terminal back, which the shell may have reset meanwhile.
//   - During a hand-off SIGINT and SIGQUIT are the child's business and
//     are ignored.
type signalHandler struct {
	t    *Terminal
	ch   chan os.Signal
	quit chan struct{}
	done chan struct{}

	away     atomic.Bool
	ownStops atomic.Int32 // stops we made; their SIGCONT is expected

	mu    sync.Mutex
	grace *time.Timer
}

func startSignals(t *Terminal) *signalHandler {
	h := &signalHandler{
		t:    t,
		ch:   make(chan os.Signal, 8),
		quit: make(chan struct{}),
		done: make(chan struct{}),
	}
	signal.Notify(h.ch, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT,
		syscall.SIGTSTP, syscall.SIGCONT)
	go h.loop()
	return h
}

func (h *signalHandler) setAway(away bool) { h.away.Store(away) }

func (h *signalHandler) stop() {
	signal.Stop(h.ch)
	close(h.quit)
	<-h.done
	h.mu.Lock()
	if h.grace != nil {
		h.grace.Stop()
	}
	h.mu.Unlock()
}

func (h *signalHandler) loop() {
	defer close(h.done)
	for {
		select {
		case sig := <-h.ch:
			h.handle(sig.(syscall.Signal))
		case <-h.quit:
			return
		}
	}
}

func (h *signalHandler) handle(sig syscall.Signal) {
	t := h.t
	away := h.away.Load()
	switch sig {
	case syscall.SIGINT, syscall.SIGQUIT:
		if away {
			return
		}
		if sig == syscall.SIGQUIT {
			_ = t.Restore()
			reraise(sig)
			return
		}
		h.terminate(sig)
	case syscall.SIGTERM, syscall.SIGHUP:
		h.terminate(sig)
	case syscall.SIGTSTP:
		switch {
		case away || t.closed.Load():
			// The child got it too and stops; the job stops with it.
			go func() { _ = stopJob(h) }()
		default:
			go func() { _ = t.Suspend() }()
		}
	case syscall.SIGCONT:
		if h.ownStops.Add(-1) >= 0 {
			return
		}
		h.ownStops.Add(1)
		if !away && !t.closed.Load() {
			go func() { _ = t.HandOff(func() error { return nil }) }()
		}
	}
}

func (h *signalHandler) terminate(sig syscall.Signal) {
	_ = h.t.Restore()
	h.t.post(SignalEvent{Signal: sig})
	if h.t.opts.ExitGrace < 0 {
		return
	}
	h.mu.Lock()
	if h.grace == nil {
		h.grace = time.AfterFunc(h.t.opts.ExitGrace, func() { reraise(sig) })
	}
	h.mu.Unlock()
}

// reraise delivers sig to ourselves with its default action.
func reraise(sig syscall.Signal) {
	signal.Reset(sig)
	_ = unix.Kill(os.Getpid(), sig)
}

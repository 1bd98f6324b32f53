package session

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"sync"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/ext/mcp"
)

// Handle is a running session as the UI sees it (it satisfies
// app.Session): the engine session of the moment, which /model, /clear
// and /rewind replace.
//
// Submit, Cancel, Answer and Compact never block: they go to the engine's
// mailbox, or wait in order while a resumed session is still opening or
// while the session is being replaced, and then go to the session that
// comes out of it. The operations that replace the session, list the
// store or export block; they run one at a time, and the UI calls them
// off its loop.
type Handle struct {
	st    *store.Store
	prune *pruner
	// tail is what the first screen of a resumed session shows.
	tail []event.Event
	dir  string
	// label names the provider and model the session opened with, for
	// the status line's first frame (the events name them after).
	label string

	// ops serialises the blocking operations; opt is theirs (a /model
	// switch changes its Config).
	ops sync.Mutex
	opt Options

	mu       sync.Mutex
	cur      *Opened
	pending  *pendingSession
	events   <-chan event.Event
	swapping bool
	queued   []func(*engine.Session)
	saved    string
	saveErr  error // the last events could not be saved
	closed   bool
	// question is what to ask the user about the project's files, until
	// AnswerTrust.
	question *app.TrustQuestion
	// opened is the effective configuration of a resumed session still
	// opening, for the first screen.
	opened *config.Config

	// extMu guards mcp, which runs the MCP servers for every session the
	// handle switches between (replaced when the user trusts the
	// project's .mcp.json); extChanged signals a change of their state.
	extMu      sync.Mutex
	mcp        *mcp.Manager
	extChanged chan struct{}
	// commands are the custom commands found at Open. cmdUpdates carries
	// them with the servers' prompts each time those change; cmdMu guards
	// sentSig (the list last sent) and told (the notices CheckCommands
	// gave that were shown).
	commands   []app.Command
	cmdMu      sync.Mutex
	cmdUpdates chan []app.Command
	sentSig    string
	told       map[string]bool
}

var (
	_ app.Session    = (*Handle)(nil)
	_ app.Extensions = (*Handle)(nil)
)

// Open starts the session opt asks for. A resumed session (opt.Resume or
// opt.Continue) is opened in the background: Shown holds its latest turns
// for the first screen at once, and the rest of its history arrives on
// Older while commands sent meanwhile wait in order.
//
// The project's own files (ProjectFiles) are read once, here: those the
// user trusted are used, and with opt.AskTrust those not decided yet are
// left out until the user answers TrustQuestion.
func Open(opt Options) (*Handle, error) {
	h := &Handle{opt: opt, extChanged: make(chan struct{}, 1), cmdUpdates: make(chan []app.Command, 1), told: map[string]bool{}}
	if h.opt.Cwd == "" {
		cwd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("finding the working directory: %w", err)
		}
		h.opt.Cwd = cwd
	}
	proj := ScanProject(h.opt.Cwd, TrustStore())
	h.opt.project = &proj
	if opt.AskTrust {
		h.question = question(&proj)
	}
	if h.opt.ext == nil {
		// Found once: every session the handle switches to has the same
		// skills and commands, and the app the same commands.
		h.opt.ext = discoverExtensions(opt.Config, h.opt.Cwd)
	}
	h.commands = h.opt.ext.commands
	h.sentSig = commandsSignature(h.commands)
	// One registry for every session the handle switches to, which its
	// MCP servers fill.
	h.opt.registry = newRegistry(h.opt.ext)
	if !opt.NoStore {
		st, err := openStore(opt.Config)
		if err != nil {
			return nil, err
		}
		h.st, h.prune = st, startPrune(st)
		h.opt.store = st
	}
	if opt.Resume != "" || opt.Continue {
		p, err := prepare(h.opt, false)
		if err != nil {
			h.prune.stop()
			return nil, err
		}
		h.tail, h.dir, h.opened, h.label = p.Tail, p.Env.Dir, p.Config, p.Provider.Label()
		from := uint64(math.MaxUint64)
		if len(h.tail) > 0 {
			from = h.tail[0].Seq
		}
		h.pending = openPending(p.open, from)
		h.events = h.pending.Events()
		h.startMCP(p.Config, p.Env, h.opt.project, p.Engine.SessionID)
		return h, nil
	}
	s, err := open(h.opt)
	if err != nil {
		h.prune.stop()
		return nil, err
	}
	h.cur, h.dir, h.events, h.label = s, s.Env.Dir, s.Events(), s.Provider.Label()
	h.startMCP(s.Config, s.Env, h.opt.project, s.Engine.SessionID)
	return h, nil
}

// Shown is what the first screen shows of a resumed session: its latest
// turns.
func (h *Handle) Shown() []event.Event { return h.tail }

// Dir is the session's working directory.
func (h *Handle) Dir() string { return h.dir }

// Events are the current session's events; after an operation that
// replaced the session, those of its replacement.
func (h *Handle) Events() <-chan event.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.events == nil {
		closed := make(chan event.Event)
		close(closed)
		return closed
	}
	return h.events
}

// Older delivers, once, the history of a resumed session before what
// Shown holds; nil for a session that was not resumed.
func (h *Handle) Older() <-chan []event.Event {
	if h.pending == nil {
		return nil
	}
	return h.pending.Older()
}

func (h *Handle) Submit(text string) { h.do(func(s *engine.Session) { s.Submit(text) }) }
func (h *Handle) SubmitCommand(command, text string) {
	h.do(func(s *engine.Session) { s.SubmitCommand(command, text) })
}
func (h *Handle) Cancel() { h.do(func(s *engine.Session) { s.Cancel() }) }
func (h *Handle) Answer(callID string, d event.Decision, reason string) {
	h.do(func(s *engine.Session) { s.Answer(callID, d, reason) })
}
func (h *Handle) Compact(focus string) { h.do(func(s *engine.Session) { s.Compact(focus) }) }

// do runs f on the current session, or queues it while the session is
// being replaced. It never blocks: the engine's commands are a mailbox.
func (h *Handle) do(f func(*engine.Session)) {
	h.mu.Lock()
	if h.swapping {
		h.queued = append(h.queued, f)
		h.mu.Unlock()
		return
	}
	cur, pending := h.cur, h.pending
	h.mu.Unlock()
	switch {
	case cur != nil:
		f(cur.Session)
	case pending != nil:
		pending.do(f)
	}
}

// current is the running session, waiting for one still opening.
func (h *Handle) current(ctx context.Context) (*Opened, error) {
	h.mu.Lock()
	cur, pending := h.cur, h.pending
	h.mu.Unlock()
	if cur != nil {
		return cur, nil
	}
	if pending == nil {
		return nil, errors.New("no session is open")
	}
	select {
	case <-pending.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s, err := pending.Wait()
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	if h.cur == nil {
		h.cur = s
	}
	cur = h.cur
	h.mu.Unlock()
	return cur, nil
}

// hold starts a replacement: commands wait from now on.
func (h *Handle) hold() {
	h.mu.Lock()
	h.swapping = true
	h.mu.Unlock()
}

// release ends a replacement with next as the current session (nil: none
// is left) and delivers the commands that waited, in order.
func (h *Handle) release(next *Opened) {
	for {
		h.mu.Lock()
		queued := h.queued
		h.queued = nil
		if len(queued) == 0 {
			h.swapping = false
			h.cur, h.pending = next, nil
			h.events = nil
			if next != nil {
				h.events = next.Events()
			}
			h.mu.Unlock()
			return
		}
		h.mu.Unlock()
		if next != nil {
			for _, f := range queued {
				f(next.Session)
			}
		}
	}
}

// Close stops the current session (waiting for one still opening or
// being replaced) and the background prune, and closes the log: a
// session that never got a prompt is removed (Saved is then "").
func (h *Handle) Close() {
	h.ops.Lock()
	defer h.ops.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	if cur, err := h.current(context.Background()); err == nil {
		cur.Close()
		if cur.Writer != nil && !cur.Discarded {
			h.saved, h.saveErr = cur.Writer.ID(), cur.CloseErr
		}
		// The UI reads no more: the last events are drained (the session
		// has stopped, so they end), which lets the engine's and the
		// relay's goroutines that deliver them return.
		for range h.Events() {
		}
	}
	// After the session: its running calls to the servers are cancelled
	// by then.
	if m := h.manager(); m != nil {
		m.Close()
	}
	h.prune.stop()
}

// Saved is the id of the stored session after Close, or "" when nothing
// was kept (no store, or no prompt); err says when its last events could
// not be saved.
func (h *Handle) Saved() (id string, err error) {
	h.ops.Lock()
	defer h.ops.Unlock()
	return h.saved, h.saveErr
}

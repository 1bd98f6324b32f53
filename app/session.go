package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/provider"
	"github.com/quire-sh/quire/sandbox"
	"github.com/quire-sh/quire/tools"
)

// SessionOptions say which session to open and how.
type SessionOptions struct {
	Config  *Config
	Version string
	// Cwd is the working directory (default: the process's).
	Cwd string
	// Resume names a stored session to continue (an id or a unique
	// prefix); Continue picks the latest session of Cwd.
	Resume   string
	Continue bool
	// NoStore runs without persistence (the demo, tests).
	NoStore bool
	// Unattended denies calls that would need the user's approval (quire
	// exec), telling the model why.
	Unattended bool
}

// OpenedSession is a running engine session and what it was wired to.
type OpenedSession struct {
	*engine.Session
	*Prepared
}

// Close stops the session and closes its log.
func (s *OpenedSession) Close() {
	s.Session.Close()
	s.Prepared.Close()
}

// turnRecorder passes events to the store and keeps the checkpoints in
// step with the turns: it remembers the current turn, so the checkpoint
// hook (called from tool goroutines) knows which turn a file's snapshot
// belongs to, and it closes a turn's checkpoints when the turn ends, so a
// later /rewind can tell quire's writes from someone else's. The engine
// records TurnStarted before it runs any tool of that turn.
type turnRecorder struct {
	w    *store.Writer
	cps  *store.Checkpoints
	turn atomic.Int64
}

func (r *turnRecorder) Record(e event.Event, durable bool) error {
	switch e.Kind {
	case event.TurnStarted:
		r.turn.Store(int64(e.Turn))
	case event.TurnEnded:
		if err := r.cps.EndTurn(e.Turn); err != nil {
			return fmt.Errorf("closing the checkpoints of turn %d: %w", e.Turn, err)
		}
	}
	return r.w.Record(e, durable)
}

// Prepared is an engine configuration wired to its tools, sandbox, store
// and checkpoints, ready for engine.New, engine.Resume or engine.Exec.
type Prepared struct {
	Engine      engine.Config
	Store       *store.Store
	Writer      *store.Writer
	Checkpoints *store.Checkpoints
	// Prior holds the events of a resumed session; Tail only its latest
	// turns when the rest is still to be read (see open).
	Prior []event.Event
	Tail  []event.Event
	Env   *tools.Env
	// Provider is the provider and model the session talks to.
	Provider provider.Resolved
	// Discarded is set by Close when the session held no prompt and was
	// removed.
	Discarded bool
	closed    bool
}

// open starts the session: a new one, or a resumed one whose whole log is
// read now if prepare left it for later.
func (p *Prepared) open() (*OpenedSession, error) {
	if p.Prior == nil && p.Tail != nil {
		prior, err := p.Writer.ReadAll()
		if err != nil {
			p.Close()
			return nil, err
		}
		p.Prior = prior
	}
	var s *engine.Session
	var err error
	if p.Prior != nil {
		s, err = engine.Resume(p.Engine, p.Prior)
	} else {
		s, err = engine.New(p.Engine)
	}
	if err != nil {
		p.Close()
		return nil, err
	}
	return &OpenedSession{Session: s, Prepared: p}, nil
}

// closeKeeping closes the session's log and keeps the session even if it
// holds no prompt yet (a /model or /rewind switch reopens it by id).
func (p *Prepared) closeKeeping() {
	if p.Writer != nil && !p.closed {
		p.closed = true
		_ = p.Writer.Close()
	}
}

// Close closes the session's log; a session that never got a prompt is
// removed rather than left to clutter the listing.
func (p *Prepared) Close() {
	if p.Writer != nil && !p.closed {
		p.closed = true
		p.Discarded, _ = p.Writer.CloseDiscardingEmpty()
	}
}

// Prepare builds an engine configuration from the settings: the sandbox
// profile, the tools, the approval policy, the store (a new session, or a
// resumed one) and the checkpoint hook. Every way of running a session
// (interactive, headless, the demo) goes through it.
func Prepare(opt SessionOptions) (*Prepared, error) { return prepare(opt, true) }

// firstScreenTurns is how many of a resumed session's latest turns the
// first screen is built from before the rest of the log is decoded.
const firstScreenTurns = 3

// prepare is Prepare; without loadPrior a resumed session's log is not
// decoded yet: Tail holds its latest turns, and open decodes the rest.
func prepare(opt SessionOptions, loadPrior bool) (*Prepared, error) {
	cfg := opt.Config
	cwd := opt.Cwd
	if cwd == "" {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("finding the working directory: %w", err)
		}
	}
	// The provider is resolved before anything is created on disk: an
	// unknown provider or a missing key stores nothing. A resumed session
	// is resolved once its log is open, since it goes on with its own
	// model unless one is named.
	settings := cfg.ProviderSettings(os.Getenv)
	resuming := opt.Resume != "" || opt.Continue
	var res provider.Resolved
	if !resuming || opt.NoStore {
		var err error
		if res, err = provider.Resolve(settings); err != nil {
			return nil, err
		}
	}
	profile, err := sandbox.ProfileByName(cfg.Sandbox, cwd)
	if err != nil {
		return nil, err
	}
	env, err := tools.NewEnv(cwd, profile)
	if err != nil {
		return nil, err
	}
	policy, err := tools.NewPolicy(cfg.Approval)
	if err != nil {
		return nil, err
	}
	p := &Prepared{Env: env, Engine: engine.Config{
		Tools:        tools.NewRegistry(tools.Builtin()...),
		Env:          env,
		Approver:     policy,
		Unattended:   opt.Unattended,
		Version:      opt.Version,
		Sandbox:      cfg.Sandbox,
		ApprovalMode: cfg.Approval,
	}}
	if opt.NoStore {
		if resuming {
			return nil, errors.New("resuming needs the session store")
		}
		p.use(res, cfg)
		return p, nil
	}
	st, err := store.Open(StateDir(os.Getenv), store.Options{Retention: time.Duration(cfg.RetentionDays) * 24 * time.Hour})
	if err != nil {
		return nil, err
	}
	p.Store = st
	// Retention is lazy: each run removes sessions idle for longer than
	// retention_days in the background (never a running one, never one
	// touched in the last hour); Prune is safe to interrupt.
	go func() { _, _ = st.Prune(context.Background()) }()
	var w *store.Writer
	switch {
	case opt.Resume != "" || opt.Continue:
		id := opt.Resume
		if opt.Continue {
			sum, err := st.Latest(context.Background(), env.Dir)
			if err != nil {
				return nil, fmt.Errorf("no session to continue in %s: %w", env.Dir, err)
			}
			id = sum.ID
		} else if id, err = st.Resolve(id); err != nil {
			return nil, err
		}
		if w, err = st.Append(id); err != nil {
			return nil, err
		}
		if !modelNamed(cfg) {
			// The session goes on with the model it last used.
			if sum := w.Summary(); sum.Model != "" {
				settings.Model, settings.Provider = sum.Model, sum.Provider
				if sum.Provider == provider.Compatible {
					settings.Provider = ""
				}
			}
		}
		if res, err = provider.Resolve(settings); err != nil {
			w.Close()
			return nil, err
		}
		if loadPrior {
			if p.Prior, err = w.ReadAll(); err != nil {
				w.Close()
				return nil, err
			}
		} else if p.Tail, err = w.TailTurns(firstScreenTurns); err != nil {
			w.Close()
			return nil, err
		}
		p.Engine.SessionID = id
	default:
		id := store.NewID(time.Now())
		if w, err = st.Create(id, env.Dir); err != nil {
			return nil, err
		}
		p.Engine.SessionID = id
	}
	p.use(res, cfg)
	p.Writer = w
	cps := w.Checkpoints(env.Dir)
	p.Checkpoints = cps
	rec := &turnRecorder{w: w, cps: cps}
	env.BeforeWrite = func(path string) error {
		return cps.BeforeWrite(int(rec.turn.Load()), path)
	}
	p.Engine.Recorder = rec
	return p, nil
}

// use wires the resolved provider and model into the engine
// configuration: its Sampler, its window (cfg's context_window where the
// catalog knows none), its prices.
func (p *Prepared) use(res provider.Resolved, cfg *Config) {
	window := res.ContextWindow()
	if window == 0 {
		window = cfg.ContextWindow
	}
	p.Provider = res
	p.Engine.Model, p.Engine.Provider = res.Model.ID, res.Name
	p.Engine.Sampler, p.Engine.Cost, p.Engine.ContextWindow = res.Sampler(llm.TransportConfig{}), res.Model.Cost, window
}

// modelNamed reports whether the configuration names a model or provider
// (a flag, the environment, config.toml, /model) rather than leaving it
// to the default.
func modelNamed(cfg *Config) bool {
	return cfg.Source["model"] != "default" || cfg.Source["provider"] != "default"
}

// OpenSession prepares a session and starts it (resuming when asked).
func OpenSession(opt SessionOptions) (*OpenedSession, error) {
	p, err := Prepare(opt)
	if err != nil {
		return nil, err
	}
	return p.open()
}

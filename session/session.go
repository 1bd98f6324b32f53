package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/llm/chat"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/tools"
)

// Options say which session to open and how.
type Options struct {
	Config  *config.Config
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

	// store, when set, is the store to use (a Handle's, shared by the
	// sessions it switches between); otherwise prepare opens one and
	// prunes it in the background.
	store *store.Store
	// registry, when set, is the tool registry to use: a Handle's, which
	// its MCP servers fill and every session it switches to shares.
	registry *tools.Registry
}

// Opened is a running engine session and what it was wired to.
type Opened struct {
	*engine.Session
	*Prepared
}

// Close stops the session and closes its log.
func (s *Opened) Close() {
	s.Session.Close()
	s.Prepared.Close()
}

// turnRecorder passes events to the store and keeps the checkpoints in
// step with the turns: it closes a turn's checkpoints when the turn ends,
// so a later /rewind can tell quire's writes from someone else's. (The
// checkpoint hook gets each write's turn from the tool call itself.)
type turnRecorder struct {
	w   *store.Writer
	cps *store.Checkpoints
}

func (r *turnRecorder) Record(e event.Event, durable bool) error {
	switch e.Kind {
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
	// Discarded is set by Close when the session held no prompt and was
	// removed.
	Discarded bool
	closed    bool
	// prune is the store's background prune when this Prepared opened the
	// store; Close stops it and waits.
	prune *pruner
}

// open starts the session: a new one, or a resumed one whose whole log is
// read now if prepare left it for later.
func (p *Prepared) open() (*Opened, error) {
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
	return &Opened{Session: s, Prepared: p}, nil
}

// Close closes the session's log; a session that never got a prompt is
// removed rather than left to clutter the listing. A background prune
// this Prepared started is stopped and waited for.
func (p *Prepared) Close() {
	if p.Writer != nil && !p.closed {
		p.closed = true
		p.Discarded, _ = p.Writer.CloseDiscardingEmpty()
	}
	p.prune.stop()
}

// Prepare builds an engine configuration from the settings: the sandbox
// profile, the tools, the approval policy, the store (a new session, or a
// resumed one) and the checkpoint hook. Every way of running a session
// (interactive, headless, the demo) goes through it.
func Prepare(opt Options) (*Prepared, error) { return prepare(opt, true) }

// firstScreenTurns is how many of a resumed session's latest turns the
// first screen is built from before the rest of the log is decoded.
const firstScreenTurns = 3

// prepare is Prepare; without loadPrior a resumed session's log is not
// decoded yet: Tail holds its latest turns, and open decodes the rest.
func prepare(opt Options, loadPrior bool) (*Prepared, error) {
	cwd := opt.Cwd
	if cwd == "" {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("finding the working directory: %w", err)
		}
	}
	env, err := newEnv(opt.Config, cwd)
	if err != nil {
		return nil, err
	}
	ecfg, err := engineConfig(opt, env)
	if err != nil {
		return nil, err
	}
	p := &Prepared{Env: env, Engine: ecfg}
	if opt.NoStore {
		if opt.Resume != "" || opt.Continue {
			return nil, errors.New("resuming needs the session store")
		}
		return p, nil
	}
	st := opt.store
	if st == nil {
		if st, err = openStore(opt.Config); err != nil {
			return nil, err
		}
		p.prune = startPrune(st)
	}
	p.Store = st
	fail := func(err error) (*Prepared, error) {
		p.prune.stop()
		return nil, err
	}
	var w *store.Writer
	switch {
	case opt.Resume != "" || opt.Continue:
		id := opt.Resume
		if opt.Continue {
			sum, err := st.Latest(context.Background(), env.Dir)
			if err != nil {
				return fail(fmt.Errorf("no session to continue in %s: %w", env.Dir, err))
			}
			id = sum.ID
		} else if id, err = st.Resolve(id); err != nil {
			return fail(err)
		}
		if w, err = st.Append(id); err != nil {
			return fail(err)
		}
		if loadPrior {
			if p.Prior, err = w.ReadAll(); err != nil {
				w.Close()
				return fail(err)
			}
		} else if p.Tail, err = w.TailTurns(firstScreenTurns); err != nil {
			w.Close()
			return fail(err)
		}
		p.Engine.SessionID = id
	default:
		id := store.NewID(time.Now())
		if w, err = st.Create(id, env.Dir); err != nil {
			return fail(err)
		}
		p.Engine.SessionID = id
	}
	p.Writer = w
	cps := w.Checkpoints(env.Dir)
	p.Checkpoints = cps
	env.BeforeWrite = cps.BeforeWrite
	p.Engine.Recorder = &turnRecorder{w: w, cps: cps}
	return p, nil
}

// newEnv is what the tools run in: the working directory under the
// configured sandbox profile (a built-in one, or a custom one of the
// [sandbox] table).
func newEnv(cfg *config.Config, cwd string) (*tools.Env, error) {
	profile, err := cfg.SandboxSettings.Profile(cfg.Sandbox, cwd)
	if err != nil {
		return nil, err
	}
	return tools.NewEnv(cwd, profile)
}

// engineConfig is the one place an engine configuration is built from the
// settings: the model and its transport, the tools and the approval
// policy. The store's recorder and the session id are added by prepare;
// /model builds the configuration of the next model here too.
func engineConfig(opt Options, env *tools.Env) (engine.Config, error) {
	cfg := opt.Config
	if cfg.BaseURL == "" {
		return engine.Config{}, errors.New("no API base URL: set OPENAI_BASE_URL, or base_url in config.toml")
	}
	policy, err := tools.NewPolicy(cfg.Approval)
	if err != nil {
		return engine.Config{}, err
	}
	// The hints name this program's key and flags: the protocol package
	// cannot know them.
	sampler := chat.New(chat.Config{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, TransportConfig: llm.TransportConfig{
		Hints: map[llm.Kind]string{llm.KindAuth: "check OPENAI_API_KEY", llm.KindModelNotFound: "check --model or QUIRE_MODEL"},
	}})
	return engine.Config{
		Model:         cfg.Model,
		Sampler:       sampler,
		ContextWindow: cfg.ContextWindow,
		Tools:         registry(opt),
		Env:           env,
		Approver:      policy,
		Unattended:    opt.Unattended,
		Version:       opt.Version,
		Sandbox:       cfg.Sandbox,
		ApprovalMode:  cfg.Approval,
	}, nil
}

// registry is the handle's shared registry, or a new one holding the
// built-in tools.
func registry(opt Options) *tools.Registry {
	if opt.registry != nil {
		return opt.registry
	}
	return tools.NewRegistry(tools.Builtin()...)
}

// openStore opens the session store in the state dir.
func openStore(cfg *config.Config) (*store.Store, error) {
	return store.Open(config.StateDir(os.Getenv), store.Options{Retention: time.Duration(cfg.RetentionDays) * 24 * time.Hour})
}

// pruner is the store's background prune. Retention is lazy: each run
// removes sessions idle for longer than retention_days (never a running
// one, never one touched in the last hour). Prune is safe to interrupt,
// so stopping cancels it and waits for it to return.
type pruner struct {
	cancel context.CancelFunc
	done   chan struct{}
}

func startPrune(st *store.Store) *pruner {
	ctx, cancel := context.WithCancel(context.Background())
	p := &pruner{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		_, _ = st.Prune(ctx)
	}()
	return p
}

// stop cancels the prune and waits for it; a nil pruner is a no-op.
func (p *pruner) stop() {
	if p == nil {
		return
	}
	p.cancel()
	<-p.done
}

// open prepares a session and starts it (resuming when asked).
func open(opt Options) (*Opened, error) {
	p, err := Prepare(opt)
	if err != nil {
		return nil, err
	}
	return p.open()
}

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
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/ext/hooks"
	"github.com/quire-sh/quire/provider"
	"github.com/quire-sh/quire/redact"
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
	// AskTrust says the user will be asked about the project's files
	// that are not trusted yet (an interactive session: Handle's
	// TrustQuestion); otherwise the session says they were left out and
	// how to trust them.
	AskTrust bool

	// project is the project's files as the Handle found them; prepare
	// scans them when it is nil.
	project *Project

	// store, when set, is the store to use (a Handle's, shared by the
	// sessions it switches between); otherwise prepare opens one and
	// prunes it in the background.
	store *store.Store
	// ext, when set, are the skills and commands found already (a
	// Handle's); otherwise prepare finds them.
	ext *extensions
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
	err := r.w.Record(e, durable)
	if e.Kind == event.TurnEnded {
		// The event is kept even when its checkpoints cannot be closed.
		if cerr := r.cps.EndTurn(e.Turn); cerr != nil && err == nil {
			err = fmt.Errorf("closing the checkpoints of turn %d: %w", e.Turn, cerr)
		}
	}
	return err
}

// Flush commits every event recorded so far; quire exec calls it before
// it reports success.
func (r *turnRecorder) Flush() error { return r.w.Flush() }

// Prepared is an engine configuration wired to its tools, sandbox, store
// and checkpoints, ready for engine.New, engine.Resume or engine.Exec.
type Prepared struct {
	// Config is the effective configuration: the one given, with the
	// project's trusted settings laid over it.
	Config      *config.Config
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
	// ext are the skills and commands the session was wired with.
	ext *extensions
	// project is the project's files the session was wired with.
	project *Project
	// notices are what the wiring found to tell the user when the
	// session starts.
	notices []engine.Notice
	// Discarded is set by Close when the session held no prompt and was
	// removed.
	Discarded bool
	// CloseErr is set by Close when the session's last events could not
	// be saved.
	CloseErr error
	closed   bool
	// prune is the store's background prune when this Prepared opened the
	// store; Close stops it and waits.
	prune *pruner
	// hooks runs the session's hooks (nil: there are none); Close waits
	// for the last observed events' hooks.
	hooks *hooks.Runner
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
		p.Discarded, p.CloseErr = p.Writer.CloseDiscardingEmpty()
	}
	if p.hooks != nil {
		p.hooks.Close()
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
	cwd, err := workingDir(opt)
	if err != nil {
		return nil, err
	}
	proj := opt.project
	if proj == nil {
		scanned := ScanProject(cwd, TrustStore())
		proj = &scanned
	}
	wired := wire(opt.Config, proj, opt.AskTrust, os.Getenv)
	opt.Config = wired.cfg
	env, err := newEnv(opt.Config, cwd)
	if err != nil {
		return nil, err
	}
	if opt.ext == nil {
		opt.ext = discoverExtensions(opt.Config, env.Dir)
	}
	// The provider is resolved before anything is created on disk: an
	// unknown provider or a missing key stores nothing. A resumed session
	// is resolved once its log is open, since it goes on with its own
	// model unless one is named.
	settings := opt.Config.ProviderSettings(os.Getenv)
	resuming := opt.Resume != "" || opt.Continue
	p := &Prepared{Config: wired.cfg, Env: env, ext: opt.ext, project: proj, notices: wired.notices}
	if wired.hooks.Len() > 0 {
		p.hooks = hooks.NewRunner(wired.hooks, hooks.Options{})
	}
	if !resuming || opt.NoStore {
		if err := p.configure(opt, settings); err != nil {
			p.Close()
			return nil, err
		}
	}
	if opt.NoStore {
		if resuming {
			p.Close()
			return nil, errors.New("resuming needs the session store")
		}
		p.Engine.Subagents = newSpawner(opt.Config, nil, env.Dir, os.Getenv)
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
		p.Close()
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
		if !modelNamed(opt.Config) {
			// The session goes on with the model it last used.
			if sum := w.Summary(); sum.Model != "" {
				settings.Model, settings.Provider = sum.Model, sum.Provider
				if sum.Provider == provider.Compatible {
					settings.Provider = ""
				}
			}
		}
		if err := p.configure(opt, settings); err != nil {
			w.Close()
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
	p.Engine.Subagents = newSpawner(opt.Config, st, env.Dir, os.Getenv)
	cps := w.Checkpoints(env.Dir, env.Writer)
	p.Checkpoints = cps
	env.BeforeWrite = cps.BeforeWrite
	p.Engine.Recorder = &turnRecorder{w: w, cps: cps}
	return p, nil
}

// configure resolves the provider of settings and builds the engine's
// configuration for it.
func (p *Prepared) configure(opt Options, settings provider.Settings) error {
	res, err := provider.Resolve(settings)
	if err != nil {
		return err
	}
	ecfg, err := engineConfig(opt, p.Env, res)
	if err != nil {
		return err
	}
	// What the wiring found (a project file left out, a broken
	// hooks.json, a skipped skill) is said once per session, when it
	// starts.
	ecfg.Notices = append(ecfg.Notices, p.notices...)
	if opt.ext != nil {
		for _, n := range opt.ext.notices {
			ecfg.Notices = append(ecfg.Notices, engine.Notice{Level: "warn", Text: n})
		}
	}
	if p.hooks != nil {
		ecfg.Hooks = p.hooks
	}
	p.Engine, p.Provider = ecfg, res
	return nil
}

// modelNamed reports whether the configuration names a model or provider
// (a flag, the environment, config.toml, /model) rather than leaving it
// to the default.
// transportConfig is what the settings say of reading a model's stream:
// streamed text is delivered at most once per frame interval (a screen
// draws no more often), so a fast stream wakes quire once per frame
// rather than once per event.
func transportConfig(cfg *config.Config) llm.TransportConfig {
	return llm.TransportConfig{Coalesce: cfg.DrawInterval}
}

func modelNamed(cfg *config.Config) bool {
	return cfg.Source["model"] != "default" || cfg.Source["provider"] != "default"
}

// workingDir is the session's working directory: opt.Cwd, or the
// process's.
func workingDir(opt Options) (string, error) {
	if opt.Cwd != "" {
		return opt.Cwd, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding the working directory: %w", err)
	}
	return cwd, nil
}

// newEnv is what the tools run in: the working directory under the
// configured sandbox profile (a built-in one, or a custom one of the
// [sandbox] table), which keeps every provider's key variable from
// commands.
func newEnv(cfg *config.Config, cwd string) (*tools.Env, error) {
	profile, err := cfg.SandboxProfile(cwd)
	if err != nil {
		return nil, err
	}
	return tools.NewEnv(cwd, profile)
}

// engineConfig is the one place an engine configuration is built from the
// settings: the resolved provider's model, transport, window and prices,
// the tools and the approval policy. The store's recorder and the session
// id are added by prepare; /model builds the configuration of the next
// model here too.
func engineConfig(opt Options, env *tools.Env, res provider.Resolved) (engine.Config, error) {
	cfg := opt.Config
	policy, err := tools.NewPolicy(cfg.Approval)
	if err != nil {
		return engine.Config{}, err
	}
	var instructions []string
	if opt.ext != nil {
		instructions = append(instructions, opt.ext.catalog.Prompt())
	}
	// The catalog's window for the model; context_window where the
	// catalog knows none.
	window := res.ContextWindow()
	if window == 0 {
		window = cfg.ContextWindow
	}
	ecfg := engine.Config{
		Model:          res.Model.ID,
		Provider:       res.Name,
		Sampler:        res.Sampler(transportConfig(cfg)),
		Cost:           res.Model.Cost,
		ContextWindow:  window,
		CompactPercent: cfg.CompactPercent,
		Tools:          registry(opt),
		Instructions:   instructions,
		Env:            env,
		Approver:       policy,
		Unattended:     opt.Unattended,
		Version:        opt.Version,
		Sandbox:        cfg.Sandbox,
		ApprovalMode:   cfg.Approval,
	}
	if cfg.RedactToolOutput {
		// The rules without the home directory: the model needs real paths.
		ecfg.ToolOutput = redact.New("").String
	}
	return ecfg, nil
}

// registry is the handle's shared registry, or a new one holding the
// tools every session has.
func registry(opt Options) *tools.Registry {
	if opt.registry != nil {
		return opt.registry
	}
	return newRegistry(opt.ext)
}

// newRegistry holds the tools every session has, which belong to no
// source that comes and goes: the built-ins and, with the skills found,
// load_skill. MCP servers add and replace groups of their own.
func newRegistry(ext *extensions) *tools.Registry {
	all := tools.Builtin()
	if ext != nil {
		all = append(all, ext.catalog.LoadTool())
	}
	return tools.NewRegistry(all...)
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

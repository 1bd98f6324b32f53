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
}

// OpenedSession is an engine session wired to its tools, sandbox, store
// and checkpoints.
type OpenedSession struct {
	*engine.Session
	Store       *store.Store
	Writer      *store.Writer
	Checkpoints *store.Checkpoints
	// Prior holds the events of a resumed session, for the transcript.
	Prior []event.Event
	Env   *tools.Env
}

// Close stops the session and closes its log.
func (s *OpenedSession) Close() {
	s.Session.Close()
	if s.Writer != nil {
		_ = s.Writer.Close()
	}
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

// OpenSession builds an engine session from the configuration: the
// sandbox profile, the tools, the approval policy, the store (a new
// session, or a resumed one) and the checkpoint hook.
func OpenSession(opt SessionOptions) (*OpenedSession, error) {
	cfg := opt.Config
	cwd := opt.Cwd
	if cwd == "" {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("finding the working directory: %w", err)
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
	ecfg := engine.Config{
		Model:         cfg.Model,
		LLM:           llm.Config{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey},
		ContextWindow: cfg.ContextWindow,
		Tools:         tools.NewRegistry(tools.Builtin()...),
		Env:           env,
		Approver:      policy,
		Version:       opt.Version,
		Sandbox:       cfg.Sandbox,
		ApprovalMode:  cfg.Approval,
	}
	out := &OpenedSession{Env: env}
	if opt.NoStore {
		if opt.Resume != "" || opt.Continue {
			return nil, errors.New("resuming needs the session store")
		}
		s, err := engine.New(ecfg)
		if err != nil {
			return nil, err
		}
		out.Session = s
		return out, nil
	}

	st, err := store.Open(StateDir(os.Getenv), store.Options{})
	if err != nil {
		return nil, err
	}
	out.Store = st
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
		prior, err := w.ReadAll()
		if err != nil {
			w.Close()
			return nil, err
		}
		out.Prior = prior
		ecfg.SessionID = id
	default:
		id := store.NewID(time.Now())
		if w, err = st.Create(id, env.Dir); err != nil {
			return nil, err
		}
		ecfg.SessionID = id
	}
	out.Writer = w
	cps := w.Checkpoints(env.Dir)
	rec := &turnRecorder{w: w, cps: cps}
	out.Checkpoints = cps
	env.BeforeWrite = func(path string) error {
		return cps.BeforeWrite(int(rec.turn.Load()), path)
	}
	ecfg.Recorder = rec
	var s *engine.Session
	if out.Prior != nil {
		s, err = engine.Resume(ecfg, out.Prior)
	} else {
		s, err = engine.New(ecfg)
	}
	if err != nil {
		w.Close()
		return nil, err
	}
	out.Session = s
	return out, nil
}

package session

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"strings"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/engine"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/provider"
)

// The operations below carry out the /commands that replace the running
// session: /model continues this one with another model, /clear starts a
// new one, /rewind forks it at an earlier prompt and puts files back. A
// replacement is opened before the running session is given up where
// that is possible (/clear, /rewind); /model, which must stop the session
// to continue its log, starts it again with the old model if the new one
// does not start. Either way a failed switch leaves a session running and
// says why.

// errNoStore is the answer of the operations that need the log.
var errNoStore = errors.New("this session is not stored (the demo keeps none), so it cannot be switched, rewound or exported")

// SwitchModel continues the session with another model: the session
// stops, and starts again on the same log with the new model, keeping
// what was approved for the session.
func (h *Handle) SwitchModel(ctx context.Context, model string) (app.Switched, error) {
	h.ops.Lock()
	defer h.ops.Unlock()
	cur, err := h.current(ctx)
	if err != nil {
		return app.Switched{}, err
	}
	if cur.Writer == nil {
		return app.Switched{}, errNoStore
	}
	// /model [PROVIDER/]MODEL: a model of this provider, or of the one
	// named. An unusable provider is refused before the session is
	// touched. The effective configuration (the project's settings in
	// it) runs the next engine; the one given stays the base later
	// sessions of this handle start from.
	base, eff := *h.opt.Config, *cur.Config
	src := maps.Clone(eff.Source)
	if src == nil {
		src = map[string]string{}
	}
	src["model"], src["provider"] = "/model", "/model"
	eff.Source = src
	if p, m := provider.SplitModel(model, eff.ProviderSettings(os.Getenv)); p != "" {
		eff.Provider, eff.Model = p, m
	} else {
		eff.Provider = ""
		if name := cur.Provider.Name; name != provider.Compatible {
			eff.Provider = name
		}
		eff.Model = model
	}
	base.Provider, base.Model = eff.Provider, eff.Model
	res, err := provider.Resolve(eff.ProviderSettings(os.Getenv))
	if err != nil {
		return app.Switched{}, err
	}
	opt := h.opt
	opt.Config = &eff
	next, err := engineConfig(opt, cur.Env, res)
	if err != nil {
		return app.Switched{}, fmt.Errorf("switching to %s: %w", model, err)
	}
	next.SessionID, next.Recorder = cur.Engine.SessionID, cur.Engine.Recorder
	next.Approver = cur.Engine.Approver // "yes for this session" holds across models
	next.Hooks = cur.Engine.Hooks
	next.Subagents = cur.Engine.Subagents
	h.hold()
	cur.Session.Close()
	prior, err := cur.Writer.ReadAll()
	var s *engine.Session
	if err == nil {
		s, err = engine.Resume(next, prior)
	}
	if err != nil {
		err = fmt.Errorf("switching to %s: %w", model, err)
		if prior == nil {
			h.release(nil)
			return app.Switched{}, fmt.Errorf("%w; the session could not be read back either: quit and run quire resume %s", err, cur.Writer.ID())
		}
		back, berr := engine.Resume(cur.Engine, prior)
		if berr != nil {
			h.release(nil)
			return app.Switched{}, fmt.Errorf("%w; and the session did not start again: %v", err, berr)
		}
		h.release(&Opened{Session: back, Prepared: cur.Prepared})
		return app.Switched{}, err
	}
	cur.Prepared.Engine, cur.Prepared.Provider = next, res
	cur.Prepared.Config = &eff
	h.opt.Config, h.label = &base, res.Label()
	h.release(&Opened{Session: s, Prepared: cur.Prepared})
	// What the new model cannot take of the history is said, not dropped
	// silently.
	notice := "model: " + res.Label()
	if dropped := res.ReasoningNotice(engine.ReasoningStates(s.History())); dropped != "" {
		notice += "; " + dropped
	}
	return app.Switched{Notice: notice}, nil
}

// Clear starts a new session in place of this one, which is kept if it
// holds a prompt.
func (h *Handle) Clear(ctx context.Context) (app.Switched, error) {
	h.ops.Lock()
	defer h.ops.Unlock()
	cur, err := h.current(ctx)
	if err != nil {
		return app.Switched{}, err
	}
	if cur.Writer == nil {
		return app.Switched{}, errNoStore
	}
	opt := h.opt
	opt.Resume, opt.Continue = "", false
	next, err := open(opt)
	if err != nil {
		return app.Switched{}, fmt.Errorf("starting a new session: %w", err)
	}
	h.replace(cur, next)
	return app.Switched{Notice: "new session " + next.Writer.ID(), Rebuild: true}, nil
}

// replace gives up cur for next, which is running already.
func (h *Handle) replace(cur, next *Opened) {
	h.hold()
	cur.Close()
	h.release(next)
}

// Sessions lists the stored sessions, newest first, leaving out the
// child sessions of task calls.
func (h *Handle) Sessions(ctx context.Context) ([]app.SessionSummary, error) {
	if h.st == nil {
		return nil, errors.New("there is no session store")
	}
	list, err := h.st.List(ctx, store.ListOptions{})
	if err != nil {
		return nil, err
	}
	out := make([]app.SessionSummary, 0, len(list.Sessions))
	for _, s := range list.Sessions {
		if s.Parent != "" {
			continue // a subagent's session: quire sessions lists it under its parent
		}
		out = append(out, app.SessionSummary{ID: s.ID, LastActive: s.LastActive, Turns: s.Turns, Title: s.Title})
	}
	return out, nil
}

// Export writes the session's JSONL transcript to path, or to
// quire-<id>.jsonl in the working directory.
func (h *Handle) Export(ctx context.Context, path string) (string, error) {
	h.ops.Lock()
	defer h.ops.Unlock()
	cur, err := h.current(ctx)
	if err != nil {
		return "", err
	}
	return exportSession(cur, path)
}

// Rewind goes back to before prompt n (0: the last one): what is
// "conversation" (the log is forked there and the fork continues),
// "files" (the files quire changed since are put back) or "both".
func (h *Handle) Rewind(ctx context.Context, n int, what string) (app.Switched, error) {
	h.ops.Lock()
	defer h.ops.Unlock()
	cur, err := h.current(ctx)
	if err != nil {
		return app.Switched{}, err
	}
	w := cur.Writer
	if w == nil {
		return app.Switched{}, errNoStore
	}
	switch what {
	case "", "both":
		what = "both"
	case "conversation", "files":
	default:
		return app.Switched{}, fmt.Errorf("/rewind takes conversation, files or both, not %q", what)
	}
	events, err := w.ReadAll()
	if err != nil {
		return app.Switched{}, err
	}
	var prompts []event.Event
	for _, e := range events {
		if e.Kind == event.UserMessage {
			prompts = append(prompts, e)
		}
	}
	if len(prompts) == 0 {
		return app.Switched{}, errors.New("no prompt to rewind to yet")
	}
	if n < 0 || n > len(prompts) {
		return app.Switched{}, fmt.Errorf("/rewind %d: this session has prompts 1 to %d", n, len(prompts))
	}
	if n == 0 {
		n = len(prompts)
	}
	target := prompts[n-1]
	var notes []string
	if what != "conversation" {
		rep, err := cur.Checkpoints.Rewind(target.Turn, store.RewindOptions{Apply: true})
		if err != nil {
			return app.Switched{}, fmt.Errorf("restoring files: %w", err)
		}
		restored := 0
		for _, f := range rep.Files {
			if f.Applied {
				restored++
			}
		}
		notes = append(notes, fmt.Sprintf("%d files restored", restored))
		if c := rep.Conflicts(); len(c) > 0 {
			var names []string
			for _, f := range c {
				names = append(names, f.Path+" ("+string(f.Conflict)+")")
			}
			notes = append(notes, "left alone, changed by someone else: "+strings.Join(names, ", "))
		}
	}
	if what == "files" {
		return app.Switched{Notice: strings.Join(notes, "; ")}, nil
	}
	fork, err := w.Fork(target.Seq - 1)
	if err != nil {
		return app.Switched{}, fmt.Errorf("forking the conversation: %w", err)
	}
	forkID := fork.ID()
	if err := fork.Close(); err != nil {
		return app.Switched{}, err
	}
	opt := h.opt
	opt.Resume, opt.Continue = forkID, false
	next, err := open(opt)
	if err != nil {
		return app.Switched{}, fmt.Errorf("opening the rewound session %s: %w", forkID, err)
	}
	h.replace(cur, next)
	notes = append([]string{fmt.Sprintf("rewound to before prompt %d (new session %s)", n, forkID)}, notes...)
	return app.Switched{Notice: strings.Join(notes, "; "), Rebuild: true, Prior: next.Prior, Prompt: target.Typed()}, nil
}

package session

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/ext/mcp"
	"github.com/quire-sh/quire/trust"
)

// The session starts with the project's files that are not trusted yet
// left out, so the first screen and the prompt editor never wait for the
// question. The app asks it first thing (TrustQuestion) and holds the
// first prompt back until it is answered. A yes records the files'
// content as trusted and restarts the session with them, so everything
// they set applies at once: before any prompt a new session takes the
// place of the empty one; a resumed session starts again on its log
// (as /model does). A project's theme is the one exception: the screen
// is already drawn, so it shows from the next start.

// TrustQuestion is the question about the project's files that are not
// trusted yet, or nil when there is none (or the user was not to be
// asked, or has answered).
func (h *Handle) TrustQuestion() *app.TrustQuestion {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.question
}

// question is the app's question about the undecided files of p.
// What a yes does, said under the question: a theme is chosen before the
// first frame, so a project's theme waits for the next start.
const (
	appliesNow        = "Yes applies them at once."
	appliesThemeLater = "Yes applies them at once (a theme from the next start)."
)

func question(p *Project) *app.TrustQuestion {
	if p.Err != nil {
		return nil
	}
	q := &app.TrustQuestion{Project: p.Dir}
	sets := map[string]bool{}
	for _, f := range p.Files {
		if f.Decision != trust.Unknown {
			continue
		}
		tf := app.TrustFile{Name: f.Name, What: f.What, Content: string(f.Content), Before: string(p.Before[f.Name])}
		if f.Summary != nil {
			tf.Summary = f.Summary(f.Content)
		}
		q.Files = append(q.Files, tf)
		sets[f.Name] = true
	}
	if len(q.Files) == 0 {
		return nil
	}
	q.Applies = appliesNow
	if f, ok := p.file(config.ProjectFile); ok && sets[config.ProjectFile] && config.ProjectGives(f.Content, "theme") {
		q.Applies = appliesThemeLater
	}
	return q
}

// AnswerTrust records the user's answer to TrustQuestion: yes trusts the
// files' content as it was shown and restarts the session with them; no
// declines it (quire will not ask again until it changes); later records
// nothing. It blocks: the UI calls it off its loop.
func (h *Handle) AnswerTrust(ctx context.Context, a app.TrustAnswer) (app.Switched, error) {
	h.ops.Lock()
	defer h.ops.Unlock()
	h.mu.Lock()
	q := h.question
	h.question = nil
	h.mu.Unlock()
	p := h.opt.project
	if q == nil || p == nil {
		return app.Switched{}, errors.New("there is no question about the project's files to answer")
	}
	var names []string
	for _, f := range q.Files {
		names = append(names, f.Name)
	}
	list := strings.Join(names, ", ")
	switch a {
	case app.TrustLater:
		return app.Switched{Notice: fmt.Sprintf("not using %s this time; quire asks again next start (or run quire trust)", list)}, nil
	case app.TrustNo:
		if err := h.decide(p, trust.Declined); err != nil {
			return app.Switched{}, err
		}
		next := p.withDecision(trust.Unknown, trust.Declined)
		h.opt.project = &next
		return app.Switched{Notice: fmt.Sprintf("declined %s: quire will not use or ask about them until they change", list)}, nil
	}
	if err := h.decide(p, trust.Trusted); err != nil {
		return app.Switched{}, err
	}
	before := *p
	next := p.withDecision(trust.Unknown, trust.Trusted)
	h.opt.project = &next
	// The MCP servers start again too when what they are started from
	// changed (the project's servers, its settings such as the sandbox),
	// for the session that runs once this is over.
	servers := sets(q, mcp.ProjectFile) || sets(q, config.ProjectFile)
	if servers {
		h.stopMCP()
	}
	r, err := h.restart(ctx, &before)
	if err != nil {
		h.opt.project = &before
	}
	if servers {
		if cur, cerr := h.current(ctx); cerr == nil {
			h.startMCP(cur.Config, cur.Env, h.opt.project, cur.Engine.SessionID)
		}
	}
	if err != nil {
		return app.Switched{}, fmt.Errorf("trusted %s, but the session did not start with them: %w", list, err)
	}
	r.Notice = fmt.Sprintf("trusted %s; they apply now", list)
	if q.Applies == appliesThemeLater {
		r.Notice += " (the theme from the next start)"
	}
	return r, nil
}

// sets reports whether the question is about the named file.
func sets(q *app.TrustQuestion, name string) bool {
	for _, f := range q.Files {
		if f.Name == name {
			return true
		}
	}
	return false
}

// decide records d for every file of p not decided yet, with the content
// that was shown.
func (h *Handle) decide(p *Project, d trust.Decision) error {
	st := TrustStore()
	for _, f := range p.Files {
		if f.Decision != trust.Unknown {
			continue
		}
		if err := st.Decide(p.Dir, f.Name, f.Content, d); err != nil {
			return err
		}
	}
	return nil
}

// restart starts the session again with h.opt as it is now: a session
// that has no prompt yet is replaced by a new one (and, empty, is not
// kept); one with prompts starts again on its own log. If that fails the
// old one keeps running, or, when it had already stopped, starts again
// with the project as it was (prev).
func (h *Handle) restart(ctx context.Context, prev *Project) (app.Switched, error) {
	cur, err := h.current(ctx)
	if err != nil {
		return app.Switched{}, err
	}
	info := cur.Session.Info()
	if cur.Writer == nil || info.Turn == 0 && !info.Resumed {
		opt := h.opt
		opt.Resume, opt.Continue = "", false
		next, err := open(opt)
		if err != nil {
			return app.Switched{}, err
		}
		h.replace(cur, next)
		return app.Switched{Rebuild: true}, nil
	}
	id := cur.Writer.ID()
	h.hold()
	cur.Close()
	opt := h.opt
	opt.Resume, opt.Continue = id, false
	next, err := open(opt)
	if err != nil {
		// Back as it was: the decisions stay recorded, and apply from
		// the next start.
		back := opt
		back.project = prev
		s, berr := open(back)
		if berr != nil {
			h.release(nil)
			return app.Switched{}, fmt.Errorf("%w; and the session did not start again: %v (quit and run quire resume %s)", err, berr, id)
		}
		h.release(s)
		return app.Switched{Rebuild: true, Prior: s.Prior}, err
	}
	h.release(next)
	return app.Switched{Rebuild: true, Prior: next.Prior}, nil
}

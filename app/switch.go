package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/provider"
)

// sessionSwitcher carries out the /commands that replace the running
// session: /clear starts a new one, /model resumes this one with another
// model, /rewind forks it at an earlier prompt and puts files back, and
// /sessions lists the stored ones.
type sessionSwitcher struct {
	opt SessionOptions
	cur *OpenedSession
	// pending is a resumed session still opening; session waits for it.
	pending *pendingSession
}

// session returns the current session, waiting for one still opening.
func (s *sessionSwitcher) session() (*OpenedSession, error) {
	if s.cur == nil && s.pending != nil {
		cur, err := s.pending.Wait()
		if err != nil {
			return nil, err
		}
		s.cur, s.pending = cur, nil
	}
	if s.cur == nil {
		return nil, errors.New("no session is open")
	}
	return s.cur, nil
}

// close closes the current session (waiting for one still opening).
func (s *sessionSwitcher) close() {
	if c, err := s.session(); err == nil {
		c.Close()
	}
}

func (s *sessionSwitcher) slash(inv SlashInvocation) (SlashResult, error) {
	if _, err := s.session(); err != nil {
		return SlashResult{}, err
	}
	switch inv.Name {
	case "model":
		return s.model(inv.Args)
	case "clear":
		return s.clear()
	case "sessions":
		return s.sessions()
	case "rewind":
		return s.rewind(inv.Args)
	}
	return SlashResult{}, fmt.Errorf("/%s is not available here", inv.Name)
}

// reopen closes the current session and opens another in its place; if
// that fails the current one is reopened, so a failed switch never leaves
// quire without a session.
func (s *sessionSwitcher) reopen(opt SessionOptions) (*OpenedSession, error) {
	if s.cur.Writer == nil {
		return nil, errors.New("this session is not stored, so it cannot be switched")
	}
	id := s.cur.Writer.ID()
	// Keep the session even if it holds no prompt yet: /model and /rewind
	// reopen it by id.
	s.cur.Session.Close()
	s.cur.closeKeeping()
	next, err := OpenSession(opt)
	if err != nil {
		back := s.opt
		back.Resume, back.Continue = id, false
		if prev, perr := OpenSession(back); perr == nil {
			s.cur = prev
		}
		return nil, err
	}
	s.cur = next
	return next, nil
}

// model is /model [PROVIDER/]MODEL: the session goes on with another
// model, of this provider or of the one named; what the new one cannot
// take of the history (another protocol's reasoning) is said.
func (s *sessionSwitcher) model(args []string) (SlashResult, error) {
	if len(args) == 0 {
		return SlashResult{Notice: "model: " + s.cur.Provider.Label() + " (/model [PROVIDER/]MODEL switches; quire models lists them)"}, nil
	}
	cfg := *s.opt.Config
	cfg.Source = map[string]string{}
	for k, v := range s.opt.Config.Source {
		cfg.Source[k] = v
	}
	cfg.Source["model"], cfg.Source["provider"] = "/model", "/model"
	if p, m := provider.SplitModel(args[0], cfg.ProviderSettings(os.Getenv)); p != "" {
		cfg.Provider, cfg.Model = p, m
	} else {
		if cur := s.cur.Provider.Name; cur != provider.Compatible {
			cfg.Provider = cur
		}
		cfg.Model = args[0]
	}
	// Refuse an unusable provider before the session is touched.
	if _, err := provider.Resolve(cfg.ProviderSettings(os.Getenv)); err != nil {
		return SlashResult{}, err
	}
	opt := s.opt
	opt.Config = &cfg
	opt.Resume, opt.Continue = s.cur.Writer.ID(), false
	next, err := s.reopen(opt)
	if err != nil {
		return SlashResult{}, fmt.Errorf("switching to %s: %w", args[0], err)
	}
	s.opt.Config = &cfg
	notice := "model: " + next.Provider.Label()
	if dropped := next.Provider.ReasoningNotice(next.Session.History()); dropped != "" {
		notice += "; " + dropped
	}
	return SlashResult{Notice: notice, Session: next.Session}, nil
}

func (s *sessionSwitcher) clear() (SlashResult, error) {
	opt := s.opt
	opt.Resume, opt.Continue = "", false
	next, err := s.reopen(opt)
	if err != nil {
		return SlashResult{}, err
	}
	return SlashResult{Notice: "new session " + next.Writer.ID(), Session: next.Session, Rebuild: true}, nil
}

func (s *sessionSwitcher) sessions() (SlashResult, error) {
	if s.cur.Store == nil {
		return SlashResult{}, errors.New("there is no session store")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	list, err := s.cur.Store.List(ctx, store.ListOptions{})
	if err != nil {
		return SlashResult{}, err
	}
	lines := []string{"Sessions, newest first (quire resume ID continues one):", ""}
	for i, sum := range list.Sessions {
		if i == 30 {
			lines = append(lines, fmt.Sprintf("… and %d more: quire sessions lists them all", len(list.Sessions)-i))
			break
		}
		title := strings.ReplaceAll(sum.Title, "\n", " ")
		if len(title) > 50 {
			title = title[:50] + "…"
		}
		lines = append(lines, fmt.Sprintf("%-24s %-16s %3d turns  %s", sum.ID, sum.LastActive.Local().Format("Jan _2 15:04"), sum.Turns, title))
	}
	return SlashResult{Overlay: lines}, nil
}

// rewind is /rewind [N] [conversation|files|both]: go back to before
// prompt N (default: the last one).
func (s *sessionSwitcher) rewind(args []string) (SlashResult, error) {
	w := s.cur.Writer
	if w == nil {
		return SlashResult{}, errors.New("this session is not stored, so there is nothing to rewind to")
	}
	events, err := w.ReadAll()
	if err != nil {
		return SlashResult{}, err
	}
	var prompts []event.Event
	for _, e := range events {
		if e.Kind == event.UserMessage {
			prompts = append(prompts, e)
		}
	}
	if len(prompts) == 0 {
		return SlashResult{}, errors.New("no prompt to rewind to yet")
	}
	target := prompts[len(prompts)-1]
	mode := "both"
	for _, a := range args {
		if n, err := strconv.Atoi(a); err == nil {
			if n < 1 || n > len(prompts) {
				return SlashResult{}, fmt.Errorf("/rewind %d: this session has prompts 1 to %d", n, len(prompts))
			}
			target = prompts[n-1]
			continue
		}
		switch a {
		case "conversation", "files", "both":
			mode = a
		default:
			return SlashResult{}, fmt.Errorf("/rewind takes a prompt number and conversation, files or both, not %q", a)
		}
	}
	var notes []string
	if mode != "conversation" {
		rep, err := s.cur.Checkpoints.Rewind(target.Turn, store.RewindOptions{Apply: true})
		if err != nil {
			return SlashResult{}, fmt.Errorf("restoring files: %w", err)
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
	if mode == "files" {
		return SlashResult{Notice: strings.Join(notes, "; ")}, nil
	}
	fork, err := w.Fork(target.Seq - 1)
	if err != nil {
		return SlashResult{}, fmt.Errorf("forking the conversation: %w", err)
	}
	forkID := fork.ID()
	if err := fork.Close(); err != nil {
		return SlashResult{}, err
	}
	opt := s.opt
	opt.Resume, opt.Continue = forkID, false
	next, err := s.reopen(opt)
	if err != nil {
		return SlashResult{}, err
	}
	notes = append([]string{fmt.Sprintf("rewound to before prompt %d (new session %s)", indexOf(prompts, target)+1, forkID)}, notes...)
	return SlashResult{Notice: strings.Join(notes, "; "), Session: next.Session, Rebuild: true, Prior: next.Prior, Prompt: target.Text}, nil
}

func indexOf(prompts []event.Event, e event.Event) int {
	for i, p := range prompts {
		if p.Seq == e.Seq {
			return i
		}
	}
	return -1
}

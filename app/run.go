package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/markdown"
	"github.com/quire-sh/quire/redact"
	"github.com/quire-sh/quire/scrollback"
	"github.com/quire-sh/quire/term"
)

// RunOptions configure an interactive session.
type RunOptions struct {
	SessionOptions
	// Prompt is submitted as soon as the session starts.
	Prompt string
	// Stderr receives the line printed after the terminal is restored.
	Stderr io.Writer
}

// NewTranscript returns a transcript whose assistant text is rendered as
// streaming markdown in the configured theme.
func NewTranscript(cfg *Config, cwd string, width, height int) *scrollback.Transcript {
	theme, ok := markdown.ThemeByName(cfg.Theme)
	if !ok {
		theme = markdown.DarkTheme()
	}
	return scrollback.New(scrollback.Options{
		Width: width, Height: height, Cwd: cwd,
		Assistant: func(w int) scrollback.BodyRenderer {
			return markdown.NewStream(markdown.Options{Width: w, Theme: theme, Cwd: cwd})
		},
	})
}

// Run is `quire`: an interactive session in this terminal, full-screen or
// inline, until the user quits. The terminal is restored on every way out.
func Run(ctx context.Context, opt RunOptions) error {
	if opt.Stderr == nil {
		opt.Stderr = os.Stderr
	}
	cur := &sessionSwitcher{opt: opt.SessionOptions}
	var sess Session
	var first []event.Event // what the first screen shows
	var dir string
	if opt.Resume != "" || opt.Continue {
		// A resumed session shows its latest turns at once; the whole log
		// is decoded for the model's history in the background.
		p, err := prepare(opt.SessionOptions, false)
		if err != nil {
			return err
		}
		first = p.Tail
		from := uint64(math.MaxUint64)
		if len(first) > 0 {
			from = first[0].Seq
		}
		cur.pending = openPending(p.open, from)
		sess, dir = cur.pending, p.Env.Dir
	} else {
		s, err := OpenSession(opt.SessionOptions)
		if err != nil {
			return err
		}
		cur.cur, sess, dir = s, s.Session, s.Env.Dir
	}
	defer cur.close()
	status := Status{Model: opt.Config.Model, Sandbox: opt.Config.Sandbox, Approval: opt.Config.Approval}
	err := runLoop(ctx, opt.Config, sess, dir, status, first, opt.Prompt, Handlers{
		Export: func(path string) (string, error) {
			s, err := cur.session()
			if err != nil {
				return "", err
			}
			return exportSession(s, path)
		},
		Slash: cur.slash,
	})
	cur.close()
	if s, serr := cur.session(); serr == nil && s.Writer != nil && !s.Discarded {
		if s.CloseErr != nil {
			if err == nil {
				err = fmt.Errorf("%w; what was not saved is lost, the rest can be continued with: quire resume %s", s.CloseErr, s.Writer.ID())
			}
		} else {
			fmt.Fprintf(opt.Stderr, "session %s saved; continue it with: quire resume %s\n", s.Writer.ID(), s.Writer.ID())
		}
	}
	return err
}

// runLoop opens the terminal and runs the loop over sess. It is shared by
// the interactive session, the demo and replay.
func runLoop(ctx context.Context, cfg *Config, sess Session, cwd string, status Status, prior []event.Event, prompt string, h Handlers) error {
	// The kitty keyboard protocol tells Shift+Enter from Enter where the
	// terminal speaks it; others ignore the request.
	// Focus reports tell the bell when the user is looking elsewhere.
	opts := term.Options{KittyKeyboard: true, Focus: cfg.Bell && !status.Replay}
	if cfg.Record != "" {
		f, err := os.OpenFile(cfg.Record, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
		if err != nil {
			return fmt.Errorf("recording the terminal: %w", err)
		}
		defer f.Close() // after the terminal's restore, which is recorded too
		opts.Record = f
		opts.RecordRedact = redact.ForUser().String // recordings are made to be shared
	}
	t, err := term.Open(opts)
	if err != nil {
		return fmt.Errorf("opening the terminal: %w", err)
	}
	defer t.Close()
	defer t.RestoreOnPanic()
	w, hgt := t.Size()
	tr := NewTranscript(cfg, cwd, w, hgt)
	for _, e := range prior {
		tr.Apply(e)
	}
	hist, herr := LoadHistory(filepath.Join(StateDir(os.Getenv), "history.jsonl"))
	status.ShiftEnter = shiftEnterWorks(t.Caps())
	status.Bell = cfg.Bell && !status.Replay // a replay's turns need nobody
	m := NewModel(tr, hist, status, cfg.Minimal)
	m.newTranscript = func(prior []event.Event) *scrollback.Transcript {
		t := NewTranscript(cfg, cwd, max(m.width, 1), max(m.height, 1))
		for _, e := range prior {
			t.Apply(e)
		}
		return t
	}
	if herr != nil {
		m.flash(herr.Error(), time.Now())
	}
	if prompt != "" {
		sess.Submit(prompt)
		_ = hist.Add(prompt)
	}
	h.Edit = func(text string) (string, error) {
		var out string
		err := t.HandOff(func() error {
			var e error
			out, e = editInEditor(text)
			return e
		})
		return out, err
	}
	loop := NewLoop(m, t, sess, LoopOptions{DrawInterval: cfg.DrawInterval, Mouse: cfg.Mouse, Handlers: h})
	err = loop.Run(ctx)
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// shiftEnterWorks reports whether the terminal can send Shift+Enter apart
// from Enter: terminals with the kitty keyboard protocol, outside a
// multiplexer that would swallow it.
func shiftEnterWorks(c term.Caps) bool {
	if c.Multiplexer != "" {
		return false
	}
	switch c.TermProgram {
	case "kitty", "wezterm", "ghostty", "foot", "alacritty", "iterm2":
		return true
	}
	return false
}

// editInEditor writes text to a temporary file, runs $VISUAL or $EDITOR
// (vi when neither is set) on it, and returns what the user saved.
func editInEditor(text string) (string, error) {
	f, err := os.CreateTemp("", "quire-prompt-*.md")
	if err != nil {
		return "", fmt.Errorf("creating a file for the editor: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return "", fmt.Errorf("writing the prompt for the editor: %w", err)
	}
	f.Close()
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	cmd := exec.Command("sh", "-c", editor+` "$1"`, "editor", f.Name())
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		defer tty.Close()
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	}
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %w", editor, err)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		return "", fmt.Errorf("reading the edited prompt: %w", err)
	}
	return strings.TrimRight(string(b), "\n"), nil
}

// exportSession writes the session's JSONL transcript to path, or to
// quire-<id>.jsonl in the working directory.
func exportSession(s *OpenedSession, path string) (string, error) {
	if s.Store == nil || s.Writer == nil {
		return "", errors.New("this session is not stored, so there is nothing to export")
	}
	if err := s.Writer.Flush(); err != nil {
		return "", err
	}
	if path == "" {
		path = "quire-" + s.Writer.ID() + ".jsonl"
	}
	f, err := os.Create(path)
	if err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	// The writer holds the session's lock, so read through it rather than
	// opening the database a second time.
	events, err := s.Writer.ReadAll()
	if err == nil {
		err = store.WriteTranscript(f, store.HeaderFor(s.Writer.Summary(), len(events), time.Now()), events)
	}
	if err != nil {
		f.Close()
		return "", fmt.Errorf("export: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	return "exported to " + path, nil
}

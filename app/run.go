package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/markdown"
	"github.com/quire-sh/quire/redact"
	"github.com/quire-sh/quire/scrollback"
	"github.com/quire-sh/quire/term"
)

// Options configure Run.
type Options struct {
	// Theme is the markdown theme: dark or light.
	Theme string
	// Minimal starts inline instead of full-screen.
	Minimal bool
	// Mouse starts with mouse capture on (full-screen mode only).
	Mouse bool
	// Bell rings the terminal's bell when quire needs the user and its
	// window is not focused.
	Bell bool
	// DrawInterval is the minimum time between frames the engine causes
	// (default 33 ms; see LoopOptions).
	DrawInterval time.Duration
	// Record names a file OpenTerminal records the terminal output to.
	Record string
	// HistoryFile is the prompt history (history.jsonl); "" keeps none.
	// It is read and appended to off the loop's goroutine.
	HistoryFile string
	// Status is what the status line says about the session.
	Status Status
	// Cwd is the session's working directory: links and @path completion
	// resolve against it.
	Cwd string
	// Prior are events the first screen shows (a resumed session's latest
	// turns).
	Prior []event.Event
	// Prompt is submitted as soon as the session starts (a custom
	// command in it runs).
	Prompt string
	// Commands are /commands from outside the app's table (custom
	// commands, MCP prompts), in precedence order; Skills are what
	// /skills lists.
	Commands []Command
	Skills   []SkillInfo
}

// NewTranscript returns a transcript whose assistant text is rendered as
// streaming markdown in the named theme (dark when unknown).
func NewTranscript(theme, cwd string, width, height int) *scrollback.Transcript {
	th, ok := markdown.ThemeByName(theme)
	if !ok {
		th = markdown.DarkTheme()
	}
	return scrollback.New(scrollback.Options{
		Width: width, Height: height, Cwd: cwd,
		Assistant: func(w int) scrollback.BodyRenderer {
			return markdownBody{markdown.NewStream(markdown.Options{Width: w, Theme: th, Cwd: cwd})}
		},
	})
}

// markdownBody is a markdown stream as a transcript body, its revisions
// (late link definitions) in the transcript's terms, for the inline view
// to follow.
type markdownBody struct{ *markdown.Stream }

func (m markdownBody) RevisionsSince(n int) []scrollback.Revision {
	rs := m.Revisions()
	if n >= len(rs) {
		return nil
	}
	out := make([]scrollback.Revision, len(rs)-n)
	for i, r := range rs[n:] {
		out[i] = scrollback.Revision(r)
	}
	return out
}

// OpenTerminal takes the terminal as the options ask: the kitty keyboard
// protocol (where the terminal speaks it, Shift+Enter is told from
// Enter), focus reports for the bell, and the output recorded to
// opt.Record. close restores the terminal and then closes the recording,
// so the restore is recorded too.
func OpenTerminal(opt Options) (t *term.Terminal, close func(), err error) {
	topt := term.Options{KittyKeyboard: true, Focus: opt.Bell && !opt.Status.Replay}
	var rec *os.File
	if opt.Record != "" {
		rec, err = os.OpenFile(opt.Record, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("recording the terminal: %w", err)
		}
		topt.Record = rec
		topt.RecordRedact = redact.ForUser().String // recordings are made to be shared
	}
	t, err = term.Open(topt)
	if err != nil {
		if rec != nil {
			rec.Close()
		}
		return nil, nil, fmt.Errorf("opening the terminal: %w", err)
	}
	return t, func() {
		t.Close()
		if rec != nil {
			rec.Close()
		}
	}, nil
}

// Run is quire's interactive program: the loop over s on t, full-screen
// or inline, until the user quits, ctx ends or a termination signal
// arrives (then the error is a *SignalError). A replay runs it with a
// Player as s. The caller owns t and s and closes them after.
func Run(ctx context.Context, t Terminal, s Session, opt Options) error {
	if r, ok := t.(interface{ RestoreOnPanic() }); ok {
		defer r.RestoreOnPanic()
	}
	w, hgt := t.Size()
	tr := NewTranscript(opt.Theme, opt.Cwd, w, hgt)
	for _, e := range opt.Prior {
		tr.Apply(e)
	}
	status := opt.Status
	status.ShiftEnter = shiftEnterWorks(t.Caps())
	status.Bell = opt.Bell && !status.Replay // a replay's turns need nobody
	m := NewModel(tr, nil, status, opt.Minimal)
	m.cwd = opt.Cwd
	m.SetExtensions(opt.Commands, opt.Skills)
	m.newTranscript = func(prior []event.Event) *scrollback.Transcript {
		t := NewTranscript(opt.Theme, opt.Cwd, max(m.width, 1), max(m.height, 1))
		for _, e := range prior {
			t.Apply(e)
		}
		return t
	}
	loop := NewLoop(m, t, s, LoopOptions{
		DrawInterval: opt.DrawInterval, Mouse: opt.Mouse,
		HistoryFile: opt.HistoryFile, Prompt: opt.Prompt,
	})
	err := loop.Run(ctx)
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

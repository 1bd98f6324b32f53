package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// run carries out one effect. Commands to the session (mailbox puts) and
// changes of the terminal's modes happen here; everything that touches
// the disk, the store or the clipboard runs as a job off the loop's
// goroutine and reports back on l.done, so a slow or stuck store never
// stops the loop from drawing and taking keys.
func (l *Loop) run(e Effect, now time.Time) {
	m := l.m
	switch e := e.(type) {
	case SubmitEffect:
		l.send(&outgoing{text: e.Text, ready: true}, now)
	case CommandEffect:
		o := &outgoing{command: e.Typed}
		l.outgoing = append(l.outgoing, o)
		l.spawn(func(ctx context.Context) effectDone {
			ctx, cancel := context.WithTimeout(ctx, expandTimeout)
			defer cancel()
			text, err := e.Command.Expand(ctx, e.Args)
			switch {
			case errors.Is(err, context.DeadlineExceeded):
				err = fmt.Errorf("/%s took longer than %v and was dropped", e.Command.Name, expandTimeout)
			case err != nil && !strings.HasPrefix(err.Error(), "/"+e.Command.Name):
				err = fmt.Errorf("/%s: %w", e.Command.Name, err)
			case err == nil && strings.TrimSpace(text) == "":
				err = fmt.Errorf("/%s sent nothing", e.Command.Name)
			}
			return effectDone{apply: func(now time.Time) {
				o.text, o.err, o.ready = text, err, true
				l.sendReady(now)
			}}
		})
	case CancelEffect:
		l.sess.Cancel()
	case AnswerEffect:
		l.sess.Answer(e.CallID, e.Decision, e.Reason)
	case CompactEffect:
		l.sess.Compact(e.Focus)
		m.flash("compacting the conversation…", now)
	case HistoryEffect:
		l.history.pending = append(l.history.pending, e.Text)
		l.appendHistory()
	case CopyEffect:
		l.spawn(func(context.Context) effectDone {
			msg := fmt.Sprintf("copied %d lines", e.Lines)
			if err := l.term.Copy(e.Text); err != nil {
				msg = "copy failed: " + err.Error()
			}
			return effectDone{notice: msg}
		})
	case CompletePathEffect:
		dir := e.Dir
		if !filepath.IsAbs(dir) && l.m.cwd != "" {
			dir = filepath.Join(l.m.cwd, dir)
		}
		l.spawn(func(context.Context) effectDone {
			names, err := listNames(dir, e.Base)
			return effectDone{apply: func(now time.Time) {
				if err == nil {
					m.completePathWith(e, names, now)
				}
			}}
		})
	case MouseEffect:
		l.mouse = !l.mouse
		if err := l.term.SetMouse(l.mouse); err != nil {
			m.flash("mouse: "+err.Error(), now)
		} else if l.mouse {
			m.flash("mouse capture on (wheel scrolls, click focuses)", now)
		} else {
			m.flash("mouse capture off (the terminal selects text)", now)
		}
	case ModeEffect:
		if err := l.switchMode(e.Minimal); err != nil {
			m.flash("switching mode: "+err.Error(), now)
		}
	case PlaybackEffect:
		if p, ok := l.sess.(interface {
			TogglePause()
			Step()
		}); ok {
			if e.Step {
				p.Step()
			} else {
				p.TogglePause()
			}
		}
	case RedrawEffect:
		l.invalidate()
	case SuspendEffect:
		if err := l.term.Suspend(); err != nil {
			m.flash("cannot suspend: "+err.Error(), now)
		}
	case EditorEffect:
		// The terminal belongs to the editor until it returns: the loop
		// waits here by design, and draws nothing meanwhile.
		var text string
		err := l.term.HandOff(func() error {
			var e2 error
			text, e2 = editInEditor(e.Text)
			return e2
		})
		if err != nil {
			m.flash(err.Error(), now)
		} else {
			m.editor.SetText(text)
			m.pastes = map[string]string{}
		}
	case ExportEffect:
		l.spawn(func(ctx context.Context) effectDone {
			msg, err := l.sess.Export(ctx, e.Path)
			if err != nil {
				msg = "export failed: " + err.Error()
			}
			return effectDone{notice: msg}
		})
	case SessionsEffect:
		l.spawn(func(ctx context.Context) effectDone {
			ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			list, err := l.sess.Sessions(ctx)
			if err != nil {
				return effectDone{notice: "listing sessions: " + err.Error()}
			}
			return effectDone{apply: func(time.Time) { m.overlay = sessionLines(list) }}
		})
	case MCPEffect:
		ext, ok := l.sess.(Extensions)
		if !ok {
			m.flash("this session has no MCP servers", now)
			break
		}
		l.spawn(func(ctx context.Context) effectDone {
			ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			lines, notice, err := ext.MCP(ctx, e.Args)
			if err != nil {
				return effectDone{notice: err.Error()}
			}
			return effectDone{notice: notice, apply: func(time.Time) {
				if lines != nil {
					m.overlay = lines
				}
			}}
		})
	case TrustEffect:
		pt, ok := l.sess.(projectTrust)
		if !ok {
			break
		}
		l.spawn(func(ctx context.Context) effectDone {
			r, err := pt.AnswerTrust(ctx, e.Answer)
			return effectDone{apply: func(now time.Time) {
				l.swapped(r, err, now)
				// The prompt given on the command line waited for the
				// answer, so it runs with the files the user chose.
				if p := l.heldPrompt; p != "" {
					l.heldPrompt = ""
					l.submitInitial(p, now)
				}
			}}
		})
	case SwitchEffect:
		l.spawn(func(ctx context.Context) effectDone {
			var r Switched
			var err error
			switch e.Op {
			case SwitchModel:
				r, err = l.sess.SwitchModel(ctx, e.Model)
			case SwitchClear:
				r, err = l.sess.Clear(ctx)
			case SwitchRewind:
				r, err = l.sess.Rewind(ctx, e.Prompt, e.What)
			}
			return effectDone{apply: func(now time.Time) { l.swapped(r, err, now) }}
		})
	}
	l.needDraw = true
}

// outgoing is a prompt on its way to the session: ready once a command's
// expansion has come back (err set if it failed).
type outgoing struct {
	text    string
	command string // the line typed, for a command's prompt
	ready   bool
	err     error
}

// send sends a prompt, or queues it behind the commands still expanding,
// so prompts reach the session in the order they were typed.
func (l *Loop) send(o *outgoing, now time.Time) {
	l.outgoing = append(l.outgoing, o)
	l.sendReady(now)
}

// sendReady sends the prompts at the head of the queue that are ready; a
// failed expansion is shown and sends nothing (the line typed is in the
// prompt history).
func (l *Loop) sendReady(now time.Time) {
	for len(l.outgoing) > 0 && l.outgoing[0].ready {
		o := l.outgoing[0]
		l.outgoing = l.outgoing[1:]
		switch {
		case o.err != nil:
			l.m.flash(o.err.Error()+" (↑ brings the command back)", now)
		case o.command != "":
			l.sess.SubmitCommand(o.command, o.text)
		default:
			l.sess.Submit(o.text)
		}
	}
}

// spawn runs job off the loop's goroutine; its result comes back on
// l.done. The loop waits for every job before Run returns, and a job
// whose loop has ended drops its result.
func (l *Loop) spawn(job func(ctx context.Context) effectDone) {
	ctx := l.jobsCtx
	if ctx == nil {
		ctx = context.Background()
	}
	l.jobs.Add(1)
	go func() {
		defer l.jobs.Done()
		d := job(ctx)
		select {
		case l.done <- d:
		case <-ctx.Done():
		}
	}()
}

// loadHistory reads the prompt history file in a job; what was sent
// before it arrived stays the newest.
func (l *Loop) loadHistory() {
	if l.history.path == "" {
		return
	}
	path := l.history.path
	l.history.loading = true
	l.spawn(func(context.Context) effectDone {
		entries, err := ReadHistory(path)
		return effectDone{apply: func(now time.Time) {
			l.m.history.prepend(entries)
			if err != nil {
				l.m.flash(err.Error(), now)
			}
			l.history.loading = false
			l.appendHistory()
		}}
	})
}

// historyWriter appends prompts to the history file one batch at a time,
// in order, off the loop's goroutine; none before the file has been read,
// so the read never returns this session's own prompts.
type historyWriter struct {
	path    string
	pending []string
	busy    bool
	loading bool
}

// appendHistory starts an append of the waiting prompts unless one runs;
// its completion starts the next.
func (l *Loop) appendHistory() {
	h := &l.history
	if h.busy || h.loading || len(h.pending) == 0 {
		return
	}
	if h.path == "" {
		h.pending = nil
		return
	}
	batch, path := h.pending, h.path
	h.pending, h.busy = nil, true
	l.spawn(func(context.Context) effectDone {
		err := AppendHistory(path, batch)
		return effectDone{apply: func(now time.Time) {
			h.busy = false
			if err != nil {
				l.m.flash(err.Error(), now)
			}
			l.appendHistory()
		}}
	})
}

// flushHistory writes what is still waiting when the loop has ended.
func (l *Loop) flushHistory() error {
	if l.history.path == "" || len(l.history.pending) == 0 {
		return nil
	}
	err := AppendHistory(l.history.path, l.history.pending)
	l.history.pending = nil
	return err
}

// listNames lists the entries of dir that start with base (hidden ones
// only when base asks for them), directories marked with a slash.
func listNames(dir, base string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), base) && (base != "" || !strings.HasPrefix(e.Name(), ".")) {
			n := e.Name()
			if e.IsDir() {
				n += "/"
			}
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names, nil
}

// sessionLines is the /sessions overlay.
func sessionLines(list []SessionSummary) []string {
	lines := []string{"Sessions, newest first (quire resume ID continues one):", ""}
	for i, sum := range list {
		if i == 30 {
			lines = append(lines, fmt.Sprintf("… and %d more: quire sessions lists them all", len(list)-i))
			break
		}
		title := fitWidth(strings.ReplaceAll(sum.Title, "\n", " "), 50)
		lines = append(lines, fmt.Sprintf("%-24s %-16s %3d turns  %s", sum.ID, sum.LastActive.Local().Format("Jan _2 15:04"), sum.Turns, title))
	}
	if len(list) == 0 {
		lines = append(lines, "no sessions stored yet")
	}
	return lines
}

// invalidate makes the next frame a full repaint (after Ctrl+L, a
// hand-off, or a resume from Ctrl+Z, when the screen no longer shows
// what the renderer believes).
func (l *Loop) invalidate() {
	w, h := l.term.Size()
	switch {
	case l.screen != nil:
		l.screen.Resize(w, h)
		l.screen.Invalidate()
	case l.inline != nil:
		_, row, err := l.term.CursorPosition(300 * time.Millisecond)
		if err == nil {
			l.inline.Reanchor(row)
		}
	}
	l.m.SetSize(w, h)
	l.needDraw = true
}

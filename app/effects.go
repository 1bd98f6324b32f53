package app

import (
	"fmt"
	"time"
)

// run carries out one effect. Quick ones happen here; the clipboard, which
// may wait on tmux, runs in a goroutine that reports on l.done.
func (l *Loop) run(e Effect, now time.Time) {
	m := l.m
	switch e := e.(type) {
	case SubmitEffect:
		l.sess.Submit(e.Text)
	case CancelEffect:
		l.sess.Cancel()
	case AnswerEffect:
		l.sess.Answer(e.CallID, e.Decision, e.Reason)
	case CompactEffect:
		l.sess.Compact(e.Focus)
		m.flash("compacting the conversation…", now)
	case CopyEffect:
		go func() {
			msg := fmt.Sprintf("copied %d lines", e.Lines)
			if err := l.term.Copy(e.Text); err != nil {
				msg = "copy failed: " + err.Error()
			}
			l.done <- effectDone{notice: msg}
		}()
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
		l.withHandler(l.opt.Handlers.Edit != nil, now, "no editor configured", func() (string, error) {
			text, err := l.opt.Handlers.Edit(e.Text)
			if err == nil {
				m.editor.SetText(text)
				m.pastes = map[string]string{}
			}
			return "", err
		})
	case ExportEffect:
		l.withHandler(l.opt.Handlers.Export != nil, now, "this session has no store to export from", func() (string, error) {
			return l.opt.Handlers.Export(e.Path)
		})
	case SlashEffect:
		l.withHandler(l.opt.Handlers.Slash != nil, now, "/"+e.Inv.Name+" is not available here", func() (string, error) {
			r, err := l.opt.Handlers.Slash(e.Inv)
			if err != nil {
				return "", err
			}
			if r.Session != nil {
				l.swap(r)
			}
			if r.Overlay != nil {
				m.overlay = r.Overlay
			}
			return r.Notice, nil
		})
	}
	l.needDraw = true
}

func (l *Loop) withHandler(ok bool, now time.Time, missing string, fn func() (string, error)) {
	if !ok {
		l.m.flash(missing, now)
		return
	}
	msg, err := fn()
	switch {
	case err != nil:
		l.m.flash(err.Error(), now)
	case msg != "":
		l.m.flash(msg, now)
	}
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

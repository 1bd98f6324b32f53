package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/term"
)

// quitWindow is how soon a second Ctrl+C must follow the first to quit.
const quitWindow = time.Second

// largePaste is the size from which a paste shows as a chip in the prompt
// (it is still sent in full).
const (
	largePasteLines = 8
	largePasteBytes = 1000
)

// HandleInput routes one terminal event through the layers, topmost first:
// the always-on quit keys, the approval prompt, the one-line inputs
// (search, filter, denial reason, history search), the help overlay, the
// pager, and the prompt editor. It returns the effects to run.
func (m *Model) HandleInput(ev term.Event, now time.Time) []Effect {
	switch ev := ev.(type) {
	case term.KeyEvent:
		m.dirty = true
		return m.handleKey(ev, now)
	case term.PasteEvent:
		m.dirty = true
		m.paste(ev.Text)
	case term.MouseEvent:
		return m.handleMouse(ev)
	case term.ResizeEvent:
		m.SetSize(ev.Width, ev.Height)
	case term.FocusEvent:
		m.unfocused = !ev.Focused
	case term.ResumeEvent:
		m.dirty = true
		return []Effect{RedrawEffect{}}
	}
	return nil
}

func ctrl(ev term.KeyEvent, r rune) bool {
	return ev.Key == term.KeyRune && ev.Mod&term.ModCtrl != 0 && (ev.Rune == r || ev.Rune == r-'a'+'A')
}

func alt(ev term.KeyEvent, r rune) bool {
	return ev.Key == term.KeyRune && ev.Mod&term.ModAlt != 0 && ev.Mod&term.ModCtrl == 0 && ev.Rune == r
}

func plain(ev term.KeyEvent, r rune) bool {
	return ev.Key == term.KeyRune && ev.Mod&(term.ModCtrl|term.ModAlt) == 0 && ev.Rune == r
}

func (m *Model) handleKey(ev term.KeyEvent, now time.Time) []Effect {
	// The always layer: no overlay can swallow quitting.
	if ctrl(ev, 'c') {
		return m.interrupt(now)
	}
	m.quitArmed = time.Time{}
	if ctrl(ev, 'z') {
		return []Effect{SuspendEffect{}}
	}
	if ctrl(ev, 'l') {
		return []Effect{RedrawEffect{}}
	}
	if m.trust != nil {
		return m.trustKey(ev)
	}
	if len(m.approvals) > 0 && m.input.kind != inputDenyReason {
		return m.approvalKey(ev)
	}
	if m.input.kind != inputNone {
		return m.inputKey(ev, now)
	}
	if m.overlay != nil {
		m.overlay = nil
		return nil
	}
	if m.status.Replay {
		switch {
		case plain(ev, 'p'):
			return []Effect{PlaybackEffect{}}
		case plain(ev, '.'):
			return []Effect{PlaybackEffect{Step: true}}
		case plain(ev, 'q'):
			m.quit = true
			return nil
		}
		if !m.minimal {
			return m.pagerKey(ev, now)
		}
		return nil
	}
	if m.focus == focusPager && !m.minimal {
		return m.pagerKey(ev, now)
	}
	return m.promptKey(ev, now)
}

// interrupt is Ctrl+C: cancel the running turn, else clear a non-empty
// prompt (or close what is open), else arm quitting; a second Ctrl+C
// within quitWindow quits.
func (m *Model) interrupt(now time.Time) []Effect {
	switch {
	case m.running:
		m.input = inputLine{}
		m.flash("cancelling the turn (Ctrl+C again to quit)", now)
		m.quitArmed = now
		return []Effect{CancelEffect{}}
	case !m.quitArmed.IsZero() && now.Sub(m.quitArmed) <= quitWindow:
		m.quit = true
		return nil
	case m.input.kind != inputNone || m.overlay != nil:
		m.input = inputLine{}
		m.overlay = nil
	case !m.editor.Empty():
		m.editor.Clear()
		m.pastes = map[string]string{}
	default:
		m.quitArmed = now
		m.flash("press Ctrl+C again to quit", now)
	}
	return nil
}

// approvalKey answers the oldest pending approval: y yes, a yes for this
// session, n no (then an optional reason), Esc no; ↑↓ (or k and j)
// scroll a preview taller than the panel.
func (m *Model) approvalKey(ev term.KeyEvent) []Effect {
	a := m.approvals[0]
	switch {
	case plain(ev, 'y') || plain(ev, 'Y'):
		return m.answer(a.CallID, event.Approve, "")
	case plain(ev, 'a') || plain(ev, 'A'):
		return m.answer(a.CallID, event.ApproveSession, "")
	case plain(ev, 'n') || plain(ev, 'N'):
		m.input = inputLine{kind: inputDenyReason, label: "reason for the model (Enter to send, empty for none): "}
	case ev.Key == term.KeyEscape:
		return m.answer(a.CallID, event.Deny, "")
	case ev.Key == term.KeyPageUp || ev.Key == term.KeyPageDown:
		return m.pagerKey(ev, time.Time{})
	case ev.Key == term.KeyDown || plain(ev, 'j'):
		m.scrollPreview(1)
	case ev.Key == term.KeyUp || plain(ev, 'k'):
		m.scrollPreview(-1)
	}
	return nil
}

// scrollPreview moves the oldest approval's preview by n rows; drawing
// keeps it in range.
func (m *Model) scrollPreview(n int) {
	p := m.preview(m.width)
	p.top = max(p.top+n, 0)
	m.dirty = true
}

func (m *Model) answer(callID string, d event.Decision, reason string) []Effect {
	m.dropApproval(callID)
	return []Effect{AnswerEffect{CallID: callID, Decision: d, Reason: reason}}
}

// inputKey edits the one-line input and acts on Enter and Esc.
func (m *Model) inputKey(ev term.KeyEvent, now time.Time) []Effect {
	in := &m.input
	switch {
	case ev.Key == term.KeyEscape:
		switch in.kind {
		case inputSearch:
			m.tr.CancelSearch()
		case inputDenyReason:
			if len(m.approvals) > 0 {
				a := m.approvals[0]
				m.input = inputLine{}
				return m.answer(a.CallID, event.Deny, "")
			}
		}
		m.input = inputLine{}
		return nil
	case ev.Key == term.KeyEnter:
		text := in.ed.Text()
		kind := in.kind
		m.input = inputLine{}
		switch kind {
		case inputSearch:
			m.tr.CommitSearch()
		case inputFilter:
			m.tr.SetFilter(text)
			if text == "" {
				m.flash("filter off", now)
			}
		case inputDenyReason:
			if len(m.approvals) > 0 {
				return m.answer(m.approvals[0].CallID, event.Deny, text)
			}
		case inputHistory:
			if s, _, ok := m.history.Search(text, m.histIndex+1); ok && text != "" {
				m.editor.SetText(s)
			}
		}
		return nil
	case in.kind == inputHistory && ctrl(ev, 'r'):
		if _, i, ok := m.history.Search(in.ed.Text(), m.histIndex); ok {
			m.histIndex = i
		}
		return nil
	}
	if !editKey(&in.ed, ev) {
		return nil
	}
	switch in.kind {
	case inputSearch:
		m.tr.SetSearchPattern(in.ed.Text())
	case inputHistory:
		m.histIndex = m.history.Len()
		if _, i, ok := m.history.Search(in.ed.Text(), m.histIndex); ok {
			m.histIndex = i
		}
	}
	return nil
}

// historyMatch is what Ctrl+R currently shows.
func (m *Model) historyMatch() string {
	if m.input.kind != inputHistory || m.input.ed.Empty() {
		return ""
	}
	s, _, _ := m.history.Search(m.input.ed.Text(), m.histIndex+1)
	return s
}

// editKey applies a readline editing key to ed and reports whether the
// text or cursor changed. Newline insertion is the caller's business.
func editKey(ed *Editor, ev term.KeyEvent) bool {
	switch {
	case ev.Key == term.KeyRune && ev.Mod&(term.ModCtrl|term.ModAlt) == 0:
		ed.Insert(string(ev.Rune))
	case ev.Key == term.KeyBackspace || ctrl(ev, 'h'):
		if ev.Mod&term.ModAlt != 0 {
			ed.KillWordBack()
		} else {
			ed.Backspace()
		}
	case ev.Key == term.KeyDelete:
		ed.Delete()
	case ev.Key == term.KeyLeft && ev.Mod&(term.ModCtrl|term.ModAlt) != 0, alt(ev, 'b'):
		ed.WordLeft()
	case ev.Key == term.KeyRight && ev.Mod&(term.ModCtrl|term.ModAlt) != 0, alt(ev, 'f'):
		ed.WordRight()
	case ev.Key == term.KeyLeft || ctrl(ev, 'b'):
		ed.Left()
	case ev.Key == term.KeyRight || ctrl(ev, 'f'):
		ed.Right()
	case ev.Key == term.KeyHome || ctrl(ev, 'a'):
		ed.Home()
	case ev.Key == term.KeyEnd || ctrl(ev, 'e'):
		ed.End()
	case ctrl(ev, 'k'):
		ed.KillToEnd()
	case ctrl(ev, 'u'):
		ed.KillToStart()
	case ctrl(ev, 'w'):
		ed.KillWordBack()
	case alt(ev, 'd'):
		ed.KillWordForward()
	case ctrl(ev, 'y'):
		ed.Yank()
	default:
		return false
	}
	return true
}

// newlineKey reports the chords that insert a newline instead of
// submitting: Shift+Enter and Alt+Enter where the terminal can tell them
// apart, and Ctrl+J everywhere.
func newlineKey(ev term.KeyEvent) bool {
	if ev.Key == term.KeyEnter && ev.Mod&(term.ModShift|term.ModAlt) != 0 {
		return true
	}
	return ctrl(ev, 'j')
}

// promptKey edits the prompt.
func (m *Model) promptKey(ev term.KeyEvent, now time.Time) []Effect {
	switch {
	case newlineKey(ev):
		m.editor.Insert("\n")
	case ev.Key == term.KeyEnter:
		return m.submit(now)
	case ev.Key == term.KeyEscape:
		if m.running {
			m.flash("cancelling the turn", now)
			return []Effect{CancelEffect{}}
		}
		if !m.minimal {
			m.focus = focusPager
		}
	case ev.Key == term.KeyTab:
		return m.complete(now)
	case ev.Key == term.KeyUp && ev.Mod == 0:
		if !m.editor.Up() {
			if s, ok := m.history.Prev(m.editor.Text()); ok {
				m.editor.SetText(s)
			}
		}
	case ev.Key == term.KeyDown && ev.Mod == 0:
		if !m.editor.Down() {
			if s, ok := m.history.Next(); ok {
				m.editor.SetText(s)
			}
		}
	case ctrl(ev, 'r'):
		m.histIndex = m.history.Len()
		m.input = inputLine{kind: inputHistory, label: "history search: "}
	case ctrl(ev, 'g'):
		return []Effect{EditorEffect{Text: m.expandPastes(m.editor.Text())}}
	case ctrl(ev, 'd'):
		if m.editor.Empty() {
			m.quit = true
			return nil
		}
		m.editor.Delete()
	case ev.Key == term.KeyPageUp, ev.Key == term.KeyPageDown:
		if !m.minimal {
			return m.pagerKey(ev, now)
		}
	case ev.Key == term.KeyF1:
		m.overlay = helpLines(m.status.ShiftEnter, m.commands)
	default:
		editKey(&m.editor, ev)
	}
	return nil
}

// submit sends the prompt, or runs it as a /command.
func (m *Model) submit(now time.Time) []Effect {
	return m.submitText(m.expandPastes(m.editor.Text()), m.editor.Text(), true, now)
}

// SubmitText handles text as if it had been typed into the prompt and
// sent (the prompt given on the command line): a prompt, or a /command.
func (m *Model) SubmitText(text string, now time.Time) []Effect {
	return m.submitText(text, text, false, now)
}

// submitText sends text, or runs it as a /command; typed is what the
// history keeps. From the editor, text that cannot go yet stays in it.
func (m *Model) submitText(text, typed string, fromEditor bool, now time.Time) []Effect {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	inv, isCmd, err := ParseSlash(text, m.commands...)
	if isCmd && err != nil {
		m.flash(err.Error(), now)
		return nil
	}
	// A command from outside the app's table sends a prompt: it waits and
	// is refused as a prompt is.
	prompt := !isCmd || inv.External != nil
	if m.switching && prompt {
		// The prompt stays in the editor: it is sent by Enter once the
		// session it would go to is running.
		m.flash("wait a moment: the session is being switched", now)
		return nil
	}
	effects := m.remember(typed)
	if fromEditor {
		m.editor.Clear()
		m.pastes = map[string]string{}
	}
	m.focus = focusPrompt
	if m.status.Replay && prompt {
		m.flash("this is a replay: prompts cannot be sent", now)
		return effects
	}
	if !prompt {
		return append(effects, m.slash(inv, now)...)
	}
	m.tr.SetFollow(true)
	if inv.External != nil {
		return append(effects, CommandEffect{Command: *inv.External, Args: inv.Rest, Typed: strings.TrimSpace(text)})
	}
	return append(effects, SubmitEffect{Text: text})
}

// remember adds a sent prompt to the history and asks for it to be
// appended to the file, unless it repeats the newest entry.
func (m *Model) remember(text string) []Effect {
	if !m.history.Add(text) {
		return nil
	}
	return []Effect{HistoryEffect{Text: text}}
}

// SetMinimal records a completed mode switch.
func (m *Model) SetMinimal(on bool) {
	m.minimal = on
	m.focus = focusPrompt
	m.dirty = true
}

// paste inserts pasted text; a large paste becomes a chip in the editor
// that expands to the full text on submit.
func (m *Model) paste(text string) {
	if m.input.kind != inputNone {
		m.input.ed.Insert(strings.ReplaceAll(text, "\n", " "))
		return
	}
	lines := strings.Count(text, "\n") + 1
	if lines < largePasteLines && len(text) < largePasteBytes {
		m.editor.Insert(text)
		return
	}
	chip := fmt.Sprintf("[pasted %d lines #%d]", lines, len(m.pastes)+1)
	m.pastes[chip] = text
	m.editor.Insert(chip)
}

func (m *Model) expandPastes(s string) string {
	for chip, text := range m.pastes {
		s = strings.ReplaceAll(s, chip, text)
	}
	return s
}

// complete is Tab: complete a /command name or an @path.
func (m *Model) complete(now time.Time) []Effect {
	text := m.editor.Text()
	if done, cands := CompleteSlashLine(text, m.commands...); done != text {
		m.editor.SetText(done)
		return nil
	} else if len(cands) > 1 {
		m.flash("/"+strings.Join(cands, "  /"), now)
		return nil
	}
	return m.completePath()
}

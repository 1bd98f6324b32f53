package app

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/quire-sh/quire/scrollback"
	"github.com/quire-sh/quire/term"
)

// pagerKey moves over the transcript with the keys of less: the app's own
// keys first (search and filter prompts, copy, mouse, leaving the pager),
// then scrollback's less binding, with a typed count as less takes it
// ("10j", "42g").
func (m *Model) pagerKey(ev term.KeyEvent, now time.Time) []Effect {
	t := m.tr
	switch {
	case ev.Key == term.KeyRune && ev.Mod == 0 && ev.Rune >= '0' && ev.Rune <= '9':
		m.count = m.count*10 + int(ev.Rune-'0')
		return nil
	case plain(ev, '/'), plain(ev, '?'):
		t.BeginSearch(ev.Rune == '?')
		m.input = inputLine{kind: inputSearch, label: string(ev.Rune)}
	case plain(ev, '&'):
		m.input = inputLine{kind: inputFilter, label: "&"}
		m.input.ed.SetText(t.Filter())
	case plain(ev, 'y'):
		m.count = 0
		return m.copyFocused(now)
	case plain(ev, 'm'):
		return []Effect{MouseEffect{}}
	case plain(ev, 'q'), plain(ev, 'i'), ev.Key == term.KeyEscape:
		t.Unfocus()
		m.focus = focusPrompt
	case ev.Key == term.KeyF1, plain(ev, 'H'):
		m.overlay = helpLines(m.status.ShiftEnter, m.commands)
	default:
		name := ev.String()
		if ev.Key == term.KeyLeft || ev.Key == term.KeyRight {
			name = map[term.Key]string{term.KeyLeft: "h", term.KeyRight: "l"}[ev.Key]
		}
		a, ok := scrollback.LessKey(name)
		if !ok {
			break
		}
		if !t.Do(a, m.count) {
			switch a {
			case scrollback.ActSearchNext, scrollback.ActSearchPrev:
				m.flash("pattern not found", now)
			}
		}
		if a == scrollback.ActFollow {
			m.flash("following the bottom (scroll up to leave)", now)
		}
	}
	m.count = 0
	return nil
}

// copyFocused copies the focused block (or the block at the top of the
// screen) as its source text.
func (m *Model) copyFocused(now time.Time) []Effect {
	id := m.tr.Focused()
	if id == 0 {
		f := m.tr.Frame()
		for _, b := range f.Blocks {
			if b != 0 {
				id = b
				break
			}
		}
	}
	text, ok := m.tr.CopyBlock(id)
	if !ok || text == "" {
		m.flash("nothing to copy", now)
		return nil
	}
	return []Effect{CopyEffect{Text: text, Lines: strings.Count(text, "\n") + 1}}
}

// handleMouse scrolls with the wheel and focuses the block clicked.
func (m *Model) handleMouse(ev term.MouseEvent) []Effect {
	if m.minimal {
		return nil
	}
	switch ev.Button {
	case term.WheelUp:
		m.tr.ScrollLines(-3)
	case term.WheelDown:
		m.tr.ScrollLines(3)
	case term.ButtonLeft:
		return m.selectWithMouse(ev)
	default:
		return nil
	}
	m.dirty = true
	return nil
}

// gutter is the column left of the transcript where the focus bar goes.
const gutter = 1

// selection is a mouse selection over the transcript, in transcript
// coordinates so that it survives scrolling.
type selection struct {
	active     bool
	from, to   scrollback.Point
	moved      bool
	clickBlock scrollback.ID
}

// selectWithMouse is a press, drag or release of the left button: a drag
// selects text, copied on release (prose joined, code kept as is); a
// click without a drag focuses the block under it.
func (m *Model) selectWithMouse(ev term.MouseEvent) []Effect {
	pt := m.tr.PointAt(ev.Y, max(ev.X-gutter, 0))
	switch {
	case !ev.Motion && !ev.Release:
		m.sel = selection{active: true, from: pt, to: pt}
		f := m.tr.Frame()
		if ev.Y >= 0 && ev.Y < len(f.Blocks) {
			m.sel.clickBlock = f.Blocks[ev.Y]
		}
	case ev.Motion && m.sel.active:
		m.sel.to = pt
		m.sel.moved = m.sel.moved || pt != m.sel.from
	case ev.Release && m.sel.active:
		m.sel.to = pt
		sel := m.sel
		m.sel = selection{}
		if sel.moved && sel.from != sel.to {
			text := m.tr.SelectionText(sel.from, sel.to)
			if text != "" {
				return []Effect{CopyEffect{Text: text, Lines: strings.Count(text, "\n") + 1}}
			}
			return nil
		}
		if sel.clickBlock != 0 {
			m.tr.Focus(sel.clickBlock)
			m.focus = focusPager
		}
	}
	m.dirty = true
	return nil
}

// completePath starts completing the @path word before the cursor: the
// directory is listed off the loop (completePathWith finishes).
func (m *Model) completePath() []Effect {
	text := m.editor.Text()[:m.editor.Cursor()]
	at := strings.LastIndexAny(text, " \n\t")
	word := text[at+1:]
	if !strings.HasPrefix(word, "@") {
		return nil
	}
	dir, base := filepath.Split(word[1:])
	if dir == "" {
		dir = "."
	}
	return []Effect{CompletePathEffect{Dir: dir, Base: base, Text: m.editor.Text(), Cursor: m.editor.Cursor()}}
}

// completePathWith completes with the names the directory holds, unless
// the prompt changed while it was listed.
func (m *Model) completePathWith(req CompletePathEffect, names []string, now time.Time) {
	if m.editor.Text() != req.Text || m.editor.Cursor() != req.Cursor {
		return
	}
	base := req.Base
	m.dirty = true
	switch len(names) {
	case 0:
		return
	case 1:
		m.editor.Insert(names[0][len(base):])
	default:
		common := names[0]
		for _, n := range names[1:] {
			for !strings.HasPrefix(n, common) {
				common = common[:len(common)-1]
			}
		}
		m.editor.Insert(common[len(base):])
		shown := names
		if len(shown) > 8 {
			shown = append(shown[:8:8], fmt.Sprintf("… %d more", len(names)-8))
		}
		m.flash(strings.Join(shown, "  "), now)
	}
}

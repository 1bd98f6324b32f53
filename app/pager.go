package app

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/quire-sh/quire/term"
)

// pagerKey moves over the transcript with the keys of less.
func (m *Model) pagerKey(ev term.KeyEvent, now time.Time) []Effect {
	t := m.tr
	switch {
	case plain(ev, 'j'), ev.Key == term.KeyDown, ctrl(ev, 'n'), ctrl(ev, 'e'), ev.Key == term.KeyEnter && ev.Mod == 0:
		t.ScrollLines(1)
	case plain(ev, 'k'), ev.Key == term.KeyUp, ctrl(ev, 'p'), ctrl(ev, 'y'):
		t.ScrollLines(-1)
	case plain(ev, ' '), plain(ev, 'f'), ev.Key == term.KeyPageDown, ctrl(ev, 'f'), ctrl(ev, 'v'):
		t.ScrollPages(1)
	case plain(ev, 'b'), ev.Key == term.KeyPageUp, ctrl(ev, 'b'), alt(ev, 'v'):
		t.ScrollPages(-1)
	case plain(ev, 'd'), ctrl(ev, 'd'):
		t.ScrollHalfPages(1)
	case plain(ev, 'u'), ctrl(ev, 'u'):
		t.ScrollHalfPages(-1)
	case plain(ev, 'g'), plain(ev, '<'), ev.Key == term.KeyHome:
		t.ScrollTop()
	case plain(ev, 'G'), plain(ev, '>'), ev.Key == term.KeyEnd:
		t.ScrollBottom()
	case plain(ev, 'F'):
		t.SetFollow(true)
		m.flash("following the bottom (scroll up to leave)", now)
	case plain(ev, 'h'), ev.Key == term.KeyLeft:
		t.PrevTurn()
	case plain(ev, 'l'), ev.Key == term.KeyRight:
		t.NextTurn()
	case ev.Key == term.KeyTab && ev.Mod == 0, plain(ev, ']'):
		t.FocusNext(1)
	case ev.Key == term.KeyTab && ev.Mod&term.ModShift != 0, plain(ev, '['):
		t.FocusNext(-1)
	case plain(ev, 'o'), plain(ev, 'z'):
		t.ToggleCollapse()
	case plain(ev, 'O'):
		t.CollapseAll(false)
	case plain(ev, 'Z'):
		t.CollapseAll(true)
	case plain(ev, '/'), plain(ev, '?'):
		t.BeginSearch(ev.Rune == '?')
		m.input = inputLine{kind: inputSearch, label: string(ev.Rune)}
	case plain(ev, '&'):
		m.input = inputLine{kind: inputFilter, label: "&"}
		m.input.ed.SetText(t.Filter())
	case plain(ev, 'n'):
		if !t.SearchNext(false) {
			m.flash("pattern not found", now)
		}
	case plain(ev, 'N'):
		if !t.SearchNext(true) {
			m.flash("pattern not found", now)
		}
	case plain(ev, 'y'):
		return m.copyFocused(now)
	case plain(ev, 'm'):
		return []Effect{MouseEffect{}}
	case plain(ev, 'q'), plain(ev, 'i'), ev.Key == term.KeyEscape:
		t.Unfocus()
		m.focus = focusPrompt
	case ev.Key == term.KeyF1, plain(ev, 'H'):
		m.overlay = helpLines()
	}
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
		if ev.Release || ev.Motion {
			return nil
		}
		f := m.tr.Frame()
		if ev.Y >= 0 && ev.Y < len(f.Blocks) && f.Blocks[ev.Y] != 0 {
			m.tr.Focus(f.Blocks[ev.Y])
			m.focus = focusPager
		}
	default:
		return nil
	}
	m.dirty = true
	return nil
}

// completePath completes the @path word before the cursor against the
// working directory.
func (m *Model) completePath(now time.Time) {
	text := m.editor.Text()[:m.editor.Cursor()]
	at := strings.LastIndexAny(text, " \n\t")
	word := text[at+1:]
	if !strings.HasPrefix(word, "@") {
		return
	}
	prefix := word[1:]
	dir, base := filepath.Split(prefix)
	entries, err := os.ReadDir(filepath.Join(".", dir))
	if err != nil {
		return
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

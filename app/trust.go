package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/term"
)

// trustPanel is the question about the project's files while it waits:
// its text laid out at a width, whether the files themselves are shown
// (v) instead of what they do, and how far it is scrolled.
type trustPanel struct {
	q     *TrustQuestion
	view  bool
	top   int
	width int
	rows  []previewRow
	laid  bool
}

// AskTrust shows the question about the project's files; it takes the
// keys until it is answered.
func (m *Model) AskTrust(q *TrustQuestion) {
	if q == nil || len(q.Files) == 0 {
		return
	}
	m.trust = &trustPanel{q: q}
	m.dirty = true
}

// TrustPending reports whether the question about the project's files
// waits for an answer.
func (m *Model) TrustPending() bool { return m.trust != nil }

// trustKey answers the question: y trusts the files, n declines them, v
// shows the files themselves (or, again, what they do), Esc leaves them
// out this time; ↑↓ (k, j) scroll, PgUp and PgDn scroll the transcript.
func (m *Model) trustKey(ev term.KeyEvent) []Effect {
	p := m.trust
	switch {
	case plain(ev, 'y') || plain(ev, 'Y'):
		return m.answerTrust(TrustYes, "applying the project's files…")
	case plain(ev, 'n') || plain(ev, 'N'):
		return m.answerTrust(TrustNo, "recording your answer…")
	case ev.Key == term.KeyEscape:
		return m.answerTrust(TrustLater, "")
	case plain(ev, 'v') || plain(ev, 'V'):
		p.view, p.top, p.laid = !p.view, 0, false
	case ev.Key == term.KeyPageUp || ev.Key == term.KeyPageDown:
		return m.pagerKey(ev, time.Time{})
	case ev.Key == term.KeyDown || plain(ev, 'j'):
		p.top++
	case ev.Key == term.KeyUp || plain(ev, 'k'):
		p.top = max(p.top-1, 0)
	}
	return nil
}

func (m *Model) answerTrust(a TrustAnswer, label string) []Effect {
	m.trust = nil
	if label != "" {
		m.switching, m.switchingLabel = true, label
	}
	return []Effect{TrustEffect{Answer: a}}
}

// lines is the panel's text at width w.
func (p *trustPanel) lines(w int) []previewRow {
	if p.laid && p.width == w {
		return p.rows
	}
	var text []previewRow
	add := func(s string, st render.Style) {
		for i, part := range wrapPrompt(render.ExpandTabs(s, previewTabWidth), max(w-4, 1)) {
			text = append(text, previewRow{text: part, style: st, cont: i > 0})
		}
	}
	for _, f := range p.q.Files {
		head := f.Name + " — " + f.What
		switch f.Before {
		case "trusted":
			head += " (changed since you trusted it)"
		case "declined":
			head += " (changed since you declined it)"
		}
		add(head, render.Style{Attrs: render.Bold})
		body := f.Summary
		if p.view || body == nil {
			body = strings.Split(strings.TrimRight(f.Content, "\n"), "\n")
		}
		for _, l := range body {
			add("    "+l, render.Style{})
		}
	}
	p.rows, p.width, p.laid = text, w, true
	return text
}

// trustRows is the panel's height on a w×h screen, or 0 when no question
// waits: its text, the question and the keys, in at most two thirds of
// the screen.
func (m *Model) trustRows(w, h int) int {
	if m.trust == nil {
		return 0
	}
	return min(3+len(m.trust.lines(w)), max(h*2/3, 4))
}

// drawTrust draws the question in rows [y, y+rows).
func (m *Model) drawTrust(b *render.Buffer, w, y, rows int) {
	p := m.trust
	n := len(p.q.Files)
	title := "This project has a file that would make quire run programs or change settings:"
	if n > 1 {
		title = fmt.Sprintf("This project has %d files that would make quire run programs or change settings:", n)
	}
	b.SetString(0, y, fitWidth(title, w), styleWarn, "")
	lines := p.lines(w)
	p.top, _ = drawPreviewRows(b, y+1, rows-3, lines, p.top)
	ask := "Trust them? " + p.q.Applies
	if n == 1 {
		ask = "Trust it? " + strings.ReplaceAll(p.q.Applies, " them ", " it ")
	}
	b.SetString(0, y+rows-2, fitWidth(ask, w), render.Style{}, "")
	view := "[v] view the files"
	if p.view {
		view = "[v] what they do"
	}
	keys := "[y] yes, trust  [n] no, don't ask again  " + view + "  [Esc] not now"
	if render.StringWidth(keys) > w {
		keys = "[y] trust  [n] never  [v] view  [Esc] not now"
	}
	b.SetString(0, y+rows-1, keys, styleAccent, "")
}

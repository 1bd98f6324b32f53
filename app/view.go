package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/scrollback"
	"github.com/rivo/uniseg"
)

// The styles of the app's own chrome; the transcript brings its theme.
var (
	styleMuted    = render.Style{Fg: render.ANSI(8)}
	styleStatus   = render.Style{Fg: render.ANSI(7)}
	styleAccent   = render.Style{Fg: render.ANSI(6), Attrs: render.Bold}
	styleWarn     = render.Style{Fg: render.ANSI(3), Attrs: render.Bold}
	styleRule     = render.Style{Fg: render.ANSI(8)}
	styleFocusBar = render.Style{Fg: render.ANSI(6)}
)

// maxPromptRows caps the prompt's height; longer prompts scroll inside it.
const maxPromptRows = 8

// previewTabWidth is the tab stop of an approval's preview.
const previewTabWidth = 4

// spinnerFrames advance every spinnerInterval while work runs.
var spinnerFrames = [...]string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Cursor is where the terminal cursor should be after a frame.
type Cursor struct {
	X, Y    int
	Visible bool
}

// DrawFull paints the full-screen view into b: the transcript pager, the
// approval panel when a call waits, the prompt (or a one-line input) and
// the status line.
func (m *Model) DrawFull(b *render.Buffer, now time.Time) Cursor {
	w, h := b.Size()
	if w <= 0 || h <= 0 {
		return Cursor{}
	}
	// Lay the transcript out once per frame, at the height the chrome
	// leaves, and give the status line the frame's position.
	th := h - m.chromeRows(w, h)
	m.tr.Resize(max(w-gutter, 1), max(th, 1))
	if th <= 0 {
		m.drawBottom(b, w, h, h, now, nil)
		return m.cursor
	}
	f := m.tr.Draw(b, gutter, 0)
	m.drawBottom(b, w, h, h, now, &f.Position)
	if m.focus == focusPager {
		for y := f.FocusTop; y < f.FocusEnd; y++ {
			b.SetString(0, y, "▎", styleFocusBar, "")
		}
	}
	if m.sel.active && m.sel.moved {
		drawSelection(b, m.sel, f.Position.Top-1, w, th)
	}
	if m.overlay != nil {
		drawOverlay(b, m.overlay, w, th)
	}
	return m.cursor
}

// drawSelection shows the dragged selection in reverse video. top is the
// transcript line on the first screen row.
func drawSelection(b *render.Buffer, sel selection, top, w, h int) {
	a, z := sel.from, sel.to
	if z.Line < a.Line || z.Line == a.Line && z.Col < a.Col {
		a, z = z, a
	}
	for line := max(a.Line, top); line <= z.Line && line-top < h; line++ {
		y := line - top
		x0, x1 := gutter, w
		if line == a.Line {
			x0 = gutter + a.Col
		}
		if line == z.Line {
			x1 = min(gutter+z.Col, w)
		}
		for x := x0; x < x1; x++ {
			c := b.Cell(x, y)
			if c.Width() == 0 {
				continue
			}
			st := c.Style
			st.Attrs ^= render.Reverse
			b.SetString(x, y, c.String(), st, c.Link)
		}
	}
}

// DrawLive paints the inline view's live region into b, whose height the
// caller chose with LiveHeight: the still-changing tail of the
// transcript, the approval panel, the prompt and the status line.
func (m *Model) DrawLive(b *render.Buffer, live []render.Line, now time.Time) Cursor {
	w, h := b.Size()
	if w <= 0 || h <= 0 {
		return Cursor{}
	}
	// The approval panel is sized for the screen, as LiveHeight sized
	// this region for it, not for the region it is drawn in.
	screenH := h
	if m.height > 0 {
		screenH = m.height
	}
	bottom := m.drawBottom(b, w, h, screenH, now, nil)
	// The live tail fills what is left above, showing its last lines.
	start := max(len(live)-bottom, 0)
	for y := 0; y < bottom && start+y < len(live); y++ {
		b.SetLine(0, y, live[start+y])
	}
	return m.cursor
}

// LiveContent is what the inline live region shows above the prompt: the
// transcript's still-changing tail, or an open overlay (help, the session
// list) in its place.
func (m *Model) LiveContent(tail []render.Line) []render.Line {
	if m.overlay == nil {
		return tail
	}
	lines := make([]render.Line, 0, len(m.overlay)+1)
	for _, s := range wrapOverlay(m.overlay, m.width-1) {
		lines = append(lines, render.Plain(s, render.Style{}))
	}
	return append(lines, render.Plain("any key closes this", styleMuted))
}

// LiveHeight is the inline region's height for a terminal of the given
// height: the chrome plus as much of the live tail as fits in half the
// screen.
func (m *Model) LiveHeight(width, height, liveLines int) int {
	chrome := m.chromeRows(width, height)
	return max(1, min(height-1, chrome+min(liveLines, max(height/2-chrome, 0))))
}

// drawBottom draws the chrome from the bottom of b up and returns the
// first row it used (the rows above are the caller's).
// screenH is the terminal's height, which sizes the approval panel. pos
// is the pager's position, shown in full-screen mode; nil inline.
func (m *Model) drawBottom(b *render.Buffer, w, h, screenH int, now time.Time, pos *scrollback.Position) int {
	y := h - 1
	m.drawStatus(b, w, y, now, pos)
	y--
	rows := m.promptRows(w)
	y -= rows
	m.drawPrompt(b, w, y+1, rows)
	if y < 0 {
		return 0
	}
	m.chrome.rule.add(0, m.chrome.ruleOf(w), styleRule)
	m.chrome.rule.draw(b, y)
	if n := m.trustRows(w, screenH); n > 0 && y-n >= 0 {
		y -= n
		m.drawTrust(b, w, y, n)
	}
	if n := m.approvalRows(w, screenH); n > 0 && y-n >= 0 {
		y -= n
		m.drawApproval(b, w, y, n)
	}
	if m.perf != nil && y > 0 {
		y--
		b.SetString(0, y, fitParts(m.perf.summary(), w), styleMuted, "")
	}
	return y
}

// chromeRows is how many rows drawBottom uses at the bottom of a w×h
// surface: the status line, the prompt, the rule, the approval panel
// when one waits and fits, and the /perf row when it is on.
func (m *Model) chromeRows(w, h int) int {
	rows := 2 + m.promptRows(w)
	if n := m.trustRows(w, h); n > 0 && h-rows-n >= 0 {
		rows += n
	}
	if n := m.approvalRows(w, h); n > 0 && h-rows-n >= 0 {
		rows += n
	}
	if m.perf != nil && rows < h {
		rows++
	}
	return min(rows, h)
}

// promptRows is the prompt's height in rows at width w.
func (m *Model) promptRows(w int) int {
	if m.input.kind != inputNone {
		return 1
	}
	return min(len(wrapPrompt(m.editor.Text(), max(w-2, 1))), maxPromptRows)
}

// drawPrompt draws the editor (or the one-line input) in rows [y, y+rows)
// and records where the cursor goes.
func (m *Model) drawPrompt(b *render.Buffer, w, y, rows int) {
	if m.input.kind != inputNone {
		x := b.SetString(0, y, m.input.label, styleAccent, "")
		text := m.input.ed.Text()
		cur := m.input.ed.Cursor()
		x0 := x
		x += b.SetString(x, y, text, render.Style{}, "")
		if m.input.kind == inputHistory {
			if match := m.historyMatch(); match != "" {
				b.SetString(x+1, y, "→ "+strings.ReplaceAll(match, "\n", "⏎"), styleMuted, "")
			}
		}
		m.cursor = Cursor{X: min(x0+render.StringWidth(text[:cur]), w-1), Y: y, Visible: true}
		return
	}
	lines := wrapPrompt(m.editor.Text(), max(w-2, 1))
	crow, ccol := promptCursor(m.editor.Text(), m.editor.Cursor(), max(w-2, 1))
	first := 0
	if crow >= rows {
		first = crow - rows + 1
	}
	for i := 0; i < rows && first+i < len(lines); i++ {
		marker := "  "
		if first+i == 0 {
			marker = "› "
		}
		row := &m.chrome.prompt[i]
		row.add(0, marker, styleAccent)
		row.add(2, lines[first+i], render.Style{})
		if i == 0 && m.editor.Empty() {
			row.add(2, m.promptHint(w), styleMuted)
		}
		row.draw(b, y+i)
	}
	visible := (len(m.approvals) == 0 || m.input.kind != inputNone) && m.trust == nil
	m.cursor = Cursor{X: 2 + ccol, Y: y + crow - first, Visible: visible && m.focus == focusPrompt}
}

// promptHint is the hint an empty prompt shows, fitted to w columns. It
// is made again only when what it depends on changes.
func (m *Model) promptHint(w int) string {
	key := hintKey{width: w, replay: m.status.Replay, running: m.running, minimal: m.minimal, shiftEnter: m.status.ShiftEnter}
	if c := &m.chrome; c.hintOK && c.hintKey == key {
		return c.hint
	}
	newline := "Ctrl+J"
	if m.status.ShiftEnter {
		newline = "Shift+Enter"
	}
	hint := []string{"Ask anything", "Enter sends", newline + " newline", "Esc pager", "F1 help"}
	switch {
	case m.status.Replay:
		hint = []string{"replay", "p pause/resume", ". step", "q quit", "/ search", "h/l turns", "F1 help"}
	case m.running:
		hint = []string{"Esc cancels", "type to queue the next prompt"}
	case m.minimal:
		hint = []string{"Ask anything", "Enter sends", newline + " newline", "/mode full for the pager", "F1 help"}
	}
	c := &m.chrome
	c.hint, c.hintKey, c.hintOK = fitParts(hint, w-2), key, true
	return c.hint
}

// fitParts joins the parts of a hint with " · ", leaving out the last
// ones until it fits in w columns: a hint cut mid-word reads as a bug.
func fitParts(parts []string, w int) string {
	for n := len(parts); n > 1; n-- {
		if s := strings.Join(parts[:n], " · "); render.StringWidth(s) <= w {
			return s
		}
	}
	return parts[0]
}

// wrapPrompt splits text into display rows of at most width columns,
// breaking logical lines at newlines and graphemes at the width.
func wrapPrompt(text string, width int) []string {
	var rows []string
	for _, line := range strings.Split(text, "\n") {
		for {
			cut, w := 0, 0
			state := -1
			rest := line
			for len(rest) > 0 {
				c, r, _, st := uniseg.FirstGraphemeClusterInString(rest, state)
				cw := render.StringWidth(c) // counts control characters as drawn
				if w+cw > width {
					break
				}
				w += cw
				cut += len(c)
				rest, state = r, st
			}
			if cut == len(line) || cut == 0 {
				rows = append(rows, line)
				break
			}
			rows = append(rows, line[:cut])
			line = line[cut:]
		}
	}
	return rows
}

// promptCursor finds the display row and column of byte offset cursor in
// text wrapped by wrapPrompt.
func promptCursor(text string, cursor, width int) (row, col int) {
	before := wrapPrompt(text[:cursor], width)
	row = len(before) - 1
	col = render.StringWidth(before[row])
	if col >= width { // at the wrap point the cursor starts the next row
		row, col = row+1, 0
	}
	return row, col
}

// approvalRows is the approval panel's height, or 0 when nothing waits.
func (m *Model) approvalRows(w, h int) int {
	if len(m.approvals) == 0 {
		return 0
	}
	return min(2+len(m.preview(w).rows), max(h/2, 3))
}

// previewRow is one row of an approval preview.
type previewRow struct {
	text  string
	style render.Style
	cont  bool // continues the row above: the line was wrapped
}

// preview is the oldest approval's preview laid out at width w, and
// how far it is scrolled. The layout is kept while the call, its
// preview and the width stay the same (a large diff is wrapped once, not
// twice a frame); a new call starts unscrolled.
func (m *Model) preview(w int) *previewState {
	a := &m.approvals[0]
	p := &m.previewState
	if p.id != a.CallID {
		*p = previewState{id: a.CallID}
	}
	if !p.laid || p.width != w || p.text != a.Preview {
		th := m.tr.Theme()
		p.rows, p.text, p.width, p.laid = approvalPreview(a.Preview, w, &th), a.Preview, w, true
	}
	return p
}

// previewState is the oldest approval's preview: its rows at a width,
// and the first row on screen.
type previewState struct {
	id, text string
	width    int
	laid     bool
	rows     []previewRow
	top      int
}

// approvalPreview lays a call's preview out at width w. Long lines are
// wrapped, never clipped: a command is approved for all it says, and
// the end of a long one is where something unwanted would hide. Lines
// are styled as the transcript styles a diff, in its theme.
func approvalPreview(preview string, w int, th *scrollback.Theme) []previewRow {
	if preview == "" {
		return nil
	}
	var rows []previewRow
	for _, l := range strings.Split(strings.TrimRight(preview, "\n"), "\n") {
		shown := render.ExpandTabs(l, previewTabWidth)
		if l != "" && strings.ContainsRune("+- ", rune(l[0])) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			shown = l[:1] + render.ExpandTabs(l[1:], previewTabWidth) // tab stops count from the text, not the diff marker
		}
		style := th.DiffStyle(l)
		for i, part := range wrapPrompt(shown, max(w-2, 1)) {
			rows = append(rows, previewRow{text: part, style: style, cont: i > 0})
		}
	}
	return rows
}

// drawApproval draws the question about the oldest pending call, marked
// with the agent's name when a subagent asks.
func (m *Model) drawApproval(b *render.Buffer, w, y, rows int) {
	a := m.approvals[0]
	x := 0
	if a.Subagent != "" {
		// A subagent's call, asked through this session: say whose.
		who := a.Agent
		if who == "" {
			who = "subagent"
		}
		x += b.SetString(x, y, "["+fitWidth(who, 24)+"] ", styleAccent, "")
	}
	x += b.SetString(x, y, "Allow ", styleWarn, "")
	x += b.SetString(x, y, a.Tool, render.Style{Attrs: render.Bold}, "")
	if a.Target != "" {
		// The question mark stays in view; the preview below shows the
		// target whole.
		target := fitWidth(render.FirstLine(a.Target), w-x-3)
		b.SetString(x, y, " "+target+" ?", render.Style{}, "")
	}
	p := m.preview(w)
	var unmarked bool
	p.top, unmarked = drawPreviewRows(b, y+1, rows-2, p.rows, p.top)
	keys := "[y] yes  [a] yes for this session  [n] no, with a reason  [Esc] no"
	switch {
	case unmarked:
		// No room to mark the rows out of view: say here that there are.
		keys = "[y] yes  [a] session  [n] no+reason  [Esc] no  [↑↓] more"
	case render.StringWidth(keys) > w:
		keys = "[y] yes  [a] session  [n] no+reason  [Esc] no"
	}
	b.SetString(0, y+rows-1, keys, styleAccent, "")
}

// drawPreviewRows draws the rows of a scrolled preview from screen row y,
// in room rows, scrolled to top, with marks saying how many rows are
// above and below. It returns the top clamped to what can show, and
// whether rows are out of view with no room to mark them.
func drawPreviewRows(b *render.Buffer, y, room int, lines []previewRow, top int) (int, bool) {
	first, count, above, below := previewWindow(len(lines), room, top)
	row := y
	if above {
		b.SetString(2, row, fmt.Sprintf("↑ %d more rows", first), styleMuted, "")
		row++
	}
	for _, l := range lines[first : first+count] {
		if l.cont {
			b.SetString(0, row, "↪", styleMuted, "")
		}
		b.SetString(2, row, l.text, l.style, "")
		row++
	}
	if below {
		b.SetString(2, row, fmt.Sprintf("↓ %d more rows · ↑↓ scroll", len(lines)-first-count), styleMuted, "")
	}
	return first, count < len(lines) && !above && !below
}

// previewWindow picks the rows of an n-row preview that show in room
// rows when scrolled to top: count rows from first, and whether a row
// above or below is spent marking what is out of view. A panel of fewer
// than three rows has no marks: they would leave no room for the
// preview.
func previewWindow(n, room, top int) (first, count int, above, below bool) {
	if n <= room {
		return 0, n, false, false
	}
	if room < 3 {
		first = min(max(top, 0), n-room)
		return first, room, false, false
	}
	// At the end the mark above takes a row, so one more row of scroll
	// is needed to show the last.
	first = min(max(top, 0), n-room+1)
	above = first > 0
	count = room
	if above {
		count--
	}
	if n-first > count {
		below = true
		count--
	}
	return first, count, above, below
}

// fitWidth cuts s to at most w columns, ending it with "…" when cut.
func fitWidth(s string, w int) string {
	if render.StringWidth(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	rows := wrapPrompt(s, max(w-1, 1))
	return rows[0] + "…"
}

// drawStatus draws the status line: activity, model, sandbox, approval
// mode, context use, tokens, and (full-screen) the pager position.
func (m *Model) drawStatus(b *render.Buffer, w, y int, now time.Time, pos *scrollback.Position) {
	var left string
	st := styleStatus
	switch {
	case m.notice != "":
		left, st = m.notice, styleWarn
	case m.switching:
		left = m.switchingLabel
	case m.running:
		frame := spinnerFrames[int(now.Sub(m.turnStarted)/spinnerInterval)%len(spinnerFrames)]
		left = frame + " working " + formatElapsed(now.Sub(m.turnStarted))
	case m.status.Replay:
		left = "replay"
	case m.focus == focusPager && pos != nil:
		left = "pager · q back to prompt · / search · F1 help"
	default:
		left = "ready"
	}
	if m.unsaved && m.notice == "" {
		left, st = left+" · not saved", styleWarn
	}
	row := &m.chrome.status
	row.add(0, left, st)
	defer row.draw(b, y)
	x := render.DrawnWidth(left, w)
	parts := []string{}
	model := m.status.Model
	if m.status.Demo {
		model = "demo model"
	}
	if m.status.Replay {
		parts = append(parts, "replay")
	}
	parts = append(parts, model, "sandbox:"+m.status.Sandbox, "approval:"+m.status.Approval)
	if m.ctxWindow > 0 {
		parts = append(parts, "ctx "+strconv.Itoa(m.ctxTokens*100/m.ctxWindow)+"%")
	}
	if m.usage.TotalTokens > 0 {
		parts = append(parts, formatTokens(m.usage.TotalTokens)+" tok")
	}
	if m.costKnown {
		parts = append(parts, formatCost(m.cost, m.costPartial))
	}
	if m.extStatus != "" {
		parts = append(parts, m.extStatus)
	}
	if pos != nil {
		parts = append(parts, strconv.Itoa(pos.Bottom)+"/"+strconv.Itoa(pos.Total)+" "+strconv.Itoa(pos.Percent())+"%")
		if s := m.tr.Search(); s.Pattern != "" {
			parts = append(parts, s.String())
		}
		if f := m.tr.Filter(); f != "" {
			parts = append(parts, "&"+f)
		}
	}
	// Drop the least important parts until the line fits: the model name
	// goes last.
	for len(parts) > 0 {
		right := strings.Join(parts, " · ")
		rw := render.StringWidth(right)
		if x+2+rw <= w {
			row.add(w-rw, right, styleMuted)
			return
		}
		if len(parts) > 1 {
			parts = append(parts[:1], parts[2:]...)
		} else {
			parts = parts[:0]
		}
	}
}

// formatCost is a cost in US dollars for the status line: $0.004, $1.23,
// with a + when some turn's price was unknown.
func formatCost(usd float64, partial bool) string {
	s := "$" + strconv.FormatFloat(usd, 'f', 2, 64)
	if usd < 0.01 {
		s = "$" + strconv.FormatFloat(usd, 'f', 3, 64)
	}
	if partial {
		s += "+"
	}
	return s
}

func formatElapsed(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Minute {
		return strconv.Itoa(int(d/time.Second)) + "s"
	}
	sec := int(d % time.Minute / time.Second)
	pad := ""
	if sec < 10 {
		pad = "0"
	}
	return strconv.Itoa(int(d/time.Minute)) + "m" + pad + strconv.Itoa(sec) + "s"
}

func formatTokens(n int) string {
	if n < 1000 {
		return strconv.Itoa(n)
	}
	return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
}

// wrapOverlay fits overlay lines (a label column, then text) into w
// columns: a line too wide breaks at a space, and what follows goes on
// lines of its own, indented to where its text began.
func wrapOverlay(lines []string, w int) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		for render.StringWidth(l) > w {
			cut := columnCut(l, w)
			// The text column starts after the last gap of two or more
			// spaces before the cut.
			indent := 0
			if g := strings.LastIndex(l[:cut], "  "); g >= 0 {
				text := cut - len(strings.TrimLeft(l[g:cut], " "))
				indent = render.StringWidth(l[:text])
			}
			if indent+8 > w {
				indent = min(4, w/4) // the column is too far right to keep
			}
			if sp := strings.LastIndexByte(l[:cut], ' '); sp > indent {
				cut = sp
			}
			out = append(out, strings.TrimRight(l[:cut], " "))
			l = strings.Repeat(" ", indent) + strings.TrimLeft(l[cut:], " ")
		}
		out = append(out, l)
	}
	return out
}

// columnCut is the byte offset of the first cluster of s that does not
// fit in w columns.
func columnCut(s string, w int) int {
	rows := wrapPrompt(s, max(w, 1))
	return len(rows[0])
}

// helpLines is the F1 overlay, the custom commands last. Shift+Enter is offered only where the
// terminal tells it from Enter.
func helpLines(shiftEnter bool, external []Command) []string {
	newline := "Ctrl+J / Alt+Enter newline"
	if shiftEnter {
		newline = "Ctrl+J / Alt+Enter / Shift+Enter newline"
	}
	keys := []string{
		"Prompt            Enter send · " + newline,
		"                  Ctrl+A/E line start/end · Alt+B/F word · Ctrl+K/U/W/Y kill, yank",
		"                  Up/Down history · Ctrl+R search history · Tab complete /cmd, @path",
		"                  Ctrl+G edit in $EDITOR · Esc cancel turn or open the pager",
		"Pager (Esc)       j/k line · Space/b page · d/u half page · g/G top/bottom",
		"                  h/l previous/next turn · Tab focus block · o fold · O fold all · E unfold all",
		"                  / ? search · n/N next/prev · & filter · F follow · y copy block · 10j counts",
		"                  m mouse capture on/off · q or i back to the prompt",
		"Approvals         y yes · a yes for this session · n no (+reason) · Esc no",
		"                  ↑/↓ or k/j scroll a long preview · PgUp/PgDn scroll the transcript",
		"Anywhere          Ctrl+C cancel / clear / twice to quit · Ctrl+Z suspend · Ctrl+L redraw",
		"",
	}
	return append(keys, slashHelp(external)...)
}

// drawOverlay draws text over the top rows of the transcript.
func drawOverlay(b *render.Buffer, lines []string, w, h int) {
	lines = wrapOverlay(lines, w-2)
	for i := 0; i < len(lines) && i+1 < h; i++ {
		b.Fill(0, i, w, 1, render.Style{})
		b.SetString(1, i, lines[i], render.Style{}, "")
	}
	if len(lines)+1 < h {
		b.Fill(0, len(lines), w, 1, render.Style{})
		b.SetString(1, len(lines), "any key closes this", styleMuted, "")
	}
}

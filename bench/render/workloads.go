package renderbench

import (
	"fmt"
	"math/rand/v2"

	"github.com/quire-sh/quire/render"
)

// Size is a terminal size in cells.
type Size struct{ W, H int }

func (s Size) String() string { return fmt.Sprintf("%dx%d", s.W, s.H) }

// Sizes are the terminal sizes every workload runs at.
var Sizes = []Size{{200, 50}, {80, 24}}

// Workloads returns every workload at size s, in table order.
func Workloads(s Size) []*Workload {
	return []*Workload{
		StreamAppend(s, false),
		StreamInline(s),
		IdleTick(s),
		Unchanged(s),
		Scroll(s, 1),
		Scroll(s, 3),
		Scroll(s, 0),
		InsertHistory(s, 200),
		InsertHistory(s, 10),
		Resize(s),
		StreamAppend(s, true),
		WideScroll(s),
		LinkList(s),
	}
}

// chrome draws the rows around a transcript view.
type chrome struct {
	b *builder
	w int
}

func (c chrome) header(title string) *Row {
	return c.b.row(c.w, render.Style{Bg: theme.header.Bg},
		render.Span{Text: " quire ", Style: theme.header},
		render.Span{Text: "· ~/src/quire · " + title, Style: theme.headerDim})
}

func (c chrome) footer(text string) *Row {
	return c.b.row(c.w, theme.footer, render.Span{Text: " " + text, Style: theme.footer})
}

func (c chrome) status(i int, what string) *Row {
	return c.b.row(c.w, render.Style{},
		render.Span{Text: " " + spinnerFrames[i%len(spinnerFrames)] + " ", Style: theme.spinner},
		render.Span{Text: what, Style: theme.status},
		render.Span{Text: " · esc to interrupt", Style: theme.dim})
}

func (c chrome) prompt() *Row {
	return c.b.row(c.w, render.Style{},
		render.Span{Text: "› ", Style: theme.user},
		render.Span{Text: "Ask anything, / for commands", Style: theme.dim})
}

func (c chrome) lines(spans [][]render.Span) []*Row {
	rows := make([]*Row, len(spans))
	for i, l := range spans {
		rows[i] = c.b.row(c.w, render.Style{}, l...)
	}
	return rows
}

// stream lays a reply out token by token: rows that are finished, and
// the row still being written.
type stream struct {
	b        *builder
	width    int
	finished []*Row
	cur      []render.Span
	curW     int
}

func (st *stream) add(t token) {
	if t.Break {
		st.finished = append(st.finished, st.b.row(st.width, render.Style{}, st.cur...), st.b.blank(st.width))
		st.cur, st.curW = nil, 0
		return
	}
	var done [][]render.Span
	st.cur, st.curW, done = appendToken(st.cur, st.curW, nil, t.Span, st.width)
	for _, l := range done {
		st.finished = append(st.finished, st.b.row(st.width, render.Style{}, l...))
	}
}

// current is the row being written, as a new row.
func (st *stream) current() *Row { return st.b.row(st.width, render.Style{}, st.cur...) }

// replyPeriod returns tokens that repeat seamlessly: whole paragraphs
// (ending on a break, so each period starts on a fresh row) filling at
// least rows rows at width.
func replyPeriod(width, rows int, tokens func(*rand.Rand, int) []token) []token {
	rng := newRNG(1)
	var period []token
	for len(wrapTokens(period, width)) < rows {
		period = append(period, tokens(rng, 1)...)
	}
	return period
}

// StreamAppend (W1, and W6 with wide) streams a reply one token per frame
// into the bottom of a full-screen transcript that follows the tail, with
// a spinner and a token count in the status row. The reply's text repeats
// with a period that ends on a paragraph break and fills more than a
// screen, so the loop is seamless: the frame after the last equals the
// first.
func StreamAppend(s Size, wide bool) *Workload {
	name, note := "W1StreamAppend/fullscreen/"+s.String(), "one token per frame, tail-follow, spinner"
	tokens := proseTokens
	if wide {
		name, note = "W6Wide/stream/"+s.String(), "W1 with CJK and emoji tokens"
		tokens = wideTokens
	}
	b := newBuilder(name, FullScreen, note)
	c := chrome{b, s.W}
	view := s.H - 3
	period := replyPeriod(s.W, view+2, tokens)
	header, prompt := c.header("streaming"), c.prompt()
	st := &stream{b: b, width: s.W}
	shown := 0
	for p := range 2 {
		for j, t := range period {
			st.add(t)
			var hint ScrollHint
			if d := len(st.finished) + 1 - shown; d > 0 && shown > 0 {
				hint = ScrollHint{Top: 1, Bottom: 1 + view, N: d}
			}
			shown = len(st.finished) + 1
			if p == 0 {
				continue // the first period only builds the history the view shows
			}
			rows := make([]*Row, 0, s.H)
			rows = append(rows, header)
			rows = append(rows, st.finished[len(st.finished)-(view-1):]...)
			rows = append(rows, st.current(),
				c.status(j, fmt.Sprintf("Streaming · %d tokens · %.1fs", j, float64(j)/10)),
				prompt)
			f := b.frame(s.W, s.H, rows)
			f.Scroll = hint
			b.w.Frames = append(b.w.Frames, f)
		}
	}
	return b.done()
}

// StreamInline (W1, inline) streams a reply one token per frame into an
// inline live region that shows the reply's last rows, a status row and
// the prompt; each row that leaves the top of the live region is inserted
// into history above it, so the reply ends up in the terminal's
// scrollback. The prologue is the live region as the first period left
// it, drawn at the top of an empty terminal.
func StreamInline(s Size) *Workload {
	const tail = 6 // rows of the reply the live region shows
	b := newBuilder("W1StreamAppend/inline/"+s.String(), Inline, "one token per frame into an inline live region; finished rows to scrollback")
	c := chrome{b, s.W}
	period := replyPeriod(s.W, tail+2, proseTokens)
	prompt := c.prompt()
	st := &stream{b: b, width: s.W}
	committed := 0
	for p := range 2 {
		for j, t := range period {
			st.add(t)
			leave := len(st.finished) - (tail - 1) // rows that belong in history now
			live := func() []*Row {
				rows := append([]*Row{}, st.finished[leave:]...)
				return append(rows, st.current(),
					c.status(j, fmt.Sprintf("Streaming · %d tokens · %.1fs", j, float64(j)/10)), prompt)
			}
			if p == 0 {
				committed = max(leave, 0)
				if j == len(period)-1 {
					b.w.Prologue = []Frame{b.frame(s.W, s.H, live())}
				}
				continue
			}
			f := b.frame(s.W, s.H, live())
			f.Insert = st.finished[committed:leave]
			committed = leave
			b.w.Frames = append(b.w.Frames, f)
		}
	}
	return b.done()
}

// idleView is a settled transcript screen with a status row.
func idleView(b *builder, s Size) (header *Row, view []*Row, prompt *Row) {
	c := chrome{b, s.W}
	spans := transcriptLines(newRNG(2), s.W, s.H, false)
	return c.header("idle"), c.lines(spans[:s.H-3]), c.prompt()
}

// IdleTick (W2) changes only the spinner (every frame) and the elapsed
// seconds (every tenth frame) of a settled screen.
func IdleTick(s Size) *Workload {
	b := newBuilder("W2IdleTick/spinner/"+s.String(), FullScreen, "spinner only")
	c := chrome{b, s.W}
	header, view, prompt := idleView(b, s)
	for i := range 100 {
		rows := append([]*Row{header}, view...)
		rows = append(rows, c.status(i, fmt.Sprintf("Thinking · %ds", i/10)), prompt)
		b.w.Frames = append(b.w.Frames, b.frame(s.W, s.H, rows))
	}
	return b.done()
}

// Unchanged (W2) draws the same frame over and over; the contract is 0
// bytes.
func Unchanged(s Size) *Workload {
	b := newBuilder("W2IdleTick/unchanged/"+s.String(), FullScreen, "identical frame, must be 0 bytes")
	c := chrome{b, s.W}
	header, view, prompt := idleView(b, s)
	rows := append([]*Row{header}, view...)
	rows = append(rows, c.status(0, "Waiting for input"), prompt)
	b.w.Frames = append(b.w.Frames, b.frame(s.W, s.H, rows))
	return b.done()
}

// Scroll (W3) scrolls a full-screen transcript under a fixed header and a
// footer whose position text changes, by n rows a frame (0 means a page,
// the whole view). The transcript is circular with a length that is a
// multiple of n, so the loop is seamless.
func Scroll(s Size, n int) *Workload {
	view := s.H - 2
	label, frames := fmt.Sprintf("by%d", n), 240/max(n, 1)
	if n == 0 {
		label, n, frames = "page", view, 20
	}
	b := newBuilder("W3Scroll/"+label+"/"+s.String(), FullScreen, "scroll a transcript under fixed chrome")
	return scrollFrames(b, s, n, frames, transcriptLines(newRNG(3), s.W, n*frames, false))
}

// WideScroll (W6) is W3 by 3 over a transcript dense in CJK and emoji.
func WideScroll(s Size) *Workload {
	b := newBuilder("W6Wide/scroll/"+s.String(), FullScreen, "W3 by 3 over CJK and emoji")
	return scrollFrames(b, s, 3, 80, transcriptLines(newRNG(6), s.W, 240, true))
}

// LinkList (W7) scrolls by one row a file list where every row carries two
// OSC 8 links.
func LinkList(s Size) *Workload {
	b := newBuilder("W7Links/scroll/"+s.String(), FullScreen, "OSC 8-dense file list, scroll by 1")
	rng := newRNG(7)
	spans := make([][]render.Span, 240)
	for i := range spans {
		spans[i] = fileLinkLine(rng, i+1)
	}
	return scrollFrames(b, s, 1, 240, spans)
}

func scrollFrames(b *builder, s Size, n, frames int, spans [][]render.Span) *Workload {
	c := chrome{b, s.W}
	view := s.H - 2
	period := n * frames
	spans = spans[:period]
	for len(spans) < view {
		spans = append(spans, spans...)
	}
	lines := c.lines(spans)
	header := c.header("transcript")
	for i := range frames {
		top := i * n
		rows := make([]*Row, 0, s.H)
		rows = append(rows, header)
		for r := range view {
			rows = append(rows, lines[(top+r)%len(lines)])
		}
		pos := top % period
		rows = append(rows, c.footer(fmt.Sprintf("lines %d–%d of %d  %d%%  ↑↓ scroll  / search  q quit",
			pos+1, pos+view, period, 100*pos/period)))
		f := b.frame(s.W, s.H, rows)
		f.Scroll = ScrollHint{Top: 1, Bottom: 1 + view, N: n}
		b.w.Frames = append(b.w.Frames, f)
	}
	return b.done()
}

// InsertHistory (W4) is inline mode: each frame inserts a batch of
// finished transcript lines into the terminal's scrollback above a
// three-row live region whose spinner ticks. The prologue draws the live
// region alone, at the top of an empty terminal, as an application does
// before the first lines arrive.
func InsertHistory(s Size, batch int) *Workload {
	b := newBuilder(fmt.Sprintf("W4InsertHistory/%d/%s", batch, s), Inline, "inline: finished lines into scrollback")
	c := chrome{b, s.W}
	batches := max(4, 800/batch)
	lines := c.lines(transcriptLines(newRNG(4), s.W, batch*batches, false)[:batch*batches])
	prompt := c.prompt()
	hint := b.row(s.W, render.Style{}, render.Span{Text: "  ctrl+o expand · ctrl+r history", Style: theme.dim})
	b.w.Prologue = []Frame{b.frame(s.W, s.H, []*Row{c.status(0, "Working"), prompt, hint})}
	for i := range batches {
		f := b.frame(s.W, s.H, []*Row{c.status(i, fmt.Sprintf("Working · %d lines", (i+1)*batch)), prompt, hint})
		f.Insert = lines[i*batch : (i+1)*batch]
		b.w.Frames = append(b.w.Frames, f)
	}
	return b.done()
}

// Resize (W5) alternates the terminal between two sizes; every frame is a
// full repaint of a transcript screen at the new size.
func Resize(s Size) *Workload {
	b := newBuilder("W5Resize/"+s.String(), FullScreen, "terminal resized every frame, full repaint")
	small := Size{s.W - s.W/5, s.H - s.H/5}
	spans := transcriptLines(newRNG(5), small.W, s.H, false)
	for _, z := range []Size{s, small} {
		c := chrome{b, z.W}
		rows := []*Row{c.header("resized")}
		rows = append(rows, c.lines(spans[:z.H-2])...)
		rows = append(rows, c.footer(fmt.Sprintf("%d×%d", z.W, z.H)))
		b.w.Frames = append(b.w.Frames, b.frame(z.W, z.H, rows))
	}
	return b.done()
}

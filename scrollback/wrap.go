package scrollback

import (
	"strings"
	"unicode/utf8"

	"github.com/quire-sh/quire/render"
	"github.com/rivo/uniseg"
)

// WrapOptions configures a Wrapper.
type WrapOptions struct {
	Width int
	Style render.Style
	// Words breaks lines at spaces (prose). Without it lines break at the
	// last cell that fits, the way a terminal wraps program output.
	Words bool
	// StripEscapes drops ANSI escape sequences (colours, cursor moves,
	// OSC titles) that programs write into their output.
	StripEscapes bool
	// TabWidth expands tabs to the next multiple of TabWidth columns
	// (default 8).
	TabWidth int
}

// Wrapper is the plain BodyRenderer: it wraps text by display width
// (grapheme clusters measured like the renderer measures them) in one
// style. Appending is incremental: only the last, still growing visual
// line is wrapped again, so streaming n bytes into one block costs O(n)
// overall, not O(n²). Every line but the last is frozen as soon as the
// greedy wrap has placed the next one, because a greedy break never moves
// once later text exists.
type Wrapper struct {
	opt   WrapOptions
	lines []render.Line // each carries how it joins the one before
	done  int           // lines[:done] are frozen

	// cur is the text from the start of the current (unfrozen) visual
	// line to the end of the input; curJoin is how that visual line
	// continues the previous one. col is the display width of the
	// current source line so far, for tab stops.
	cur      strings.Builder
	curJoin  render.Join
	col      int
	pendCR   bool
	carry    string // an incomplete UTF-8 sequence at the end of the last chunk
	esc      escState
	finished bool
}

type escState uint8

const (
	escNone escState = iota
	escStart
	escCSI
	escOSC
	escOSCEnd // saw ESC inside an OSC string; a following '\' ends it
)

// NewWrapper returns an empty Wrapper.
func NewWrapper(opt WrapOptions) *Wrapper {
	if opt.Width < 1 {
		opt.Width = 1
	}
	if opt.TabWidth <= 0 {
		opt.TabWidth = 8
	}
	return &Wrapper{opt: opt}
}

// PlainFactory is the default RendererFactory: word-wrapped text in one
// style.
func PlainFactory(style render.Style) RendererFactory {
	return func(width int) BodyRenderer {
		return NewWrapper(WrapOptions{Width: width, Style: style, Words: true})
	}
}

// Append adds a chunk of text. Chunks may split lines, escape sequences
// and "\r\n" anywhere.
func (w *Wrapper) Append(chunk string) {
	if w.finished {
		return
	}
	if w.carry != "" {
		chunk = w.carry + chunk
		w.carry = ""
	}
	chunk, w.carry = splitIncompleteRune(chunk)
	start := 0
	flush := func(end int) {
		if end > start {
			w.addText(chunk[start:end])
		}
	}
	for i := 0; i < len(chunk); i++ {
		c := chunk[i]
		if w.opt.StripEscapes && (w.esc != escNone || c == 0x1b) {
			flush(i)
			w.stepEscape(c)
			start = i + 1
			continue
		}
		switch c {
		case '\n':
			flush(i)
			start = i + 1
			w.pendCR = false
			w.endSourceLine()
		case '\r':
			flush(i)
			start = i + 1
			if w.pendCR {
				w.endSourceLine()
			}
			w.pendCR = true
		case '\t':
			flush(i)
			start = i + 1
			w.settleCR()
			n := w.opt.TabWidth - w.col%w.opt.TabWidth
			w.addText(strings.Repeat(" ", n))
		default:
			if w.pendCR {
				flush(i)
				start = i
				w.settleCR()
			}
		}
	}
	flush(len(chunk))
	w.rewrap(false)
}

// settleCR turns a lone carriage return into a line break: progress
// output that redraws a line shows each state instead of hiding text.
func splitIncompleteRune(s string) (whole, rest string) {
	for k := len(s) - 1; k >= 0 && k >= len(s)-utf8.UTFMax; k-- {
		if utf8.RuneStart(s[k]) {
			if !utf8.FullRuneInString(s[k:]) {
				return s[:k], s[k:]
			}
			break
		}
	}
	return s, ""
}

func (w *Wrapper) settleCR() {
	if w.pendCR {
		w.pendCR = false
		w.endSourceLine()
	}
}

func (w *Wrapper) stepEscape(c byte) {
	switch w.esc {
	case escNone:
		w.esc = escStart
	case escStart:
		switch c {
		case '[':
			w.esc = escCSI
		case ']', 'P', '_', '^', 'X':
			w.esc = escOSC
		default:
			w.esc = escNone // a two-byte sequence
		}
	case escCSI:
		if c >= 0x40 && c <= 0x7e {
			w.esc = escNone
		}
	case escOSC:
		if c == 0x07 {
			w.esc = escNone
		} else if c == 0x1b {
			w.esc = escOSCEnd
		}
	case escOSCEnd:
		if c == '\\' {
			w.esc = escNone
		} else if c != 0x1b {
			w.esc = escOSC
		}
	}
}

func (w *Wrapper) addText(s string) {
	w.settleCR()
	s = render.Sanitize(s)
	w.cur.WriteString(s)
	if isASCII(s) { // after Sanitize, ASCII is printable: one column a byte
		w.col += len(s)
	} else {
		w.col += render.StringWidth(s)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// endSourceLine freezes every visual line of the current source line,
// including an empty one (a blank line in the source).
func (w *Wrapper) endSourceLine() {
	w.rewrap(true)
	w.curJoin = render.JoinNewline
	w.col = 0
}

// Finish freezes whatever is pending.
func (w *Wrapper) Finish() {
	if w.finished {
		return
	}
	w.pendCR = false
	if w.carry != "" {
		w.addText(w.carry)
		w.carry = ""
	}
	if w.cur.Len() > 0 {
		w.rewrap(true)
	}
	w.finished = true
}

// rewrap lays out cur again. All visual lines but the last are frozen;
// with final set the last one is too. An empty source line that has only
// just begun shows nothing until it gets text or ends.
func (w *Wrapper) rewrap(final bool) {
	w.lines = w.lines[:w.done]
	orig := w.cur.String()
	s, join := orig, w.curJoin
	if join == render.JoinSpace { // spaces at a word-wrap break are dropped
		s = strings.TrimLeft(s, " ")
	}
	for {
		line, rest, next, broke := wrapOnce(s, w.opt.Width, w.opt.Words)
		if !broke {
			break
		}
		w.appendLine(line, join)
		w.done = len(w.lines)
		s, join = rest, next
	}
	show := s != "" || (final && join == render.JoinNewline)
	if show {
		w.appendLine(s, join)
	}
	if final {
		w.done = len(w.lines)
		w.cur.Reset()
		return
	}
	if len(s) != len(orig) {
		w.cur.Reset()
		w.cur.WriteString(s)
		w.curJoin = join
	}
}

func (w *Wrapper) appendLine(text string, join render.Join) {
	w.lines = append(w.lines, render.Line{
		Spans: []render.Span{{Text: text, Style: w.opt.Style}},
		Copy:  render.Copy{Join: join},
	})
}

// wrapOnce splits the first visual line off s. broke is false when all of
// s fits in width columns.
func wrapOnce(s string, width int, words bool) (line, rest string, join render.Join, broke bool) {
	col := 0
	spaceStart, spaceEnd := -1, -1 // last run of spaces after some text
	inSpace := false
	state := -1
	for i := 0; i < len(s); {
		var cluster string
		var cw int
		if s[i] < utf8.RuneSelf && (i+1 == len(s) || s[i+1] < utf8.RuneSelf) {
			// An ASCII byte followed by ASCII is a cluster of its own (the
			// renderer draws it the same way); skip the segmenter.
			cluster, cw, state = s[i:i+1], 1, -1
		} else {
			cluster, _, cw, state = uniseg.FirstGraphemeClusterInString(s[i:], state)
		}
		next := i + len(cluster)
		isSpace := cluster == " "
		if words && isSpace {
			if !inSpace && i > 0 {
				spaceStart = i
			}
			inSpace = true
			if spaceStart >= 0 {
				spaceEnd = next
			}
		} else {
			inSpace = false
		}
		if col+cw > width {
			switch {
			case words && isSpace && spaceStart >= 0:
				end := next
				for end < len(s) && s[end] == ' ' {
					end++
				}
				return s[:spaceStart], s[end:], render.JoinSpace, true
			case words && spaceStart > 0:
				return s[:spaceStart], s[spaceEnd:], render.JoinSpace, true
			case i == 0: // a cluster wider than the whole line: place it anyway
				return s[:next], s[next:], render.JoinNone, true
			default:
				return s[:i], s[i:], render.JoinNone, true
			}
		}
		col += cw
		i = next
	}
	return s, "", render.JoinNewline, false
}

// Lines returns the wrapped lines; the slice is the Wrapper's own.
func (w *Wrapper) Lines() []render.Line { return w.lines }

// Frozen is the number of leading lines that will never change.
func (w *Wrapper) Frozen() int {
	if w.finished {
		return len(w.lines)
	}
	return w.done
}

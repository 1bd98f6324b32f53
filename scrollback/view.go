package scrollback

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/quire-sh/quire/render"
)

// blockView is a block laid out at one width: a few lines the view owns
// (the blank margin and the header), a window onto the body renderer's
// lines with a gutter prefixed at draw time, and a footer (the fold
// note). Composing lazily keeps a streaming frame O(visible lines): the
// body's growing slice is never copied.
type blockView struct {
	width       int
	head        []render.Line
	body        []render.Line
	bodyN       int         // body lines shown (folding may show fewer)
	gutterFirst render.Span // prefixed to the first body line
	gutter      render.Span // prefixed to the other body lines
	foot        []render.Line
	frozen      int // leading lines that never change
}

const blockMargin = 1 // blank lines above every block

func (v *blockView) height() int { return len(v.head) + v.bodyN + len(v.foot) }

// line composes line i into dst, reusing dst's span storage.
func (v *blockView) line(i int, dst *render.Line) {
	dst.Spans = dst.Spans[:0]
	if i < len(v.head) {
		dst.Spans = append(dst.Spans, v.head[i].Spans...)
		return
	}
	i -= len(v.head)
	if i < v.bodyN {
		g := v.gutter
		if i == 0 {
			g = v.gutterFirst
		}
		if g.Text != "" {
			dst.Spans = append(dst.Spans, g)
		}
		dst.Spans = append(dst.Spans, v.body[i].Spans...)
		return
	}
	dst.Spans = append(dst.Spans, v.foot[i-v.bodyN].Spans...)
}

// copyOf is how view line i reads when copied: the body renderer's
// word for body lines; the view's own lines are text as drawn.
func (v *blockView) copyOf(i int) render.Copy {
	i -= len(v.head)
	if i < 0 || i >= v.bodyN {
		return render.Copy{}
	}
	return v.body[i].Copy
}

func (v *blockView) gutterWidth(i int) int {
	i -= len(v.head)
	if i < 0 || i >= v.bodyN {
		return 0
	}
	g := v.gutter
	if i == 0 {
		g = v.gutterFirst
	}
	return render.StringWidth(g.Text)
}

// layout (re)builds b's view at width. It reuses the body renderer when
// the width is unchanged, feeding it only the text that arrived since.
func (t *Transcript) layout(b *Block, width int) *blockView {
	th := &t.theme
	v := &blockView{width: width}
	v.head = append(v.head, render.Line{})
	muted := func(s string) render.Span { return render.Span{Text: s, Style: th.Muted} }
	switch b.kind {
	case KindPrompt:
		t.layoutText(b, v, width-2, PlainFactory(th.Prompt))
		v.gutterFirst = render.Span{Text: "› ", Style: th.PromptMarker}
		v.gutter = render.Span{Text: "  "}
	case KindAssistant:
		t.layoutText(b, v, width, t.opt.Assistant)
	case KindNotice, KindError:
		style, mark := th.Notice, "• "
		if b.warn {
			style = th.Warn
		}
		if b.kind == KindError {
			style, mark = th.Error, "✗ "
		}
		t.layoutText(b, v, width-2, PlainFactory(style))
		v.gutterFirst = render.Span{Text: mark, Style: style}
		v.gutter = render.Span{Text: "  "}
	case KindReasoning:
		n := b.lines + 1
		if b.src.Len() == 0 {
			n = 0
		}
		if b.collapsed {
			v.head = append(v.head, render.Line{Spans: []render.Span{
				{Text: "▸ Thinking", Style: th.Reasoning}, muted(" · " + plural(n, "line", "lines"))}})
			break
		}
		v.head = append(v.head, render.Line{Spans: []render.Span{{Text: "▾ Thinking", Style: th.Reasoning}}})
		t.layoutText(b, v, width-2, PlainFactory(th.Reasoning))
		v.gutterFirst = render.Span{Text: "  "}
		v.gutter = v.gutterFirst
	case KindTool:
		t.layoutTool(b, v, width)
	case KindSubagent:
		t.layoutSubagent(b, v, width)
	}
	for i := range v.head {
		v.head[i] = truncate(v.head[i], width)
	}
	if b.collapsed && b.kind != KindReasoning && b.kind != KindTool && b.kind != KindSubagent && v.bodyN > 1 {
		more := v.bodyN - 1
		v.bodyN = 1
		v.foot = append(v.foot, render.Line{Spans: []render.Span{muted("  ▸ " + plural(more, "more line", "more lines"))}})
	}
	for i := range v.foot {
		v.foot[i] = truncate(v.foot[i], width)
	}
	v.frozen = blockMargin
	switch {
	case b.finished:
		v.frozen = v.height()
	case b.kind == KindAssistant && b.body != nil && !b.collapsed:
		v.frozen = len(v.head) + min(b.body.Frozen(), v.bodyN)
	}
	return v
}

// layoutText points v's body at b's renderer for width, creating it (and
// feeding it the source so far) when the width changed.
func (t *Transcript) layoutText(b *Block, v *blockView, width int, factory RendererFactory) {
	width = max(width, 1)
	created := b.body == nil || b.bodyWidth != width
	if created {
		b.body = factory(width)
		b.bodyWidth = width
		b.fed = 0
		b.bodyDone = false
	}
	b.feed()
	if b.finished && !b.bodyDone {
		b.body.Finish()
		b.bodyDone = true
	}
	if created {
		// A renderer fed the text so far revised nothing the inline view
		// wrote (a resize reprints or re-marks what it wrote).
		b.revs = len(revisionsSince(b.body, 0))
	}
	v.body = b.body.Lines()
	v.bodyN = len(v.body)
}

func (t *Transcript) layoutTool(b *Block, v *blockView, width int) {
	th := &t.theme
	tl := b.tool
	mark, markStyle, status := "○ ", th.ToolPending, "waiting"
	switch tl.state {
	case ToolAwaiting:
		mark, status = "? ", "awaiting approval"
	case ToolRunning:
		mark, status = "● ", "running"
	case ToolSucceeded:
		mark, markStyle, status = "✓ ", th.ToolOK, ""
	case ToolFailed:
		mark, markStyle, status = "✗ ", th.ToolFailed, "failed"
		if tl.exitCode != nil {
			status = "exit " + itoa(*tl.exitCode)
		}
	case ToolDenied:
		mark, markStyle, status = "⊘ ", th.ToolFailed, "denied"
	case ToolCancelled:
		mark, markStyle, status = "⊘ ", th.Muted, "cancelled"
	}
	name := tl.name
	if name == "" {
		name = tl.kind
	}
	head := render.Line{Spans: []render.Span{{Text: mark, Style: markStyle}, {Text: name, Style: th.ToolName}}}
	if tl.target != "" {
		head.Spans = append(head.Spans, render.Span{Text: " "},
			render.Span{Text: render.FirstLine(tl.target), Style: th.ToolTarget, Link: t.fileLink(tl.kind, tl.target)})
	}
	var meta []string
	if status != "" {
		meta = append(meta, status)
	}
	if d := formatDuration(tl.duration); d != "" {
		meta = append(meta, d)
	}
	if len(meta) > 0 {
		style := th.Muted
		if tl.state == ToolFailed || tl.state == ToolDenied {
			style = th.ToolFailed
		}
		head.Spans = append(head.Spans, render.Span{Text: "  " + strings.Join(meta, " · "), Style: style})
	}
	v.gutterFirst = render.Span{Text: "  │ ", Style: th.Muted}
	v.gutter = v.gutterFirst
	inner := max(width-4, 1)
	switch {
	case tl.diff != "":
		if _, ok := b.body.(*staticBody); !ok || b.bodyWidth != inner {
			b.body = &staticBody{lines: renderDiff(tl.diff, inner, th)}
			b.bodyWidth = inner
		}
		v.body = b.body.Lines()
		v.bodyN = len(v.body)
	default:
		t.layoutText(b, v, inner, func(w int) BodyRenderer {
			return NewWrapper(WrapOptions{Width: w, Style: th.Output, StripEscapes: true})
		})
		if tl.state == ToolDenied && tl.reason != "" {
			// The reason is the user's words to the model; show them as
			// the body when the call never ran.
			if v.bodyN == 0 {
				v.body = []render.Line{{Spans: []render.Span{{Text: "“" + tl.reason + "”", Style: th.Muted}}}}
				v.bodyN = 1
			}
		}
	}
	total := v.bodyN
	if b.collapsed {
		if total > 0 {
			head.Spans = append(head.Spans, render.Span{Text: " ▸ " + plural(total, "line", "lines"), Style: th.Muted})
		}
		v.bodyN = 0
	} else if fold := t.opt.FoldLines; !b.unfolded && total > fold+1 {
		v.bodyN = fold
		v.foot = append(v.foot, render.Line{Spans: []render.Span{{
			Text: "  … " + plural(total-fold, "more line", "more lines"), Style: th.Muted}}})
	}
	v.head = append(v.head, head)
}

// fileLink is the OSC 8 target for a tool's path target, or "" when the
// target is not a path (a command, a pattern) or cannot be made absolute.
func (t *Transcript) fileLink(kind, target string) string {
	if kind != "read" && kind != "edit" {
		return ""
	}
	p := target
	if !filepath.IsAbs(p) {
		if t.cwd == "" {
			return ""
		}
		p = filepath.Join(t.cwd, p)
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// staticBody is a finished body laid out once (a diff).
type staticBody struct{ lines []render.Line }

func (s *staticBody) Append(string)        {}
func (s *staticBody) Finish()              {}
func (s *staticBody) Lines() []render.Line { return s.lines }
func (s *staticBody) Frozen() int          { return len(s.lines) }

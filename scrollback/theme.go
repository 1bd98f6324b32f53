package scrollback

import "github.com/quire-sh/quire/render"

// Theme is how the transcript looks. Styles are built at full fidelity;
// the renderer degrades colours at the output edge.
type Theme struct {
	Prompt       render.Style // the user's words
	PromptMarker render.Style // the "›" before them
	Assistant    render.Style // plain-rendered assistant text
	Reasoning    render.Style
	ToolName     render.Style
	ToolTarget   render.Style
	ToolOK       render.Style
	ToolFailed   render.Style
	ToolPending  render.Style // waiting, awaiting approval, running
	Muted        render.Style // durations, counts, gutters, fold notes
	Output       render.Style // tool output
	DiffAdd      render.Style
	DiffDel      render.Style
	DiffHunk     render.Style
	DiffHeader   render.Style // a diff's file names, where they are shown (the approval panel)
	LineNumber   render.Style
	Notice       render.Style
	Warn         render.Style
	Error        render.Style
	Match        render.Style // a search match
	CurrentMatch render.Style // the match n/N moved to
	Sticky       render.Style // background of the pinned prompt
}

// DefaultTheme works on dark and light terminals: it uses the basic
// palette for meaning and attributes for emphasis.
func DefaultTheme() Theme {
	muted := render.Style{Fg: render.ANSI(8)}
	return Theme{
		Prompt:       render.Style{Attrs: render.Bold},
		PromptMarker: render.Style{Fg: render.ANSI(6), Attrs: render.Bold},
		Reasoning:    render.Style{Fg: render.ANSI(8), Attrs: render.Italic},
		ToolName:     render.Style{Attrs: render.Bold},
		ToolTarget:   render.Style{Fg: render.ANSI(4)},
		ToolOK:       render.Style{Fg: render.ANSI(2)},
		ToolFailed:   render.Style{Fg: render.ANSI(1)},
		ToolPending:  render.Style{Fg: render.ANSI(3)},
		Muted:        muted,
		DiffAdd:      render.Style{Fg: render.ANSI(2)},
		DiffDel:      render.Style{Fg: render.ANSI(1)},
		DiffHunk:     render.Style{Fg: render.ANSI(6)},
		DiffHeader:   render.Style{Attrs: render.Bold},
		LineNumber:   muted,
		Notice:       muted,
		Warn:         render.Style{Fg: render.ANSI(3)},
		Error:        render.Style{Fg: render.ANSI(1), Attrs: render.Bold},
		Match:        render.Style{Attrs: render.Reverse},
		CurrentMatch: render.Style{Fg: render.ANSI(0), Bg: render.ANSI(3)},
		Sticky:       render.Style{Attrs: render.Bold},
	}
}

package main

import (
	"context"
	"fmt"
	"os"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/term"
	xterm "golang.org/x/term"
)

// runReplay is `quire replay ID|FILE`: play a stored session or an
// exported transcript in the pager, or print it with --print.
func runReplay(args []string) int {
	sf := newSessionFlags("quire replay")
	speed := sf.fs.Float64("speed", 1, "play at N times the recorded pace")
	instant := sf.fs.Bool("instant", false, "show the finished transcript at once")
	print := sf.fs.Bool("print", false, "write the rendered transcript to stdout, secrets redacted, instead of opening the pager")
	width := sf.fs.Int("width", 0, "with --print: the width to lay out at (default: the terminal's, or 80)")
	color := sf.fs.String("color", "auto", "with --print: auto, always or never")
	sf.fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "Usage: quire replay [flags] ID|FILE\n\nPlays a stored session (by id or unique prefix) or an exported JSONL transcript.\nKeys: p pause/resume, . step one event, q quit, and every pager key.\n\nFlags:")
		sf.fs.PrintDefaults()
	}
	if err := sf.fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	if sf.fs.NArg() != 1 {
		sf.fs.Usage()
		return 2
	}
	if *speed <= 0 {
		return fail(fmt.Errorf("--speed must be above 0, got %v", *speed))
	}
	cfg, err := sf.config()
	if err != nil {
		return fail(err)
	}
	events, err := app.LoadRecording(sf.fs.Arg(0))
	if err != nil {
		return fail(err)
	}
	if len(events) == 0 {
		return fail(fmt.Errorf("%s holds no events to replay", sf.fs.Arg(0)))
	}
	if *print {
		// Printed transcripts are for sharing: secrets redacted.
		return printRecording(cfg, redactEvents(events), *width, *color)
	}
	if !xterm.IsTerminal(int(os.Stdout.Fd())) {
		return fail(fmt.Errorf("replay needs a terminal; use --print to write the transcript to a pipe or file"))
	}
	return exitStatus(app.Replay(context.Background(), app.ReplayOptions{Config: cfg, Events: events, Speed: *speed, Instant: *instant}))
}

func printRecording(cfg *app.Config, events []event.Event, width int, color string) int {
	tty := xterm.IsTerminal(int(os.Stdout.Fd()))
	if width <= 0 {
		width = 80
		if tty {
			if w, _, err := xterm.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
				width = w
			}
		}
	}
	caps := term.DetectCaps(os.Getenv)
	opt := app.PrintOptions{Config: cfg, Width: width}
	switch color {
	case "never":
		opt.Plain = true
	case "always":
		opt.Colors, opt.Links = max(caps.Colors, render.Color256), true
	case "auto":
		if tty {
			opt.Colors, opt.Links = caps.Colors, caps.Hyperlinks
		}
	default:
		return fail(fmt.Errorf("--color takes auto, always or never, not %q", color))
	}
	if err := app.PrintTranscript(os.Stdout, events, opt); err != nil {
		return fail(err)
	}
	return 0
}

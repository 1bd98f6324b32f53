package main

import (
	"fmt"
	"os"

	"github.com/quire-sh/quire/app"
	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/session"
	"github.com/quire-sh/quire/term"
	xterm "golang.org/x/term"
)

// runReplay is `quire replay ID|FILE`: play a stored session or an
// exported transcript in the pager, or print it with --print.
func runReplay(std stdio, args []string) int {
	sf := newSessionFlags("quire replay", "Usage: quire replay [flags] ID|FILE\n\nPlays a stored session (by id or unique prefix; a subagent's too, by the id\nquire sessions lists under its parent) or an exported JSONL transcript.\nKeys: p pause/resume, . step one event, q quit, and every pager key.")
	speed := sf.fs.Float64("speed", 1, "play at `N` times the recorded pace")
	instant := sf.fs.Bool("instant", false, "show the finished transcript at once")
	print := sf.fs.Bool("print", false, "write the rendered transcript to stdout, secrets redacted, instead of opening the pager")
	width := sf.fs.Int("width", 0, "with --print: the `width` to lay out at (default: the terminal's, or 80)")
	color := sf.fs.String("color", "auto", "with --print: `when` to colour: auto, always or never")
	pos, err := sf.parse(args)
	if err != nil {
		return sf.exit(std, err)
	}
	switch {
	case len(pos) == 0:
		return usageExit(std, sf.name, usagef("no session id or transcript file"))
	case len(pos) > 1:
		return usageExit(std, sf.name, usagef("takes one session id or file, got %d arguments", len(pos)))
	case *speed <= 0:
		return usageExit(std, sf.name, usagef("--speed must be above 0, got %v", *speed))
	case *width < 0:
		return usageExit(std, sf.name, usagef("--width must be positive, got %d", *width))
	case *color != "auto" && *color != "always" && *color != "never":
		return usageExit(std, sf.name, usagef("--color takes auto, always or never, not %q", *color))
	}
	cfg, err := sf.config()
	if err != nil {
		return fail(std, err)
	}
	events, err := session.LoadRecording(pos[0])
	if err != nil {
		return fail(std, err)
	}
	if len(events) == 0 {
		return fail(std, fmt.Errorf("%s holds no events to replay", pos[0]))
	}
	if *print {
		// Printed transcripts are for sharing: secrets redacted.
		return printRecording(std, cfg, redactEvents(events), *width, *color)
	}
	if !xterm.IsTerminal(int(os.Stdout.Fd())) {
		return fail(std, fmt.Errorf("replay needs a terminal; use --print to write the transcript to a pipe or file"))
	}
	p := app.NewPlayer(events, *speed, *instant)
	defer p.Close()
	return exitStatus(std, runApp(p.Options(session.AppOptions(cfg)), p))
}

func printRecording(std stdio, cfg *config.Config, events []event.Event, width int, color string) int {
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
	opt := app.PrintOptions{Theme: cfg.Theme, Width: width}
	switch color {
	case "never":
		opt.Plain = true
	case "always":
		opt.Colors, opt.Links = max(caps.Colors, render.Color256), true
	case "auto":
		if tty {
			opt.Colors, opt.Links = caps.Colors, caps.Hyperlinks
		}
	}
	if err := app.PrintTranscript(std.out, events, opt); err != nil {
		return fail(std, err)
	}
	return 0
}

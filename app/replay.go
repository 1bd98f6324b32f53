package app

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/render"
)

// maxReplayGap caps the wait between two recorded events, so that a
// session that sat idle for an hour (or waited on an approval) replays
// without the dead time.
const maxReplayGap = 2 * time.Second

// Player plays recorded events back at their recorded pace. It stands in
// for the engine session, so the loop, the transcript and every pager key
// work on a replay exactly as on a live session.
type Player struct {
	events  []event.Event
	speed   float64
	out     chan event.Event
	ctl     chan playerCmd
	stop    chan struct{}
	stopped chan struct{}
}

type playerCmd uint8

const (
	cmdTogglePause playerCmd = iota
	cmdStep
)

// NewPlayer starts playing events at speed times the recorded pace
// (instant: everything at once).
func NewPlayer(events []event.Event, speed float64, instant bool) *Player {
	if speed <= 0 {
		speed = 1
	}
	p := &Player{
		events: events, speed: speed,
		out:     make(chan event.Event, 256),
		ctl:     make(chan playerCmd, 8),
		stop:    make(chan struct{}),
		stopped: make(chan struct{}),
	}
	go p.play(instant)
	return p
}

func (p *Player) play(instant bool) {
	defer close(p.stopped)
	defer close(p.out)
	paused := false
	for i, e := range p.events {
		if !instant && i > 0 {
			gap := e.Time.Sub(p.events[i-1].Time)
			gap = min(max(gap, 0), maxReplayGap)
			wait := time.Duration(float64(gap) / p.speed)
			var timer *time.Timer
			var fire <-chan time.Time
			if !paused {
				timer = time.NewTimer(wait)
				fire = timer.C
			}
		waiting:
			for {
				select {
				case <-p.stop:
					return
				case <-fire:
					break waiting
				case c := <-p.ctl:
					switch c {
					case cmdStep:
						if timer != nil {
							timer.Stop()
						}
						paused = true
						break waiting
					case cmdTogglePause:
						paused = !paused
						if paused {
							if timer != nil {
								timer.Stop()
							}
							fire = nil
						} else {
							timer = time.NewTimer(wait)
							fire = timer.C
						}
					}
				}
			}
		}
		select {
		case p.out <- e:
		case <-p.stop:
			return
		}
	}
}

// Events delivers the recorded events; the channel closes at the end.
func (p *Player) Events() <-chan event.Event { return p.out }

// TogglePause pauses or resumes playback.
func (p *Player) TogglePause() { p.send(cmdTogglePause) }

// Step plays the next event now and pauses.
func (p *Player) Step() { p.send(cmdStep) }

func (p *Player) send(c playerCmd) {
	select {
	case p.ctl <- c:
	default: // a burst of keys: dropping one toggle is what the user asked twice for
	}
}

// Submit, Cancel, Answer and Compact do nothing: a recording cannot be
// changed. The model refuses prompts in replay before they get here.
func (p *Player) Submit(string)                         {}
func (p *Player) SubmitCommand(string, string)          {}
func (p *Player) Cancel()                               {}
func (p *Player) Answer(string, event.Decision, string) {}
func (p *Player) Compact(string)                        {}

// Close stops playback.
func (p *Player) Close() {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	<-p.stopped
}

var _ Session = (*Player)(nil)

// errReplay answers the operations a recording cannot do.
var errReplay = errors.New("this is a replay: the recorded session cannot be changed")

func (p *Player) SwitchModel(context.Context, string) (Switched, error) { return Switched{}, errReplay }
func (p *Player) Clear(context.Context) (Switched, error)               { return Switched{}, errReplay }
func (p *Player) Rewind(context.Context, int, string) (Switched, error) { return Switched{}, errReplay }
func (p *Player) Sessions(context.Context) ([]SessionSummary, error)    { return nil, errReplay }
func (p *Player) Export(context.Context, string) (string, error) {
	return "", errors.New("this is a replay: export the session with quire export ID")
}

// Options are the app's options for playing the recording back: base's,
// with the recorded session's working directory and model in the status
// line.
func (p *Player) Options(base Options) Options {
	base.Status = Status{Model: recordedModel(p.events), Sandbox: "-", Approval: "-", Replay: true}
	if len(p.events) > 0 && p.events[0].Session != nil {
		base.Cwd = p.events[0].Session.Cwd
	}
	return base
}

func recordedModel(events []event.Event) string {
	for _, e := range events {
		if e.Session != nil && e.Session.Model != "" {
			return e.Session.Model
		}
	}
	return "recorded session"
}

// PrintOptions configure `quire replay --print`.
type PrintOptions struct {
	Theme  string
	Width  int
	Colors render.ColorLevel
	Links  bool
	// Plain writes text only: no SGR at all, not even bold (--color never).
	Plain bool
}

// PrintTranscript renders the whole recording at the given width and
// writes it as styled text, with no terminal needed.
func PrintTranscript(w io.Writer, events []event.Event, opt PrintOptions) error {
	width := max(opt.Width, 20)
	cwd := ""
	if len(events) > 0 && events[0].Session != nil {
		cwd = events[0].Session.Cwd
	}
	tr := NewTranscript(opt.Theme, cwd, width, 1)
	for _, e := range events {
		tr.Apply(e)
	}
	lines := tr.TakeFinished()
	lines = append(lines, tr.LiveLines()...)
	if opt.Plain {
		for i, l := range lines {
			lines[i] = render.Plain(l.Text(), render.Style{})
		}
	}
	return render.WriteLines(w, lines, render.Options{Colors: opt.Colors, Hyperlinks: opt.Links})
}

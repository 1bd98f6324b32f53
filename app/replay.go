package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
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

// LoadRecording reads what to replay: the path of an exported JSONL
// transcript, or else a stored session's id (or a unique prefix of it).
func LoadRecording(source string) ([]event.Event, error) {
	if fi, err := os.Stat(source); err == nil && !fi.IsDir() {
		f, err := os.Open(source)
		if err != nil {
			return nil, fmt.Errorf("opening %s: %w", source, err)
		}
		defer f.Close()
		br := bufio.NewReader(f)
		if isTerminalRecording(br) {
			return nil, fmt.Errorf("%s is a recording of the terminal (--record), not a transcript: play it with `asciinema play %s`", source, source)
		}
		_, events, err := store.ReadTranscript(br)
		if err != nil {
			return nil, fmt.Errorf("%s is not a readable quire transcript: %w", source, err)
		}
		return events, nil
	}
	st, err := store.Open(StateDir(os.Getenv), store.Options{})
	if err != nil {
		return nil, err
	}
	id, err := st.Resolve(source)
	if err != nil {
		return nil, fmt.Errorf("%q is neither a transcript file nor a stored session: %w", source, err)
	}
	r, err := st.OpenReader(id)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.ReadAll()
}

// isTerminalRecording reports whether r starts with an asciicast v2
// header, what --record writes, without consuming it.
func isTerminalRecording(r *bufio.Reader) bool {
	line, _ := r.Peek(4096)
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	var head struct {
		Version int `json:"version"`
		Width   int `json:"width"`
	}
	return json.Unmarshal(line, &head) == nil && head.Version == 2 && head.Width > 0
}

// ReplayOptions configure `quire replay`.
type ReplayOptions struct {
	Config  *Config
	Events  []event.Event
	Speed   float64
	Instant bool
}

// Replay plays a recording in the pager (or inline with Config.Minimal).
func Replay(ctx context.Context, opt ReplayOptions) error {
	if len(opt.Events) == 0 {
		return errors.New("the recording holds no events")
	}
	p := NewPlayer(opt.Events, opt.Speed, opt.Instant)
	defer p.Close()
	cwd := ""
	if s := opt.Events[0].Session; s != nil {
		cwd = s.Cwd
	}
	status := Status{Model: recordedModel(opt.Events), Sandbox: "-", Approval: "-", Replay: true}
	return runLoop(ctx, opt.Config, p, cwd, status, nil, "", Handlers{})
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
	Config *Config
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
	tr := NewTranscript(opt.Config, cwd, width, 1)
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

package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/internal/polltimer"
	"github.com/quire-sh/quire/render"
	"github.com/quire-sh/quire/term"
)

// Terminal is what the loop needs of the tty; *term.Terminal satisfies it.
type Terminal interface {
	Events() <-chan term.Event
	Size() (w, h int)
	Writer() io.Writer
	// Pending is how many frames the writer has not put out yet, and
	// LastWrite how long the last one took to write.
	Pending() int
	LastWrite() time.Duration
	Caps() term.Caps
	SetAltScreen(on bool) error
	SetMouse(on bool) error
	HandOff(fn func() error) error
	Suspend() error
	Copy(text string) error
	CursorPosition(timeout time.Duration) (x, y int, err error)
}

// LoopOptions configure a Loop.
type LoopOptions struct {
	// DrawInterval is the minimum time between frames the engine causes
	// (default 33 ms, 30 frames a second); frames caused by input, and
	// the events drawsAtOnce names, do not wait for it. Streamed text
	// gains nothing a reader sees from more frames than that, and each
	// frame costs a fixed set of wake-ups and system calls that no
	// renderer work removes (about two thirds of a millisecond of CPU on
	// a small virtual machine): 60 frames a second cost half as much
	// again for the same answer. Ink, which Claude Code renders with,
	// paces at 32 ms for the same reason. A change that comes sooner is
	// drawn with the first event after the interval, or half an interval
	// later at the latest: a stream draws on the wake-ups its own events
	// cause.
	DrawInterval time.Duration
	// EventBatch bounds how many engine events are reduced between two
	// looks at the input queue (default 256).
	EventBatch int
	// Mouse starts with mouse capture on (full-screen mode only).
	Mouse bool
	// HistoryFile is the prompt history, read when the loop starts and
	// appended to as prompts are sent, both off the loop's goroutine; ""
	// keeps the history in memory only.
	HistoryFile string
	// Prompt is submitted when the loop starts.
	Prompt string
	// OnFrame, when set, sees every flushed frame's stats (benchmarks).
	OnFrame func(render.Stats)
}

// Loop is the app's event loop: it owns the Model and the surface it is
// drawn on, and it is the only goroutine that touches either.
type Loop struct {
	m    *Model
	term Terminal
	sess Session
	opt  LoopOptions

	screen *render.Screen
	inline *render.Inline
	colors render.Options

	done chan effectDone
	// jobs are the effects running off the loop's goroutine; jobsCtx ends
	// when the loop does, and Run waits for them before it returns.
	jobs    sync.WaitGroup
	jobsCtx context.Context
	// history is the prompt history file's writer state: prompts waiting
	// to be appended, and whether an append is running.
	history historyWriter
	// outgoing are prompts waiting for a command typed before them to
	// expand, in order.
	outgoing []*outgoing

	// input is the terminal's event channel.
	input <-chan term.Event
	// source is the session's event channel, events the same while it is
	// open (nil once it has closed).
	source <-chan event.Event
	events <-chan event.Event
	// older delivers the history before what a resumed session showed
	// first, once; nil when there is none to wait for.
	older <-chan []event.Event
	// extChanged signals news of the session's extensions (MCP servers);
	// nil when the session has none.
	extChanged <-chan struct{}
	// commandUpdates delivers new lists of the commands from outside the
	// app's table; nil when the session has none to send.
	commandUpdates <-chan []Command

	lastDraw time.Time
	drawAt   time.Time // a deferred draw, or zero
	// wake is the timer nextTimer arms, for wakeAt (zero when disarmed
	// or fired); it wakes the loop through the poller (see polltimer).
	wake     *polltimer.Timer
	wakeAt   time.Time
	needDraw bool
	// urgent is set by input and by the events drawsAtOnce names: their
	// frame skips the throttle, which exists to keep a fast stream from
	// starving typing, not to delay typing or the end of a turn.
	urgent    bool
	reflowAt  time.Time // debounced inline width change, or zero
	mouse     bool
	sessEnded bool
	// heldPrompt is the prompt given on the command line while the
	// question about the project's files waits.
	heldPrompt string
}

// SignalError says the loop ended because a termination signal arrived.
// The terminal is already restored; the caller saves what it must and
// exits with the signal's conventional status.
type SignalError struct {
	Signal os.Signal
}

func (e *SignalError) Error() string { return fmt.Sprintf("stopped by %v", e.Signal) }

// ExitCode is 128 plus the signal number, as shells report it.
func (e *SignalError) ExitCode() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// effectDone reports an effect that finished off the loop's goroutine:
// apply, when set, runs on the loop's goroutine with the result; notice
// is shown in the status line.
type effectDone struct {
	notice string
	apply  func(now time.Time)
}

// NewLoop returns a loop showing m on t and talking to sess.
func NewLoop(m *Model, t Terminal, sess Session, opt LoopOptions) *Loop {
	if opt.DrawInterval <= 0 {
		opt.DrawInterval = 33 * time.Millisecond
	}
	if opt.EventBatch <= 0 {
		opt.EventBatch = 256
	}
	return &Loop{
		m: m, term: t, sess: sess, opt: opt,
		colors:  renderOptions(t.Caps()),
		done:    make(chan effectDone, 16),
		mouse:   opt.Mouse,
		history: historyWriter{path: opt.HistoryFile},
	}
}

// renderOptions is what the renderer is told about the terminal.
func renderOptions(c term.Caps) render.Options {
	return render.Options{
		Colors: c.Colors, Hyperlinks: c.Hyperlinks,
		NoSync: c.SyncUnsupported(), KeepScrollback: c.NoScrollbackClear,
	}
}

// probeTimeout bounds the start-up probe of the terminal; a terminal that
// answers DA1 ends it at once.
const probeTimeout = 2 * time.Second

// Run runs the loop until the user quits, the context ends, or the
// terminal reports a termination signal.
func (l *Loop) Run(ctx context.Context) (err error) {
	w, h := l.term.Size()
	l.m.SetSize(w, h)
	if err := l.enterMode(l.m.Minimal()); err != nil {
		return err
	}
	defer l.leave()
	defer func() {
		if l.wake != nil {
			l.wake.Close()
		}
	}()
	jobsCtx, stopJobs := context.WithCancel(ctx)
	l.jobsCtx = jobsCtx
	defer func() {
		// Jobs end with the loop: they see their context end, and the
		// loop waits for them; prompts still waiting for the history
		// file are written now that nothing draws.
		stopJobs()
		l.jobs.Wait()
		// Nothing draws any more: a prompt that could not be saved is
		// said on the way out, after the terminal is restored.
		if ferr := l.flushHistory(); ferr != nil && err == nil {
			err = ferr
		}
	}()
	// Ask the terminal what it can do while the first frames draw with
	// what the environment says; the answer arrives as a CapsEvent.
	if p, ok := l.term.(interface{ StartProbe(time.Duration) }); ok {
		p.StartProbe(probeTimeout)
	}
	input := l.term.Events()
	l.input = input
	l.source = l.sess.Events()
	l.events = l.source
	if o, ok := l.sess.(olderHistory); ok {
		l.older = o.Older()
	}
	if x, ok := l.sess.(Extensions); ok {
		l.extChanged = x.ExtensionsChanged()
		l.m.SetExtensionStatus(x.ExtensionSummary())
	}
	if c, ok := l.sess.(commandSource); ok {
		l.commandUpdates = c.CommandUpdates()
	}
	l.loadHistory()
	if pt, ok := l.sess.(projectTrust); ok {
		l.m.AskTrust(pt.TrustQuestion())
	}
	if p := l.opt.Prompt; p != "" {
		if l.m.TrustPending() {
			l.heldPrompt = p
		} else {
			l.submitInitial(p, time.Now())
		}
	}
	for {
		now := time.Now()
		if l.m.Quit() {
			return nil
		}
		// The priority pass: input first, then effect completions, then
		// engine events, each looked at without blocking.
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		select {
		case ev, ok := <-input:
			if !ok {
				return errors.New("the terminal went away")
			}
			if err := l.onInput(ev, now); err != nil {
				return err
			}
			l.maybeDraw(time.Now())
			continue
		default:
		}
		select {
		case d := <-l.done:
			l.onDone(d, now)
			l.maybeDraw(time.Now())
			continue
		default:
		}
		if len(input) == 0 && l.events != nil {
			select {
			case e, ok := <-l.events:
				if !ok {
					l.events = nil
					l.sessEnded = true
					continue
				}
				l.onEvent(e, now)
				l.drainEvents(l.events, input)
				l.maybeDraw(time.Now())
				continue
			default:
			}
		}
		l.tick(now)
		if l.maybeDraw(now) {
			continue
		}
		// Nothing was ready: block on everything, with timers derived from
		// the state (none when idle, so an idle quire never wakes).
		timer := l.nextTimer(now)
		gated := l.events
		if len(input) > 0 {
			gated = nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case evs := <-l.older:
			l.older = nil
			l.m.tr.Prepend(evs)
			l.needDraw = true
		case <-l.extChanged:
			l.m.SetExtensionStatus(l.sess.(Extensions).ExtensionSummary())
		case cmds, ok := <-l.commandUpdates:
			if !ok {
				l.commandUpdates = nil
				continue
			}
			l.m.SetExtensions(cmds, l.m.skills)
		case ev, ok := <-input:
			if !ok {
				return errors.New("the terminal went away")
			}
			if err := l.onInput(ev, time.Now()); err != nil {
				return err
			}
		case d := <-l.done:
			l.onDone(d, time.Now())
		case e, ok := <-gated:
			if !ok {
				l.events = nil
				l.sessEnded = true
				continue
			}
			l.onEvent(e, time.Now())
			l.drainEvents(l.events, input)
		case <-timer:
			l.wakeAt = time.Time{}
		}
		l.tick(time.Now())
		l.maybeDraw(time.Now())
	}
}

// submitInitial sends the prompt given on the command line as if typed:
// a custom command in it runs.
func (l *Loop) submitInitial(p string, now time.Time) {
	for _, e := range l.m.SubmitText(p, now) {
		l.run(e, now)
	}
}

// drainEvents reduces up to EventBatch more engine events, stopping as
// soon as input is waiting.
func (l *Loop) drainEvents(events <-chan event.Event, input <-chan term.Event) {
	for i := 1; i < l.opt.EventBatch && len(input) == 0; i++ {
		select {
		case e, ok := <-events:
			if !ok {
				return
			}
			l.onEvent(e, time.Now())
		default:
			return
		}
	}
}

func (l *Loop) onEvent(e event.Event, now time.Time) {
	l.m.HandleEvent(e, now)
	l.needDraw = true
	if drawsAtOnce(e.Kind) {
		l.urgent = true
	}
}

// drawsAtOnce reports whether an event of kind k is drawn without waiting
// out the draw interval: the end of a turn, an approval that waits, an
// error. They come once each, and each is the moment the user has to look
// or act; at 30 frames a second the answer's last frame would otherwise
// come up to an interval and a half after its last text.
func drawsAtOnce(k event.Kind) bool {
	switch k {
	case event.TurnEnded, event.ApprovalRequested, event.Error:
		return true
	}
	return false
}

func (l *Loop) onDone(d effectDone, now time.Time) {
	if d.apply != nil {
		d.apply(now)
	}
	if d.notice != "" {
		l.m.flash(d.notice, now)
	}
	l.needDraw = true
}

// tick lets time-driven state move and fires the debounced reflow.
func (l *Loop) tick(now time.Time) {
	l.m.Tick(now)
	if !l.reflowAt.IsZero() && !now.Before(l.reflowAt) {
		l.reflowAt = time.Time{}
		l.reflowInline()
	}
	if l.m.TakeDirty() {
		l.needDraw = true
	}
}

// nextTimer returns a channel that fires at the earliest deadline the
// state implies; a nil channel when idle.
//
// One timer serves every wait, and it is left armed while its deadline
// stands: a stream wakes the loop between most of its events, and
// re-arming (or stopping) the timer at each would cost a system call per
// chunk. It is a polltimer, not a runtime timer: an armed runtime timer
// keeps the runtime's monitor thread waking about every 10 ms while the
// loop waits (see polltimer). Stop and Reset leave no stale tick behind.
func (l *Loop) nextTimer(now time.Time) <-chan time.Time {
	var at time.Time
	for _, t := range []time.Time{l.drawAt, l.reflowAt, l.m.NextWake(now)} {
		if !t.IsZero() && (at.IsZero() || t.Before(at)) {
			at = t
		}
	}
	switch {
	case at.IsZero():
		if !l.wakeAt.IsZero() {
			l.wake.Stop()
			l.wakeAt = time.Time{}
		}
		return nil
	case at.Equal(l.wakeAt):
	default:
		if l.wake == nil {
			l.wake = polltimer.New()
		}
		l.wake.Reset(at.Sub(now))
		l.wakeAt = at
	}
	return l.wake.C
}

// onInput handles one terminal event and runs the effects it produced.
func (l *Loop) onInput(ev term.Event, now time.Time) error {
	switch ev := ev.(type) {
	case term.SignalEvent:
		l.m.quit = true
		return &SignalError{Signal: ev.Signal}
	case term.ResizeEvent:
		l.resize(ev.Width, ev.Height, now)
	case term.CapsEvent:
		l.setCaps(ev.Caps)
	}
	effects := l.m.HandleInput(ev, now)
	if l.m.TakeDirty() {
		l.needDraw, l.urgent = true, true
	}
	for _, e := range effects {
		l.run(e, now)
	}
	return nil
}

// setCaps hands capabilities a probe learnt to the surface.
func (l *Loop) setCaps(c term.Caps) {
	l.colors = renderOptions(c)
	switch {
	case l.screen != nil:
		l.screen.SetOptions(l.colors)
	case l.inline != nil:
		l.inline.SetOptions(l.colors)
	}
	l.needDraw = true
}

// resize passes a new size to the surface. In inline mode a width change
// re-prints the history at the new width, debounced so that dragging a
// window edge costs one reprint.
func (l *Loop) resize(w, h int, now time.Time) {
	switch {
	case l.screen != nil:
		l.screen.Resize(w, h)
	case l.inline != nil:
		if w != l.m.width {
			l.reflowAt = now.Add(reflowDebounce)
			return
		}
		l.inline.Resize(w, h)
	}
}

// maxPendingFrames is how many unwritten frames the loop tolerates before
// it stops drawing until the writer catches up.
const maxPendingFrames = 2

// reflowDebounce is how long the width must stay put before the inline
// history is re-printed.
const reflowDebounce = 150 * time.Millisecond

// reflowInline re-prints the inline history at the current width: the
// viewport purges the screen and scrollback in the same synchronized
// frame that writes the history again, so nothing is lost or doubled. A
// terminal that ignores CSI 3 J keeps its history as it rewrapped it and
// only the live region is redrawn.
func (l *Loop) reflowInline() {
	if l.inline == nil {
		return
	}
	w, h := l.term.Size()
	l.m.SetSize(w, h)
	l.m.tr.Resize(w, max(h, 1))
	l.inline.Resize(w, h)
	if l.colors.KeepScrollback {
		// The terminal cannot clear its scrollback: the history stays
		// as it rewrapped it, and printing it again would double it.
		l.m.tr.KeepEmitted()
	} else {
		l.inline.InsertAbove(l.m.tr.ReflowEmitted()...)
	}
	l.needDraw = true
}

// maybeDraw draws if something changed and the throttle allows it; it
// reports whether it drew.
func (l *Loop) maybeDraw(now time.Time) bool {
	if l.m.TakeDirty() {
		l.needDraw = true
	}
	if !l.needDraw || !l.reflowAt.IsZero() {
		return false
	}
	if l.urgent && len(l.input) > 0 && now.Before(l.lastDraw.Add(l.opt.DrawInterval)) {
		// More input is already waiting (keys pasted without bracketed
		// paste, key repeat, a fast typist over ssh): the loop takes it
		// before anything else, and one frame after it shows what a frame
		// per key would, for a frame's cost. A flood of input still draws
		// once an interval.
		return false
	}
	if next := l.lastDraw.Add(l.opt.DrawInterval); now.Before(next) && !l.urgent {
		// Too soon. Waking at next just to draw would cost a wake-up of
		// its own per frame; an event arriving after next draws with it
		// instead (maybeDraw runs after every event), and the timer is
		// only for when none comes.
		l.drawAt = next.Add(l.opt.DrawInterval / 2)
		return false
	}
	if l.term.Pending() > maxPendingFrames {
		// The tty is behind (a slow ssh link): draw later rather than
		// queue frames, so back-pressure lowers the frame rate instead of
		// growing memory. Each frame is the whole state, so nothing is lost.
		l.drawAt = now.Add(l.opt.DrawInterval)
		return false
	}
	l.drawAt = time.Time{}
	l.needDraw, l.urgent = false, false
	l.lastDraw = now
	l.draw(now)
	return true
}

// draw paints the state and flushes the difference.
func (l *Loop) draw(now time.Time) {
	start := time.Now()
	var st render.Stats
	var err error
	bell := l.m.TakeBell()
	switch {
	case l.screen != nil:
		if bell {
			l.screen.AppendRaw([]byte{'\a'})
		}
		c := l.m.DrawFull(l.screen.Back(), now)
		l.screen.SetCursor(c.X, c.Y, c.Visible)
		st, err = l.screen.Flush()
	case l.inline != nil:
		if lines := l.m.tr.TakeFinished(); len(lines) > 0 {
			l.inline.InsertAbove(lines...)
		}
		live := l.m.LiveContent(l.m.tr.LiveLines())
		w, h := l.m.width, l.m.height
		l.m.tr.Resize(w, max(h, 1))
		l.inline.SetLiveHeight(l.m.LiveHeight(w, h, len(live)))
		if bell {
			l.inline.AppendRaw([]byte{'\a'})
		}
		c := l.m.DrawLive(l.inline.Live(), live, now)
		l.inline.SetCursor(c.X, c.Y, c.Visible)
		st, err = l.inline.Flush()
	}
	if err != nil {
		return
	}
	l.m.RecordFrame(now, st, time.Since(start), l.term.Pending(), l.term.LastWrite())
	if l.opt.OnFrame != nil {
		l.opt.OnFrame(st)
	}
}

// enterMode sets up the surface for full-screen or inline drawing.
func (l *Loop) enterMode(minimal bool) error {
	w, h := l.term.Size()
	out := l.term.Writer()
	if minimal {
		_, row, err := l.term.CursorPosition(300 * time.Millisecond)
		if err != nil {
			row = h - 1 // no answer: assume the prompt is at the bottom
		}
		l.inline = render.NewInline(out, w, h, row, l.colors)
		l.m.tr.Resize(w, max(h, 1))
	} else {
		if err := l.term.SetAltScreen(true); err != nil {
			return err
		}
		if l.mouse {
			_ = l.term.SetMouse(true)
		}
		l.screen = render.NewScreen(out, w, h, l.colors)
	}
	l.m.SetMinimal(minimal)
	l.needDraw = true
	return nil
}

// leave tears the current surface down, leaving the finished transcript
// in the terminal's scrollback in inline mode.
func (l *Loop) leave() {
	switch {
	case l.screen != nil:
		_ = l.term.SetMouse(false)
		_ = l.term.SetAltScreen(false)
		l.screen = nil
	case l.inline != nil:
		if lines := l.m.tr.TakeFinished(); len(lines) > 0 {
			l.inline.InsertAbove(lines...)
		}
		l.inline.SetLiveHeight(0)
		_, _ = l.inline.Flush()
		_ = l.inline.Close()
		l.inline = nil
	}
}

// swapped takes up the session after an operation that may have replaced
// it (SwitchModel, Clear, Rewind): the model applies the result, and the
// loop reads the events of whatever session is current now. The old
// session was closed by the operation, so its last events are drained
// here (bounded: they are queued in memory) and, unless the transcript is
// rebuilt, reduced like any other.
func (l *Loop) swapped(r Switched, err error, now time.Time) {
	if next := l.sess.Events(); next != l.source {
		if l.events != nil {
			keep := err != nil || !r.Rebuild
			for e := range l.events {
				if keep {
					l.m.HandleEvent(e, now)
				}
			}
		}
		l.source, l.events = next, next
		l.sessEnded = false
	}
	l.m.applySwitch(r, err, now)
	if err == nil && r.Rebuild && l.inline != nil {
		// Everything already in the terminal's scrollback stays; the
		// rebuilt transcript counts as printed up to where it ends.
		l.m.tr.TakeFinished()
	}
	l.needDraw = true
}

// switchMode changes between full-screen and inline at run time. Lines
// the inline view already put into the terminal's scrollback stay there
// and are not printed again; the pager keeps its scroll position.
func (l *Loop) switchMode(minimal bool) error {
	l.leave()
	return l.enterMode(minimal)
}

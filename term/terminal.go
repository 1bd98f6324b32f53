package term

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"
)

// ErrClosed is returned by a Terminal that has been restored or closed.
var ErrClosed = errors.New("terminal closed")

// Options choose the modes a Terminal switches on and tune its timing.
// The zero value is an inline (no alternate screen), keyboard-only
// terminal with bracketed paste and signal handling.
type Options struct {
	// AltScreen draws on the alternate screen (full-screen mode). Off,
	// output goes to the main screen and its scrollback (inline mode).
	AltScreen bool
	// Mouse reports clicks, drags and the wheel (SGR encoding). While on,
	// the terminal's own text selection needs Shift held.
	Mouse bool
	// MouseMotion also reports pointer motion with no button held.
	MouseMotion bool
	// Focus reports focus changes as FocusEvent.
	Focus bool
	// KittyKeyboard asks for the kitty keyboard protocol's unambiguous key
	// encoding, which tells Shift+Enter from Enter and Ctrl+I from Tab.
	// Terminals without it ignore the request.
	KittyKeyboard bool
	// Stderr, if set, receives what the process writes to file
	// descriptor 2 while the terminal is in raw mode (a log file, or
	// /dev/null), so stray writes cannot garble the screen. The original
	// stderr is back whenever the terminal is restored or handed off.
	Stderr *os.File
	// Env reads environment variables for DetectCaps; nil is os.Getenv.
	Env func(string) string
	// Record, if set, receives a recording of every byte written to the
	// terminal, in asciicast v2 (see record.go).
	Record io.Writer
	// RecordRedact, if set, is applied to the text of every output event
	// before it is recorded (quire passes package redact's rule set, since
	// recordings are made to be shared).
	RecordRedact func(string) string
	// NoSignals leaves signal handling to the caller: no restore on
	// SIGTERM/SIGHUP/SIGINT/SIGQUIT, no Ctrl+Z handling on SIGTSTP.
	NoSignals bool
	// ExitGrace is how long the process may keep running after a
	// termination signal before the signal is re-raised with its default
	// action. Zero means 3 s; negative means never.
	ExitGrace time.Duration
	// EscDelay is how long a lone ESC waits for the rest of a sequence
	// before it counts as the Escape key. Zero means 50 ms.
	EscDelay time.Duration
	// QueueFrames and WriteBudget bound the writer queue; see Writer.
	// Zero means 8 frames and 20 ms.
	QueueFrames int
	WriteBudget time.Duration
}

func (o *Options) fill() {
	if o.Env == nil {
		o.Env = os.Getenv
	}
	if o.ExitGrace == 0 {
		o.ExitGrace = 3 * time.Second
	}
	if o.EscDelay <= 0 {
		o.EscDelay = 50 * time.Millisecond
	}
	if o.QueueFrames <= 0 {
		o.QueueFrames = defaultQueueFrames
	}
	if o.WriteBudget <= 0 {
		o.WriteBudget = defaultWriteBudget
	}
}

// Timeouts of the hand-off protocol.
const (
	drainTimeout    = 750 * time.Millisecond // queued frames before a hand-off or close
	parkTimeout     = 500 * time.Millisecond // the reader letting go of the tty
	restoreLockWait = 250 * time.Millisecond // an in-flight frame write, on restore
	restoreWrite    = time.Second            // the restore bytes on a stalled tty
	pasteTimeout    = 3 * time.Second        // a paste whose end marker never comes
)

type phase uint8

const (
	phaseActive phase = iota // raw mode, ours
	phaseAway                // handed off or suspended
	phaseClosed              // restored for good
)

// Terminal is the tty in raw mode: a reader goroutine decoding input into
// Events, a writer goroutine putting frames out, capability detection,
// hand-off and restore. Its methods are safe for concurrent use.
type Terminal struct {
	tty  tcell.Tty
	opts Options

	mu         sync.Mutex // phase transitions
	phase      phase
	modes      modes
	restoreErr error
	closed     atomic.Bool // phase == phaseClosed, readable without mu

	capsMu sync.Mutex
	caps   Caps

	sizeMu        sync.Mutex
	width, height int

	events  chan Event
	input   chan []byte
	inject  chan Event
	resized chan struct{}
	rec     *recorder // nil unless Options.Record
	// lastWrite is how long the last frame took to write, in ns: on a
	// slow link (ssh) the tty blocks for as long as it takes.
	lastWrite atomic.Int64
	done      chan struct{}
	once      sync.Once

	park parking

	q     *frameQueue
	outMu sync.Mutex // held for every write to the tty
	// direct is the tty when it can write without waiting (not while
	// recording, whose copy goes through Write); nil otherwise.
	direct   tryWriter
	awayMu   sync.Mutex
	back     chan struct{} // non-nil while away; closed on return
	errMu    sync.Mutex
	writeErr error

	replies replyRouter
	signals *signalHandler
	stderr  stderrRedirect // guarded by mu

	tmuxLoad   func(string) error
	tmuxOption func(string) (string, error)
	wg         sync.WaitGroup
}

// Open takes the controlling terminal (/dev/tty), so quire can draw even
// when stdin or stdout are redirected. On any failure the terminal is left
// as it was found.
func Open(opts Options) (*Terminal, error) {
	tty, err := OpenDevice("/dev/tty")
	if err != nil {
		return nil, fmt.Errorf("open /dev/tty: %w (quire's interface needs a terminal)", err)
	}
	return OpenTty(tty, opts)
}

// OpenDevice opens the terminal device at path as a tcell.Tty for
// OpenTty, with a second, non-blocking handle through which frames are
// written without a hand-off to the writer goroutine while the device
// keeps up (see Writer).
func OpenDevice(path string) (tcell.Tty, error) {
	tty, err := tcell.NewDevTtyFromDev(path)
	if err != nil {
		return nil, err
	}
	out, err := openTryOut(path)
	if err != nil {
		// Frames then all go through the writer goroutine.
		return tty, nil
	}
	return &devTty{Tty: tty, out: out}, nil
}

// OpenTty is Open on a given tty (a pty in tests, another device). The
// Terminal owns tty from here on and closes it on Close, also when OpenTty
// fails.
func OpenTty(tty tcell.Tty, opts Options) (*Terminal, error) {
	opts.fill()
	t := &Terminal{
		tty:        tty,
		opts:       opts,
		caps:       DetectCaps(opts.Env),
		events:     make(chan Event, 64),
		input:      make(chan []byte, 16),
		inject:     make(chan Event, 16),
		resized:    make(chan struct{}, 1),
		done:       make(chan struct{}),
		q:          newFrameQueue(),
		tmuxLoad:   tmuxLoadBuffer,
		tmuxOption: tmuxShowOption,
		stderr:     stderrRedirect{to: opts.Stderr, saved: -1},
	}
	t.park.init()
	t.modes = modes{
		altScreen:   opts.AltScreen,
		paste:       t.caps.BracketedPaste,
		mouse:       opts.Mouse || opts.MouseMotion,
		mouseMotion: opts.MouseMotion,
		focus:       opts.Focus,
		kittyKeys:   opts.KittyKeyboard,
	}
	if err := tty.Start(); err != nil {
		_ = tty.Close()
		return nil, fmt.Errorf("put the terminal in raw mode: %w", err)
	}
	ws, err := tty.WindowSize()
	if err == nil && opts.Record != nil {
		t.rec, err = newRecorder(opts.Record, ws.Width, ws.Height, opts.Env, time.Now())
		if err == nil {
			t.rec.redact = opts.RecordRedact
			tty = &recordingTty{Tty: tty, rec: t.rec}
			t.tty = tty
		}
	}
	if d, ok := t.tty.(tryWriter); ok {
		t.direct = d
	}
	if err == nil {
		_, err = tty.Write([]byte(enterSeq(t.modes)))
	}
	if err == nil {
		err = t.stderr.apply()
	}
	if err != nil {
		_, _ = tty.Write([]byte(leaveSeq(t.modes)))
		_ = tty.Stop()
		_ = tty.Close()
		return nil, fmt.Errorf("set up the terminal: %w", err)
	}
	t.width, t.height = ws.Width, ws.Height
	tty.NotifyResize(func() {
		select {
		case t.resized <- struct{}{}:
		default:
		}
	})
	t.wg.Add(3)
	go t.readLoop()
	go t.decodeLoop()
	go t.writeLoop()
	if !opts.NoSignals {
		t.signals = startSignals(t)
	}
	return t, nil
}

// Events delivers input and terminal events in order. It is closed by
// Close.
func (t *Terminal) Events() <-chan Event { return t.events }

// Size is the terminal's size in cells, as of the last ResizeEvent.
func (t *Terminal) Size() (w, h int) {
	t.sizeMu.Lock()
	defer t.sizeMu.Unlock()
	return t.width, t.height
}

// Caps returns the capabilities detected so far.
func (t *Terminal) Caps() Caps {
	t.capsMu.Lock()
	defer t.capsMu.Unlock()
	return t.caps
}

// Writer is the writer goroutine's front door, for the renderer. Each
// Write is one frame. When nothing is queued or being written and the tty
// was opened by OpenDevice, Write writes what the device takes at once
// itself (never waiting for it) and queues the rest; otherwise the bytes
// are copied into a pooled buffer and queued, and Write returns without
// touching the tty. Frames are written in order, never dropped or merged. When more than Options.QueueFrames are
// waiting, Write blocks for up to Options.WriteBudget before queuing
// anyway; callers should consult Pending and skip frames while the tty is
// behind.
func (t *Terminal) Writer() io.Writer { return frameWriter{t} }

// Pending is the number of frames queued but not yet written.
func (t *Terminal) Pending() int { return t.q.pending() }

// LastWrite is how long writing the last frame to the tty took: the time
// the terminal, or the link to it, needed to take the bytes.
func (t *Terminal) LastWrite() time.Duration { return time.Duration(t.lastWrite.Load()) }

// WaitDrained waits until every frame submitted before the call has been
// written, or timeout passes, and reports whether it drained. On a
// stalled tty it returns false at the deadline and the caller proceeds.
func (t *Terminal) WaitDrained(timeout time.Duration) bool {
	return t.q.waitDrained(timeout)
}

// WriteErr is the first error a frame write hit, if any. The writer goes
// on after errors (the UI must not die of one bad write); this is for
// diagnostics.
func (t *Terminal) WriteErr() error {
	t.errMu.Lock()
	defer t.errMu.Unlock()
	return t.writeErr
}

func (t *Terminal) noteWriteErr(err error) {
	t.errMu.Lock()
	if t.writeErr == nil {
		t.writeErr = fmt.Errorf("write to terminal: %w", err)
	}
	t.errMu.Unlock()
}

// SetAltScreen switches between the alternate screen (full-screen mode)
// and the main screen (inline mode), queued behind pending frames. Either
// way the new screen's content is unknown: repaint fully.
func (t *Terminal) SetAltScreen(on bool) error {
	return t.setMode(func(m *modes) (string, bool) {
		if m.altScreen == on {
			return "", false
		}
		m.altScreen = on
		if on {
			return seqAltScreenOn, true
		}
		return seqAltScreenOff, true
	})
}

// SetMouse switches mouse reporting (press, release, drag, wheel) on or
// off, for example to let the user select text with the terminal.
func (t *Terminal) SetMouse(on bool) error {
	return t.setMode(func(m *modes) (string, bool) {
		if m.mouse == on {
			return "", false
		}
		m.mouse, m.mouseMotion = on, on && t.opts.MouseMotion
		if !on {
			return seqMouseOff, true
		}
		if m.mouseMotion {
			return seqMouseMotionOn, true
		}
		return seqMouseOn, true
	})
}

func (t *Terminal) setMode(change func(*modes) (string, bool)) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch t.phase {
	case phaseClosed:
		return ErrClosed
	case phaseAway:
		return errAway
	}
	seq, ok := change(&t.modes)
	if !ok {
		return nil
	}
	return t.submit([]byte(seq))
}

// Restore gives the terminal back as it was found: synchronized update
// ended, attributes reset, mouse, focus and paste reporting off, cursor
// visible, alternate screen left, scroll region reset, raw mode off. It is
// idempotent, safe from any goroutine, and final: afterwards frames are
// discarded (Write returns ErrClosed), but Events keeps delivering until
// Close. Restore does not wait for queued frames; Close does.
func (t *Terminal) Restore() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch t.phase {
	case phaseClosed:
		return t.restoreErr
	case phaseAway:
		// The tty is already back in its original state; just make sure
		// it is not taken again.
		t.markClosed()
		return nil
	}
	t.markClosed()
	held := lockWithin(&t.outMu, restoreLockWait)
	werr := t.writeWithin([]byte(leaveSeq(t.modes)), restoreWrite)
	if held {
		t.outMu.Unlock()
	}
	serr := t.tty.Stop()
	t.stderr.undo()
	if werr != nil || serr != nil {
		t.restoreErr = fmt.Errorf("restore the terminal: %w", errors.Join(werr, serr))
	}
	return t.restoreErr
}

// markClosed moves to phaseClosed; t.mu is held.
func (t *Terminal) markClosed() {
	t.phase = phaseClosed
	t.closed.Store(true)
	t.q.close()
	t.park.stop()
}

// RestoreOnPanic restores the terminal if the goroutine is panicking and
// then panics again with the same value, so the crash report prints on a
// sane screen. Use it directly as a deferred call, right after Open:
//
//	t, err := term.Open(opts)
//	...
//	defer t.Close()
//	defer t.RestoreOnPanic()
//
// Panics in other goroutines bypass it; those goroutines should recover
// and hand the panic to the one that deferred this.
func (t *Terminal) RestoreOnPanic() {
	if r := recover(); r != nil {
		_ = t.Restore()
		panic(r)
	}
}

// Close waits briefly for queued frames, restores the terminal, stops
// the goroutines and signal handling, closes Events and releases the tty.
func (t *Terminal) Close() error {
	if !t.closed.Load() {
		t.WaitDrained(drainTimeout)
	}
	err := t.Restore()
	t.once.Do(func() {
		if t.signals != nil {
			t.signals.stop()
		}
		t.tty.NotifyResize(nil)
		close(t.done)
	})
	// Closing the tty also ends a read in progress, which Stop may not.
	cerr := t.tty.Close()
	t.wg.Wait()
	if cerr != nil && !errors.Is(cerr, os.ErrClosed) && err == nil {
		err = fmt.Errorf("close the terminal: %w", cerr)
	}
	return err
}

// writeWithin writes p to the tty directly, giving up after timeout (a
// stalled pty must not hang a restore; the write finishes or fails when
// the tty is stopped).
func (t *Terminal) writeWithin(p []byte, timeout time.Duration) error {
	errc := make(chan error, 1)
	go func() {
		_, err := t.tty.Write(p)
		errc <- err
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err := <-errc:
		return err
	case <-timer.C:
		return fmt.Errorf("terminal output stalled for %v", timeout)
	}
}

// lockWithin tries to take mu for up to d and reports whether it did.
func lockWithin(mu *sync.Mutex, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if mu.TryLock() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
}

// awayUntil returns a channel closed when a hand-off ends, or nil when
// the terminal is not handed off.
func (t *Terminal) awayUntil() chan struct{} {
	t.awayMu.Lock()
	defer t.awayMu.Unlock()
	return t.back
}

func (t *Terminal) setAway(away bool) {
	t.awayMu.Lock()
	defer t.awayMu.Unlock()
	switch {
	case away && t.back == nil:
		t.back = make(chan struct{})
	case !away && t.back != nil:
		close(t.back)
		t.back = nil
	}
}

// post queues an event from outside the decoder (resume, signal).
func (t *Terminal) post(ev Event) {
	select {
	case t.inject <- ev:
	case <-t.done:
	}
}

package term

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// ErrNoJobControl means Suspend was refused: quire shares its process
// group with its parent, so the parent does no job control and nobody
// could `fg` us again.
var ErrNoJobControl = errors.New("cannot suspend: the shell that started quire does no job control")

// errAway is returned when a hand-off is already in progress.
var errAway = errors.New("terminal is handed off")

// HandOff lends the terminal to fn, typically to run $EDITOR or $PAGER
// on the real tty:
//
//  1. queued frames are written (up to 750 ms; then it proceeds anyway);
//  2. the terminal is restored as by Restore (alternate screen left,
//     paste and mouse reporting off, cursor visible, raw mode off) and the
//     reader stops reading, so fn's child gets every keystroke;
//  3. fn runs; SIGINT and SIGQUIT meanwhile belong to the child (Ctrl+C
//     in less must not kill quire);
//  4. raw mode and the modes are switched back on, and a ResumeEvent (plus
//     a ResizeEvent if the size changed) is queued: the screen no longer
//     shows the last frame, so the renderer must repaint fully.
//
// To tell a cat-style child (output below the old cursor) from a
// less-style one (alternate screen, cursor restored), call CursorPosition
// before and after. HandOff returns fn's error, joined with any error
// taking the terminal back. If fn panics the terminal stays restored.
func (t *Terminal) HandOff(fn func() error) error {
	if err := t.leave(); err != nil {
		return err
	}
	if t.signals != nil {
		t.signals.setAway(true)
	}
	ferr := fn()
	if t.signals != nil {
		t.signals.setAway(false)
	}
	if err := t.reenter(); err != nil {
		return errors.Join(ferr, err)
	}
	t.post(ResumeEvent{})
	return ferr
}

// Suspend is Ctrl+Z: the terminal is restored, the process group stops
// (as the shell's job control expects), and after `fg` the terminal is
// taken back and a ResumeEvent queued. It returns once resumed. In raw
// mode Ctrl+Z arrives as a key, so the application calls this; a SIGTSTP
// from outside is handled the same way.
func (t *Terminal) Suspend() error {
	if !hasJobControl() {
		return ErrNoJobControl
	}
	return t.HandOff(func() error { return stopJob(t.signals) })
}

// stopJob stops our process group, as Ctrl+Z in a cooked terminal would,
// and returns once the shell has continued it.
func stopJob(h *signalHandler) error {
	// kill(0) returns before the stop takes hold of this thread, which
	// would run on and take the terminal back while the rest of the job
	// is stopped; so wait for the SIGCONT that ends the stop.
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	defer signal.Stop(cont)
	if h != nil {
		h.ownStops.Add(1)
	}
	if err := unix.Kill(0, unix.SIGSTOP); err != nil {
		if h != nil {
			h.ownStops.Add(-1)
		}
		return fmt.Errorf("suspend: %w", err)
	}
	<-cont
	return nil
}

// hasJobControl reports whether something will continue us after a
// stop: a job-control shell runs us as a job (our process group is not
// the session leader's, which also covers `(quire; echo done)`, where a
// subshell shares our job), or our parent runs us in a group apart from
// its own.
func hasJobControl() bool {
	if sid, err := unix.Getsid(0); err == nil && unix.Getpgrp() != sid {
		return true
	}
	ppgid, err := unix.Getpgid(unix.Getppid())
	return err == nil && ppgid != unix.Getpgrp()
}

// leave gives the terminal away (steps 1 and 2 of HandOff).
func (t *Terminal) leave() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch t.phase {
	case phaseClosed:
		return ErrClosed
	case phaseAway:
		return errAway
	}
	t.q.waitDrained(drainTimeout)
	held := lockWithin(&t.outMu, drainTimeout)
	t.setAway(true) // the writer holds further frames until we are back
	werr := t.writeWithin([]byte(leaveSeq(t.modes)), restoreWrite)
	if held {
		t.outMu.Unlock()
	}
	t.parkReader(parkTimeout)
	if err := t.tty.Stop(); err != nil {
		// Still in raw mode: stay in charge rather than run a child on a
		// raw terminal.
		_ = t.writeWithin([]byte(enterSeq(t.modes)), restoreWrite)
		t.park.release()
		t.setAway(false)
		return fmt.Errorf("hand the terminal over: %w", errors.Join(werr, err))
	}
	t.stderr.undo()
	t.phase = phaseAway
	return nil
}

// reenter takes the terminal back (step 4 of HandOff).
func (t *Terminal) reenter() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.phase == phaseClosed {
		return ErrClosed // restored meanwhile (a signal): stay restored
	}
	if err := t.tty.Start(); err != nil {
		t.markClosed()
		return fmt.Errorf("take the terminal back: %w", err)
	}
	_, werr := t.tty.Write([]byte(enterSeq(t.modes)))
	if err := t.stderr.apply(); err != nil && werr == nil {
		werr = err
	}
	t.phase = phaseActive
	t.park.release()
	t.setAway(false)
	select {
	case t.resized <- struct{}{}: // the size may have changed meanwhile
	default:
	}
	if werr != nil {
		return fmt.Errorf("take the terminal back: %w", werr)
	}
	return nil
}

package term

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/quire-sh/quire/internal/queue"
)

// The writer goroutine owns every write of frame bytes to the tty that
// could wait, so the UI never waits on a slow pty (ssh back-pressure blocks
// a write for as long as the link is behind). While it is idle, a frame's
// bytes the device takes at once are written by the caller (submit), which
// saves a wake-up of the writer per frame; the rest goes to the writer.
//
// Frames are never dropped and never merged or reordered: each diff frame
// assumes the screen the previous one left, so losing one corrupts the
// display until the next full repaint. What happens when frames pile up:
//
//   - Up to Options.QueueFrames frames wait without any cost to the caller.
//   - Beyond that, Write blocks until the writer finishes a frame, but for
//     at most Options.WriteBudget; then the frame is queued anyway. So the
//     UI loses at most one budget per frame it draws, and the queue grows
//     only while the caller keeps drawing into a stalled tty.
//   - The caller is expected to look at Pending and skip drawing while the
//     writer is behind: a skipped frame costs nothing, because the renderer
//     diffs the next one against what it last handed over. That is how
//     back-pressure turns into a lower frame rate instead of memory.
//
// Write errors (a hung-up tty) are kept for WriteErr and otherwise
// ignored; the frame counts as written so WaitDrained never hangs on them.

const (
	defaultQueueFrames = 8
	defaultWriteBudget = 20 * time.Millisecond
	// maxPooledFrame keeps rare huge frames (a full repaint of a big
	// screen) from staying alive in the pool.
	maxPooledFrame = 1 << 20
)

var framePool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

type frameQueue struct {
	frames *queue.Unbounded[*[]byte] // its Wake says frames are waiting

	// mu makes a push's look at the queue's length and its watch of
	// progress one step, so a frame finished in between is not missed.
	mu       sync.Mutex
	closed   bool
	progress chan struct{} // closed and replaced when a frame is done and someone waits
	watched  bool          // progress was handed to a waiter

	submitted atomic.Uint64
	written   atomic.Uint64
}

func newFrameQueue() *frameQueue {
	return &frameQueue{frames: queue.NewUnbounded[*[]byte](), progress: make(chan struct{})}
}

// push queues a copy of p, waiting up to budget while limit frames are
// already waiting. It reports false when the queue is closed.
func (q *frameQueue) push(p []byte, limit int, budget time.Duration) bool {
	bp := framePool.Get().(*[]byte)
	*bp = append((*bp)[:0], p...)
	var timer *time.Timer
	expired := false
	for {
		q.mu.Lock()
		if q.closed {
			q.mu.Unlock()
			framePool.Put(bp)
			return false
		}
		if q.frames.Len() < limit || expired {
			// Counted before it is queued, so the writer never finishes
			// more frames than were submitted.
			q.submitted.Add(1)
			q.frames.Push(bp)
			q.mu.Unlock()
			if timer != nil {
				timer.Stop()
			}
			return true
		}
		progress := q.watch()
		q.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(budget)
		}
		select {
		case <-progress:
		case <-timer.C:
			expired = true
		}
	}
}

// done marks one frame finished and wakes whoever waits on progress.
func (q *frameQueue) done(bp *[]byte) {
	if cap(*bp) <= maxPooledFrame {
		framePool.Put(bp)
	}
	q.written.Add(1)
	q.mu.Lock()
	if q.watched {
		close(q.progress)
		q.progress = make(chan struct{})
		q.watched = false
	}
	q.mu.Unlock()
}

// watch returns the channel closed at the next finished frame; q.mu is
// held.
func (q *frameQueue) watch() chan struct{} {
	q.watched = true
	return q.progress
}

// close refuses further frames; queued ones are still popped (and
// discarded by the writer, which sees the terminal closed).
func (q *frameQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.frames.Close()
}

func (q *frameQueue) pending() int {
	return int(q.submitted.Load() - q.written.Load())
}

// waitDrained waits until every submitted frame is written or the timeout
// passes, and reports which.
func (q *frameQueue) waitDrained(timeout time.Duration) bool {
	target := q.submitted.Load()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		q.mu.Lock()
		progress := q.watch()
		q.mu.Unlock()
		if q.written.Load() >= target {
			return true
		}
		select {
		case <-progress:
		case <-deadline.C:
			return q.written.Load() >= target
		}
	}
}

// frameWriter is the io.Writer handed to the renderer.
type frameWriter struct{ t *Terminal }

// Write queues one frame for the writer goroutine and returns at once
// (see the back-pressure rules above). An empty p is not a frame and
// queues nothing. After Restore or Close it returns ErrClosed.
func (w frameWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if err := w.t.submit(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// submit queues p behind the frames already queued. When nothing is
// queued or being written and the tty can take bytes without waiting
// (tryWriter), the caller writes what the tty takes now itself and queues
// only the rest: a frame the tty keeps up with costs no wake-up of the
// writer goroutine, and a slow tty still never blocks the caller.
func (t *Terminal) submit(p []byte) error {
	if t.direct != nil && t.q.pending() == 0 && t.outMu.TryLock() {
		rest, err := t.writeNow(p)
		if err == nil && len(rest) > 0 && !t.q.push(rest, t.opts.QueueFrames, t.opts.WriteBudget) {
			err = ErrClosed
		}
		// The rest is queued before outMu is let go, so nothing the
		// writer takes meanwhile can overtake it.
		t.outMu.Unlock()
		return err
	}
	if !t.q.push(p, t.opts.QueueFrames, t.opts.WriteBudget) {
		return ErrClosed
	}
	return nil
}

// writeNow writes what the tty takes of p without waiting, unless a frame
// was queued meanwhile, the terminal is handed off or closed; it returns
// what is left to queue. outMu is held.
func (t *Terminal) writeNow(p []byte) ([]byte, error) {
	switch {
	case t.closed.Load():
		return nil, ErrClosed
	case t.q.pending() > 0 || t.awayUntil() != nil:
		return p, nil
	}
	start := time.Now()
	n, err := t.direct.TryWrite(p)
	if err != nil {
		// As the writer does: kept for WriteErr, and the frame counts
		// as written.
		t.noteWriteErr(err)
		return nil, nil
	}
	t.lastWrite.Store(int64(time.Since(start)))
	return p[n:], nil
}

// writeLoop is the writer goroutine.
func (t *Terminal) writeLoop() {
	defer t.wg.Done()
	for {
		select {
		case <-t.q.frames.Wake():
		case <-t.done:
			// Close has restored the terminal; account for leftovers so
			// that nobody waits on them.
			for bp, ok := t.q.frames.Pop(); ok; bp, ok = t.q.frames.Pop() {
				t.q.done(bp)
			}
			return
		}
		for bp, ok := t.q.frames.Pop(); ok; bp, ok = t.q.frames.Pop() {
			t.writeFrame(*bp)
			t.q.done(bp)
		}
	}
}

// writeFrame writes one frame unless the terminal is handed off (then it
// waits until it is back) or closed (then the frame is dropped).
func (t *Terminal) writeFrame(p []byte) {
	for {
		t.outMu.Lock()
		if t.closed.Load() {
			t.outMu.Unlock()
			return
		}
		if back := t.awayUntil(); back != nil {
			t.outMu.Unlock()
			select {
			case <-back:
				continue
			case <-t.done:
				return
			}
		}
		start := time.Now()
		_, err := t.tty.Write(p)
		t.lastWrite.Store(int64(time.Since(start)))
		t.outMu.Unlock()
		if err != nil {
			t.noteWriteErr(err)
		}
		return
	}
}

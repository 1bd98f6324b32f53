package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/quire-sh/quire/engine/event"
	bolt "go.etcd.io/bbolt"
)

// Writer appends one session's events. It satisfies the engine's
// Recorder: Record(e, true) returns once e and everything before it are
// committed (fsynced); Record(e, false) may wait up to Options.GroupWindow,
// or until Options.GroupEvents events are waiting, and is then committed
// with its neighbours in one transaction. Record is meant to be called from
// one goroutine; reads and Flush may come from others.
type Writer struct {
	store *Store
	id    string
	dir   string
	path  string
	lock  *lockFile
	view

	window         time.Duration
	fragmentWindow time.Duration
	maxPending     int

	mu       sync.Mutex // guards the fields below
	pending  []waiting
	last     uint64  // seq of the last accepted event, committed or not
	sum      Summary // includes pending events
	timer    *time.Timer
	timerAt  time.Time // when timer commits
	flushing bool      // a background commit is running
	err      error     // the last commit failed: events wait in pending
	retry    *time.Timer
	closed   bool

	// commit writes a batch and the summary in one transaction; tests
	// replace it to make the disk fail.
	commit func(batch []encoded, sum Summary) error

	commitMu     sync.Mutex // serialises commits, so batches land in order
	written      Summary    // what session.json holds; guarded by commitMu
	writtenAt    time.Time
	summaryErr   error
	summaryEvery time.Duration
}

func newWriter(s *Store, dir string, lock *lockFile, db *bolt.DB, sum Summary) *Writer {
	w := &Writer{
		store:          s,
		id:             sum.ID,
		dir:            dir,
		lock:           lock,
		window:         s.opts.GroupWindow,
		fragmentWindow: s.opts.FragmentWindow,
		maxPending:     s.opts.GroupEvents,
		last:           sum.LastSeq,
		sum:            sum,
		written:        sum,
		writtenAt:      s.opts.Now(),
		summaryEvery:   summaryEvery,
	}
	w.path = db.Path()
	w.view = view{db: db, path: w.path}
	w.commit = w.commitBatch
	return w
}

// retryInterval is how often a writer whose commit failed tries again
// while nothing else makes it.
const retryInterval = time.Second

// SaveError is a commit that failed (a full disk, an I/O error, a file
// system remounted read-only). Nothing is lost by it: the events wait in
// memory and go out with the next commit that succeeds.
type SaveError struct {
	Path string // the session's events.db
	Err  error
}

func (e *SaveError) Error() string {
	cause := e.Err.Error()
	var errno syscall.Errno
	if errors.As(e.Err, &errno) {
		cause = errno.Error() // "no space left on device", without bbolt's stale file name
	}
	return fmt.Sprintf("saving the session failed: %s (%s)", cause, e.Path)
}

func (e *SaveError) Unwrap() error { return e.Err }

// ID is the session's id.
func (w *Writer) ID() string { return w.id }

// LastSeq is the seq of the last event accepted by Record (or, right after
// Append, the last one committed): the engine continues from LastSeq()+1.
func (w *Writer) LastSeq() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// Summary is the session's summary including events not yet committed.
func (w *Writer) Summary() Summary {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.sum
	s.Dir, s.Running = w.dir, true
	return s
}

// Record appends e. Seqs must increase strictly (gaps are allowed, so a
// fork can continue its source's numbering). A text fragment that
// continues the one recorded before it (event.Mergeable), both still
// waiting, joins it: they are stored as one event. With durable set, e and all
// events before it are committed when Record returns nil: this is the
// acknowledgement of a user message. A durable Record that fails keeps
// nothing of e (the caller does not show it), but keeps every event
// before it for the next commit.
//
// When a commit has failed, Record still keeps e (in memory) and returns
// the *SaveError until a commit succeeds again: one is tried at every
// durable Record and every retryInterval.
func (w *Writer) Record(e event.Event, durable bool) error {
	// A text fragment is encoded at its commit, once it has taken in the
	// fragments recorded after it; anything else is encoded now, outside
	// the lock.
	fragment := !durable && event.Mergeable(e, e)
	var enc encoded
	if !fragment {
		var err error
		if enc, err = encodeEvent(e); err != nil {
			return err
		}
	}
	w.mu.Lock()
	switch {
	case w.closed:
		w.mu.Unlock()
		return ErrClosed
	case e.Seq <= w.last:
		last := w.last
		w.mu.Unlock()
		return fmt.Errorf("record %s event: seq %d does not follow %d", e.Kind, e.Seq, last)
	}
	prevLast, prevSum := w.last, w.sum
	w.last = e.Seq
	w.sum.observe(e)
	switch k := len(w.pending) - 1; {
	case fragment && k >= 0 && w.pending[k].merges(e):
		w.pending[k].merge(e)
	case fragment:
		w.pending = append(w.pending, waitingFragment(e))
	default:
		w.pending = append(w.pending, waiting{enc: enc})
	}
	n := len(w.pending)
	failing := w.err
	switch {
	case durable:
		w.mu.Unlock()
		if err := w.flush(true); err != nil {
			w.mu.Lock()
			if k := len(w.pending) - 1; k >= 0 && w.pending[k].frag == nil && w.pending[k].enc.seq == e.Seq {
				w.pending = w.pending[:k]
				w.last, w.sum = prevLast, prevSum
			}
			w.mu.Unlock()
			return err
		}
		return nil
	case failing != nil:
		// The retry timer commits it; committing at every event would
		// only repeat the failure.
		w.scheduleRetryLocked()
		w.mu.Unlock()
		return failing
	case n >= backlogFactor*w.maxPending:
		// The disk cannot keep up: commit now, in this goroutine.
		w.mu.Unlock()
		return w.flush(false)
	case n >= w.maxPending && !w.flushing:
		// Enough for a transaction: commit in the background, so the
		// stream goes on while the commit waits for the disk.
		w.flushing = true
		go w.backgroundFlush()
	case fragment:
		if w.timer == nil {
			w.scheduleLocked(w.fragmentWindow)
		}
	default:
		w.scheduleLocked(w.window)
	}
	w.mu.Unlock()
	return nil
}

// scheduleLocked arms the commit timer so that an event recorded now
// waits at most window; a timer already armed for sooner stands. w.mu is
// held.
func (w *Writer) scheduleLocked(window time.Duration) {
	at := time.Now().Add(window)
	if w.timer != nil {
		if !at.Before(w.timerAt) {
			return
		}
		w.timer.Stop()
	}
	w.timerAt = at
	w.timer = time.AfterFunc(window, func() { w.flush(false) })
}

// waiting is an event recorded and not yet committed: encoded, or a text
// fragment (frag) still open to the fragments that continue it.
type waiting struct {
	enc  encoded
	frag *fragment
}

// fragment is the merged text fragments of one stream, kept as an event
// until the commit encodes it; text collects the fragments after the
// first, so a long run costs linear time.
type fragment struct {
	e    event.Event
	text []byte
}

func waitingFragment(e event.Event) waiting {
	return waiting{frag: &fragment{e: e}}
}

func (p waiting) merges(e event.Event) bool {
	return p.frag != nil && event.Mergeable(p.frag.e, e)
}

func (p waiting) merge(e event.Event) {
	f := p.frag
	if f.text == nil {
		f.text = append(make([]byte, 0, 2*(len(f.e.Text)+len(e.Text))), f.e.Text...)
	}
	f.text = append(f.text, e.Text...)
	f.e.Seq, f.e.Time = e.Seq, e.Time
}

// encode encodes a waiting fragment; it is called by the commit that took
// it out of the queue, so nothing else touches it.
func (p *waiting) encode() error {
	if p.frag == nil {
		return nil
	}
	e := p.frag.e
	if p.frag.text != nil {
		e.Text = string(p.frag.text)
	}
	enc, err := encodeEvent(e)
	if err != nil {
		return err
	}
	p.enc, p.frag = enc, nil
	return nil
}

func (w *Writer) scheduleRetryLocked() {
	if w.retry == nil && !w.closed {
		w.retry = time.AfterFunc(retryInterval, w.retryFlush)
	}
}

func (w *Writer) retryFlush() {
	w.mu.Lock()
	w.retry = nil
	closed := w.closed
	w.mu.Unlock()
	if !closed {
		w.flush(false) // a failure schedules the next try
	}
}

// backlogFactor times GroupEvents waiting events make Record commit
// synchronously: the memory bound when the disk is slower than the
// stream.
const backlogFactor = 8

// backgroundFlush commits full batches until fewer than GroupEvents wait;
// the rest is left to the window's timer.
func (w *Writer) backgroundFlush() {
	for {
		w.flush(false) // a failure is sticky and returned by the next Record
		w.mu.Lock()
		if len(w.pending) < w.maxPending || w.err != nil {
			w.flushing = false
			if len(w.pending) > 0 && w.timer == nil && !w.closed {
				window := w.fragmentWindow
				for _, p := range w.pending {
					if p.frag == nil {
						window = w.window
						break
					}
				}
				w.scheduleLocked(window)
			}
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
	}
}

// Flush commits every event recorded so far.
func (w *Writer) Flush() error { return w.flush(true) }

// flush commits the waiting events in one transaction. urgent forces
// session.json to be rewritten too (a prompt was acknowledged). If the
// commit fails, the batch goes back to the front of the queue, ahead of
// anything recorded meanwhile, so the log never gets a hole and a later
// commit writes it in order.
func (w *Writer) flush(urgent bool) error {
	w.commitMu.Lock()
	defer w.commitMu.Unlock()

	w.mu.Lock()
	batch, sum := w.pending, w.sum
	w.pending = nil
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	encs := make([]encoded, len(batch))
	for i := range batch {
		if err := batch[i].encode(); err != nil {
			w.mu.Lock()
			w.pending = append(batch, w.pending...)
			w.mu.Unlock()
			return err
		}
		encs[i] = batch[i].enc
	}
	sum.LastActive = w.store.now()
	sum.LastSeq = encs[len(encs)-1].seq
	if err := w.commit(encs, sum); err != nil {
		serr := &SaveError{Path: w.path, Err: fmt.Errorf("session %s: commit events %d–%d: %w", w.id, encs[0].seq, sum.LastSeq, err)}
		w.mu.Lock()
		w.pending = append(batch, w.pending...)
		w.err = serr
		w.scheduleRetryLocked()
		w.mu.Unlock()
		return serr
	}
	w.mu.Lock()
	w.err = nil
	w.sum.LastActive = sum.LastActive
	w.mu.Unlock()
	w.maybeWriteSummary(sum, urgent)
	return nil
}

// commitBatch writes batch, its blobs and the summary in one bbolt
// transaction.
func (w *Writer) commitBatch(batch []encoded, sum Summary) error {
	return guard(func() error {
		return w.db.Update(func(tx *bolt.Tx) error {
			events, blobs := tx.Bucket(bucketEvents), tx.Bucket(bucketBlobs)
			events.FillPercent = 1 // keys only ever grow: pack pages full
			for _, enc := range batch {
				for _, b := range enc.blobs {
					if err := putBlob(blobs, b.hash, b.data); err != nil {
						return err
					}
				}
				if err := events.Put(seqKey(enc.seq), enc.value); err != nil {
					return err
				}
			}
			return putSummary(tx.Bucket(bucketMeta), sum)
		})
	})
}

// summaryEvery is how often session.json is rewritten for "last active"
// alone: listings show it to the minute and order sessions by it, and each
// rewrite is an open, a write and a rename, whose system calls also wake
// the runtime's monitor thread, once a second through a streamed answer.
const summaryEvery = 10 * time.Second

// maybeWriteSummary refreshes session.json when something a listing shows
// changed, or at most every summaryEvery for "last active". Called with
// commitMu held.
func (w *Writer) maybeWriteSummary(sum Summary, urgent bool) {
	old := w.written
	changed := sum.Title != old.Title || sum.Turns != old.Turns || sum.Tokens != old.Tokens || sum.Model != old.Model
	if !urgent && !changed && w.store.opts.Now().Sub(w.writtenAt) < w.summaryEvery {
		return
	}
	if err := writeSummaryFile(w.dir, sum); err != nil {
		w.summaryErr = err
		return
	}
	w.written, w.writtenAt, w.summaryErr = sum, w.store.opts.Now(), nil
}

// Close commits what is waiting, refreshes session.json and releases the
// session. It returns the first error the writer met, if any.
func (w *Writer) Close() error {
	_, err := w.close(false)
	return err
}

// CloseDiscardingEmpty closes the writer and, if the session never got a
// prompt (quire was started and left at once, or /clear was followed by
// quitting), removes it, so listings are not cluttered with sessions that
// hold nothing to resume. It reports whether the session was removed.
func (w *Writer) CloseDiscardingEmpty() (removed bool, err error) {
	return w.close(true)
}

func (w *Writer) close(discardEmpty bool) (bool, error) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return false, nil
	}
	w.closed = true
	if w.retry != nil {
		w.retry.Stop()
		w.retry = nil
	}
	w.mu.Unlock()
	err := w.flush(true)

	w.commitMu.Lock()
	defer w.commitMu.Unlock()
	if err == nil && w.summaryErr != nil {
		err = w.summaryErr
	}
	if final := w.summaryLocked(); w.written != final {
		if serr := writeSummaryFile(w.dir, final); serr != nil && err == nil {
			err = serr
		}
	}
	if cerr := w.db.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("close %s: %w", w.path, cerr)
	}
	removed := false
	if final := w.summaryLocked(); discardEmpty && err == nil && final.Turns == 0 && final.Title == "" {
		// Still holding the lock: rename away first, as Prune does, so a
		// kill half-way leaves only a dot directory the next Prune ends.
		doomed := filepath.Join(filepath.Dir(w.dir), tmpPrefix+"removed-"+filepath.Base(w.dir))
		if rerr := os.Rename(w.dir, doomed); rerr != nil {
			err = fmt.Errorf("remove empty session: %w", rerr)
		} else if rerr := os.RemoveAll(doomed); rerr != nil {
			err = fmt.Errorf("remove empty session: %w", rerr)
		} else {
			removed = true
		}
	}
	if uerr := w.lock.unlock(); uerr != nil && err == nil {
		err = uerr
	}
	return removed, err
}

func (w *Writer) summaryLocked() Summary {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sum
}

// abandon releases a writer that was never handed out.
func (w *Writer) abandon() {
	w.db.Close()
	w.lock.unlock()
}

// Tail returns the last n committed events (after committing what waits),
// oldest first.
func (w *Writer) Tail(n int) ([]event.Event, error) {
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return w.view.Tail(n)
}

// Events returns the events with from ≤ seq ≤ to (to 0: to the end), after
// committing what waits.
func (w *Writer) Events(from, to uint64) ([]event.Event, error) {
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return w.view.Events(from, to)
}

// ReadAll returns every event, after committing what waits.
func (w *Writer) ReadAll() ([]event.Event, error) { return w.Events(1, 0) }

// TailTurns returns the events from the n-th last prompt on, after
// committing what waits.
func (w *Writer) TailTurns(n int) ([]event.Event, error) {
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return w.view.TailTurns(n)
}

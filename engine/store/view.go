package store

import (
	"fmt"

	"github.com/quire-sh/quire/engine/event"
	bolt "go.etcd.io/bbolt"
)

// view reads an open session database. Every read runs under guard, so a
// damaged page is an error naming the file, not a crash.
type view struct {
	db   *bolt.DB
	path string
}

func (v view) read(fn func(tx *bolt.Tx) error) error {
	err := guard(func() error {
		return v.db.View(func(tx *bolt.Tx) error {
			if err := checkFormat(tx); err != nil {
				return err
			}
			return fn(tx)
		})
	})
	if err != nil {
		return fmt.Errorf("%s: %w", v.path, err)
	}
	return nil
}

// Summary is the summary stored with the last commit, with LastSeq taken
// from the events themselves.
func (v view) Summary() (Summary, error) {
	var s Summary
	err := v.read(func(tx *bolt.Tx) error {
		var err error
		if s, err = getSummary(tx); err != nil {
			return err
		}
		s.LastSeq, err = lastSeq(tx)
		return err
	})
	return s, err
}

// lastSeq is the seq of the last committed event, 0 if there is none.
func (v view) lastSeq() (uint64, error) {
	var seq uint64
	err := v.read(func(tx *bolt.Tx) error {
		var err error
		seq, err = lastSeq(tx)
		return err
	})
	return seq, err
}

// Events returns the events with from ≤ seq ≤ to, oldest first; to 0
// means to the end.
func (v view) Events(from, to uint64) ([]event.Event, error) {
	var out []event.Event
	if last, err := v.lastSeq(); err == nil && last >= from {
		end := last
		if to != 0 && to < last {
			end = to
		}
		if end >= from {
			out = make([]event.Event, 0, min(end-from+1, 1<<20)) // seqs are dense but may have gaps
		}
	}
	err := v.each(from, to, func(e event.Event) error {
		out = append(out, e)
		return nil
	})
	return out, err
}

// ReadAll returns every event, oldest first.
func (v view) ReadAll() ([]event.Event, error) { return v.Events(1, 0) }

// each calls fn for the events with from ≤ seq ≤ to in order, decoding one
// at a time so an export streams.
func (v view) each(from, to uint64, fn func(event.Event) error) error {
	return v.read(func(tx *bolt.Tx) error {
		blobs := tx.Bucket(bucketBlobs)
		c := tx.Bucket(bucketEvents).Cursor()
		for k, val := c.Seek(seqKey(from)); k != nil; k, val = c.Next() {
			seq, ok := keySeq(k)
			if !ok {
				return fmt.Errorf("%w: event key of %d bytes", ErrDamaged, len(k))
			}
			if to != 0 && seq > to {
				break
			}
			e, err := decodeEvent(seq, val, blobs)
			if err != nil {
				return err
			}
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
	})
}

// Tail returns the last n events, oldest first, reading only them: what
// the first screen of a resumed session needs.
func (v view) Tail(n int) ([]event.Event, error) {
	if n <= 0 {
		return nil, nil
	}
	out := make([]event.Event, 0, n)
	err := v.read(func(tx *bolt.Tx) error {
		blobs := tx.Bucket(bucketBlobs)
		c := tx.Bucket(bucketEvents).Cursor()
		for k, val := c.Last(); k != nil && len(out) < n; k, val = c.Prev() {
			seq, ok := keySeq(k)
			if !ok {
				return fmt.Errorf("%w: event key of %d bytes", ErrDamaged, len(k))
			}
			e, err := decodeEvent(seq, val, blobs)
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}

// TailTurns returns the events from the n-th last user message to the
// end, oldest first (all events if there are fewer prompts): the last n
// exchanges whole, however many deltas they hold, without reading what
// came before.
func (v view) TailTurns(n int) ([]event.Event, error) {
	if n <= 0 {
		return nil, nil
	}
	var out []event.Event
	err := v.read(func(tx *bolt.Tx) error {
		blobs := tx.Bucket(bucketBlobs)
		c := tx.Bucket(bucketEvents).Cursor()
		prompts := 0
		for k, val := c.Last(); k != nil && prompts < n; k, val = c.Prev() {
			seq, ok := keySeq(k)
			if !ok {
				return fmt.Errorf("%w: event key of %d bytes", ErrDamaged, len(k))
			}
			e, err := decodeEvent(seq, val, blobs)
			if err != nil {
				return err
			}
			out = append(out, e)
			if e.Kind == event.UserMessage {
				prompts++
			}
		}
		return nil
	})
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}

// Blob returns the blob named h.
func (v view) Blob(h Hash) ([]byte, error) {
	var data []byte
	err := v.read(func(tx *bolt.Tx) error {
		var err error
		data, err = getBlob(tx.Bucket(bucketBlobs), h)
		return err
	})
	return data, err
}

// Reader is a session opened for reading. It holds the session's lock
// shared, so no writer can open the session until Close.
type Reader struct {
	view
	lock *lockFile
	dir  string
}

// check verifies what a damaged file most often breaks: the format stamp,
// the summary, and the newest event (the pages written last).
func (r *Reader) check() error {
	return r.read(func(tx *bolt.Tx) error {
		if _, err := getSummary(tx); err != nil {
			return err
		}
		k, v := tx.Bucket(bucketEvents).Cursor().Last()
		if k == nil {
			return nil
		}
		seq, ok := keySeq(k)
		if !ok {
			return fmt.Errorf("%w: event key of %d bytes", ErrDamaged, len(k))
		}
		_, err := decodeEvent(seq, v, tx.Bucket(bucketBlobs))
		return err
	})
}

// Close releases the session.
func (r *Reader) Close() error {
	err := r.db.Close()
	if uerr := r.lock.unlock(); err == nil {
		err = uerr
	}
	return err
}

package store

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/quire-sh/quire/engine/event"
	bolt "go.etcd.io/bbolt"
)

// forkBatch is how many events a fork copies per transaction.
const forkBatch = 4096

// Fork starts a new session in the same cwd holding the events of session
// srcID with seq ≤ upto, and returns its writer: the conversation part of
// /rewind (the engine rebuilds the model's history from the events). The
// source is left as it was. Its checkpoints come along so file rewinds keep
// working: those of kept turns as they are, and those of the discarded
// turns merged into the last kept turn, so rewinding past it still undoes
// every file change and the next turn starts fresh snapshots. Events are
// copied verbatim, including the source's SessionStarted;
// Summary.ForkedFrom names the source.
func (s *Store) Fork(srcID string, upto uint64) (*Writer, error) {
	r, err := s.OpenReader(srcID)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return s.fork(r.view, upto)
}

// Fork is Store.Fork for the session this writer holds open.
func (w *Writer) Fork(upto uint64) (*Writer, error) {
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return w.store.fork(w.view, upto)
}

func (s *Store) fork(src view, upto uint64) (*Writer, error) {
	srcSum, err := src.Summary()
	if err != nil {
		return nil, err
	}
	w, err := s.create("", srcSum.Cwd, srcSum.ID)
	if err != nil {
		return nil, err
	}
	if err := copyEvents(src, w, upto); err != nil {
		w.Close()
		return nil, fmt.Errorf("fork session %s: %w", srcSum.ID, err)
	}
	if err := copyCheckpoints(src, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("fork session %s: %w", srcSum.ID, err)
	}
	return w, nil
}

type rawEvent struct {
	seq   uint64
	value []byte
	blobs map[Hash][]byte
}

// copyEvents copies events 1..upto with their blobs, committing in batches
// and updating the new session's summary as it goes.
func copyEvents(src view, w *Writer, upto uint64) error {
	var batch []rawEvent
	commit := func() error {
		if len(batch) == 0 {
			return nil
		}
		w.mu.Lock()
		sum := w.sum
		w.mu.Unlock()
		sum.LastActive = w.store.now()
		err := guard(func() error {
			return w.db.Update(func(tx *bolt.Tx) error {
				events, blobs := tx.Bucket(bucketEvents), tx.Bucket(bucketBlobs)
				events.FillPercent = 1
				for _, r := range batch {
					for h, data := range r.blobs {
						if err := putBlob(blobs, h, data); err != nil {
							return err
						}
					}
					if err := events.Put(seqKey(r.seq), r.value); err != nil {
						return err
					}
				}
				return putSummary(tx.Bucket(bucketMeta), sum)
			})
		})
		batch = batch[:0]
		return err
	}
	var from uint64 = 1
	for {
		var last uint64
		err := src.read(func(tx *bolt.Tx) error {
			blobs := tx.Bucket(bucketBlobs)
			c := tx.Bucket(bucketEvents).Cursor()
			for k, v := c.Seek(seqKey(from)); k != nil && len(batch) < forkBatch; k, v = c.Next() {
				seq, _ := keySeq(k)
				if seq > upto {
					break
				}
				e, err := decodeEvent(seq, v, blobs) // verifies it, and feeds the summary
				if err != nil {
					return err
				}
				r := rawEvent{seq: seq, value: append([]byte(nil), v...)}
				var refs struct{ Blobs *blobRefs }
				json.Unmarshal(v[4:], &refs) // decodeEvent has parsed it already
				if refs.Blobs != nil {
					r.blobs = map[Hash][]byte{}
					for _, ref := range []string{refs.Blobs.Output, refs.Blobs.Diff, refs.Blobs.Preview} {
						if h, err := ParseHash(ref); err == nil {
							if r.blobs[h], err = getBlob(blobs, h); err != nil {
								return err
							}
						}
					}
				}
				batch = append(batch, r)
				w.observe(e)
				last = seq
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := commit(); err != nil {
			return err
		}
		if last == 0 || last >= upto {
			break
		}
		from = last + 1
	}
	w.commitMu.Lock()
	defer w.commitMu.Unlock()
	w.maybeWriteSummary(w.summaryLocked(), true)
	return w.summaryErr
}

// observe feeds a copied event to the writer's summary and seq.
func (w *Writer) observe(e event.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sum.observe(e)
	w.last = e.Seq
}

// copyCheckpoints copies the source's file checkpoints, merging those of
// turns after the last kept one into it.
func copyCheckpoints(src view, w *Writer) error {
	keep := w.Summary().Turns
	type merged struct{ cp fileCheckpoint }
	out := map[string]*merged{}
	var order []string
	blobsNeeded := map[Hash]bool{}
	copied := map[string][]byte{}
	err := src.read(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketCheckpoints).ForEach(func(k, v []byte) error {
			turn, path, ok := parseCheckpointKey(k)
			if !ok {
				return fmt.Errorf("%w: checkpoint key of %d bytes", ErrDamaged, len(k))
			}
			var cp fileCheckpoint
			if err := json.Unmarshal(v, &cp); err != nil {
				return fmt.Errorf("%w: checkpoint %q: %v", ErrDamaged, path, err)
			}
			if h, err := ParseHash(cp.Before.Hash); err == nil && cp.Before.Skipped == "" && cp.Before.Exists {
				blobsNeeded[h] = true
			}
			if turn < keep {
				copied[string(k)] = append([]byte(nil), v...)
				return nil
			}
			// The last kept turn and every discarded one fold together:
			// the earliest before wins, the latest after wins.
			m := out[path]
			if m == nil {
				m = &merged{cp: cp}
				out[path] = m
				order = append(order, path)
				return nil
			}
			m.cp.After = cp.After
			return nil
		})
	})
	if err != nil {
		return err
	}
	blobs := map[Hash][]byte{}
	err = src.read(func(tx *bolt.Tx) error {
		for h := range blobsNeeded {
			data, err := getBlob(tx.Bucket(bucketBlobs), h)
			if err != nil {
				return err
			}
			blobs[h] = data
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(order)
	return guard(func() error {
		return w.db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketCheckpoints)
			for h, data := range blobs {
				if err := putBlob(tx.Bucket(bucketBlobs), h, data); err != nil {
					return err
				}
			}
			for k, v := range copied {
				if err := b.Put([]byte(k), v); err != nil {
					return err
				}
			}
			for _, path := range order {
				rec, err := json.Marshal(out[path].cp)
				if err != nil {
					return err
				}
				if err := b.Put(checkpointKey(keep, path), rec); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

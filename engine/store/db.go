package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// FormatVersion is the version of the on-disk layout inside events.db
// (buckets, keys, record framing) this binary writes. It is independent of
// event.SchemaVersion, which versions the events themselves.
const FormatVersion = 1

var (
	bucketEvents      = []byte("events")
	bucketBlobs       = []byte("blobs")
	bucketCheckpoints = []byte("checkpoints")
	bucketMeta        = []byte("meta")

	keyFormat  = []byte("format")
	keySummary = []byte("summary")
)

// openTimeout bounds how long opening a session's bbolt file waits for
// bbolt's own flock. The session lock is always taken first, so the bbolt
// lock only ever waits for a reader in another process that is just
// closing.
const openTimeout = time.Second

// openDB opens a session's bbolt file. A damaged file (bbolt panics on some
// corruptions instead of returning an error) becomes an error that names
// the file.
func openDB(path string, readOnly bool) (*bolt.DB, error) {
	st, err := os.Stat(path)
	switch {
	case err == nil && st.Size() == 0:
		// bbolt would quietly initialise an empty file as a new database.
		return nil, fmt.Errorf("%s: %w: the file is empty", path, ErrDamaged)
	case err != nil && (readOnly || !errors.Is(err, fs.ErrNotExist)):
		return nil, err
	}
	var db *bolt.DB
	var file *os.File
	err = guard(func() error {
		var err error
		db, err = bolt.Open(path, 0o600, &bolt.Options{
			Timeout:      openTimeout,
			ReadOnly:     readOnly,
			NoStatistics: true,
			OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
				f, err := os.OpenFile(name, flag, perm)
				file = f
				return f, err
			},
		})
		return err
	})
	if err != nil {
		if db == nil && file != nil {
			// bbolt panicked half-way through opening: close its file
			// ourselves, or its flock would outlive the failed open.
			releaseMappings(file)
			file.Close()
		}
		return nil, fmt.Errorf("%s: %w", path, damaged(err))
	}
	return db, nil
}

// damaged classifies bbolt's errors about unreadable files as ErrDamaged,
// so callers can tell "this file is broken" from "the disk is full".
func damaged(err error) error {
	switch {
	case errors.Is(err, ErrDamaged):
		return err
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum),
		errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrInvalidMapping):
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	case errors.Is(err, berrors.ErrTimeout):
		// The session lock is always taken first, so whoever holds the
		// database is not a quire writer of this session.
		return fmt.Errorf("its database is locked by a process that does not hold the session lock: %w", err)
	}
	return err
}

// guard runs fn and turns a panic or a memory fault inside it into
// ErrDamaged: bbolt trusts the pages it maps, so a flipped byte can make it
// panic or touch memory past the end of a cut file.
func guard(fn func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrDamaged, r)
		}
	}()
	return fn()
}

// initDB creates the buckets of a new session and stamps the format.
func initDB(db *bolt.DB, sum Summary) error {
	return db.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketEvents, bucketBlobs, bucketCheckpoints, bucketMeta} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bucketMeta)
		if err := meta.Put(keyFormat, []byte(strconv.Itoa(FormatVersion))); err != nil {
			return err
		}
		return putSummary(meta, sum)
	})
}

// checkFormat refuses a file written by a newer quire and one that lacks
// the buckets every session has.
func checkFormat(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	if meta == nil || tx.Bucket(bucketEvents) == nil || tx.Bucket(bucketBlobs) == nil || tx.Bucket(bucketCheckpoints) == nil {
		return fmt.Errorf("%w: buckets missing (not a quire session)", ErrDamaged)
	}
	raw := meta.Get(keyFormat)
	v, err := strconv.Atoi(string(raw))
	if err != nil || v < 1 {
		return fmt.Errorf("%w: format stamp %q unreadable", ErrDamaged, raw)
	}
	if v > FormatVersion {
		return fmt.Errorf("%w: written by a newer quire (store format v%d; this binary reads up to v%d): upgrade quire to open it", ErrTooNew, v, FormatVersion)
	}
	return nil
}

func seqKey(seq uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], seq)
	return k[:]
}

func keySeq(k []byte) (uint64, bool) {
	if len(k) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(k), true
}

// lastSeq is the seq of the last committed event, 0 for none.
func lastSeq(tx *bolt.Tx) (uint64, error) {
	k, _ := tx.Bucket(bucketEvents).Cursor().Last()
	if k == nil {
		return 0, nil
	}
	seq, ok := keySeq(k)
	if !ok {
		return 0, fmt.Errorf("%w: event key of %d bytes", ErrDamaged, len(k))
	}
	return seq, nil
}

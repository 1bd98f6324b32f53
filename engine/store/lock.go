package store

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lockFile is the per-session lock. A writer holds it exclusively for as
// long as the session is open; other processes take it shared for a moment
// (to read a closed session or to see whether one is running) and never
// wait for it.
type lockFile struct {
	f *os.File
}

// errLocked means another open file description holds a conflicting lock.
var errLocked = errors.New("locked")

// tryLock takes the lock at path without blocking: exclusive for a
// writer, shared for a reader. It retries for up to patience, because
// listers and pruners in other processes hold the lock for microseconds and
// a writer should not mistake them for another writer.
func tryLock(path string, exclusive bool, patience time.Duration) (*lockFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	deadline := time.Now().Add(patience)
	for {
		err = unix.Flock(int(f.Fd()), how|unix.LOCK_NB)
		if err == nil {
			return &lockFile{f: f}, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, errLocked
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// unlock releases the lock and closes the file.
func (l *lockFile) unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the last descriptor releases the flock
	l.f = nil
	return err
}

// isRunning reports whether a writer holds the session lock at path. It
// takes the lock shared without waiting and releases it at once; a missing
// lock file means nobody is writing.
func isRunning(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	err = unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB)
	return errors.Is(err, unix.EWOULDBLOCK)
}

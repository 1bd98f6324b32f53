package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// recentlyTouched protects a session from pruning whatever its age in
// the summary says, like a long-lived session idle for a day that was
// touched a moment ago.
const recentlyTouched = time.Hour

// PruneReport lists what Prune removed and what it could not.
type PruneReport struct {
	Removed  []string
	Problems []Problem
}

// Prune removes sessions whose last activity is older than the retention
// (Options.Retention, default 30 days), and leftovers of session creations
// that crashed. A child session (one a task call started) is kept as long
// as its parent is. It never removes a running session (it takes the session
// lock without waiting, and skips the session if that fails) nor one whose
// files were modified in the last hour. Run it once per process, in the
// background: it never blocks on another process.
func (s *Store) Prune(ctx context.Context) (PruneReport, error) {
	var rep PruneReport
	now := s.opts.Now()
	parents, err := os.ReadDir(s.sessionsRoot())
	if err != nil {
		return rep, fmt.Errorf("prune sessions: %w", err)
	}
	for _, p := range parents {
		if !p.IsDir() {
			continue
		}
		parent := filepath.Join(s.sessionsRoot(), p.Name())
		entries, err := os.ReadDir(parent)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			if !e.IsDir() {
				continue
			}
			dir := filepath.Join(parent, e.Name())
			removed, err := s.pruneOne(dir, now)
			if err != nil {
				rep.Problems = append(rep.Problems, Problem{ID: e.Name(), Dir: dir, Err: err})
			}
			if removed {
				rep.Removed = append(rep.Removed, e.Name())
			}
		}
		os.Remove(parent) // only succeeds once the partition is empty
	}
	return rep, nil
}

// pruneOne removes dir if it is old enough and nobody has it open.
func (s *Store) pruneOne(dir string, now time.Time) (bool, error) {
	if touchedSince(dir, now.Add(-recentlyTouched), "", eventsFile, summaryFile, lockName) {
		return false, nil
	}
	tmp := strings.HasPrefix(filepath.Base(dir), ".")
	if !tmp {
		last, err := s.lastActive(dir)
		if err != nil {
			return false, err
		}
		if now.Sub(last) < s.opts.Retention || s.parentKept(dir) {
			return false, nil
		}
	}
	lock, err := tryLock(filepath.Join(dir, lockName), true, 0)
	if errors.Is(err, errLocked) {
		return false, nil // running
	}
	if err != nil {
		return false, err
	}
	defer lock.unlock()
	// Re-check with the lock held: a writer may have finished a turn
	// between the first look and the lock. (Taking the lock may have
	// created the lock file, so neither it nor the directory counts now.)
	if touchedSince(dir, now.Add(-recentlyTouched), eventsFile, summaryFile) {
		return false, nil
	}
	// Rename first: a process killed half-way through the removal leaves
	// a dot directory no listing shows, and the next Prune finishes it.
	doomed := dir
	if !tmp {
		doomed = filepath.Join(filepath.Dir(dir), tmpPrefix+"removed-"+filepath.Base(dir))
		if err := os.Rename(dir, doomed); err != nil {
			return false, fmt.Errorf("remove old session: %w", err)
		}
	}
	if err := os.RemoveAll(doomed); err != nil {
		return false, fmt.Errorf("remove old session: %w", err)
	}
	return true, nil
}

// parentKept reports whether dir is a child session whose parent is still
// in the store: a child goes with its parent, so the subagent blocks a
// replay of the parent shows can still be opened.
func (s *Store) parentKept(dir string) bool {
	sum, err := readSummaryFile(dir)
	if err != nil || sum.Parent == "" {
		return false
	}
	// A child is created in its parent's working directory, so beside it.
	st, err := os.Stat(filepath.Join(filepath.Dir(dir), sum.Parent))
	return err == nil && st.IsDir() && validID(sum.Parent)
}

// lastActive is the session's last activity per its summary, falling back
// to its files' times when the summary is unreadable.
func (s *Store) lastActive(dir string) (time.Time, error) {
	if sum, err := readSummaryFile(dir); err == nil && !sum.LastActive.IsZero() {
		return sum.LastActive, nil
	}
	st, err := os.Stat(dir)
	if err != nil {
		return time.Time{}, err
	}
	return st.ModTime(), nil
}

// touchedSince reports whether any of the named files of the session
// ("" is the directory) changed after t.
func touchedSince(dir string, t time.Time, names ...string) bool {
	for _, name := range names {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.ModTime().After(t) {
			return true
		}
	}
	return false
}

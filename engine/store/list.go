package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// ListOptions select and order a listing.
type ListOptions struct {
	// Cwd keeps only sessions started in this directory.
	Cwd string
	// Limit keeps the newest Limit sessions; 0 keeps all. With a limit,
	// only the newest summaries (by file time) are read.
	Limit int
	// Verify opens the database of every session that is not running and
	// checks its format, its summary and its newest event, so a damaged
	// file is reported here rather than on resume. It costs one open per
	// session.
	Verify bool
}

// Problem is a session that could not be listed.
type Problem struct {
	ID  string
	Dir string
	Err error
}

// Listing is the result of List: good sessions newest first, and the
// damaged ones, which never stop the others from being listed.
type Listing struct {
	Sessions []Summary
	Problems []Problem
}

type candidate struct {
	dir     string
	name    string
	modTime time.Time
}

// List returns the sessions in the store, newest first. It never waits
// for a running session: it reads each session's session.json (replaced
// atomically by its writer) and probes the session lock without blocking
// to mark running ones.
func (s *Store) List(ctx context.Context, opts ListOptions) (Listing, error) {
	var cands []candidate
	add := func(parent, name string) {
		cands = append(cands, candidate{dir: filepath.Join(parent, name), name: name})
	}
	if opts.Cwd != "" {
		parent := filepath.Join(s.sessionsRoot(), cwdKey(filepath.Clean(opts.Cwd)))
		entries, err := os.ReadDir(parent)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Listing{}, fmt.Errorf("list sessions: %w", err)
		}
		for _, e := range entries {
			if e.IsDir() && e.Name()[0] != '.' {
				add(parent, e.Name())
			}
		}
	} else if err := s.walk(add); err != nil {
		return Listing{}, err
	}
	if opts.Limit > 0 && len(cands) > opts.Limit {
		// Read the newest summaries first and stop once enough are found.
		for i := range cands {
			if st, err := os.Stat(filepath.Join(cands[i].dir, summaryFile)); err == nil {
				cands[i].modTime = st.ModTime()
			}
		}
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].modTime.After(cands[j].modTime) })
	}
	var out Listing
	for _, c := range cands {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if opts.Limit > 0 && len(out.Sessions) >= opts.Limit {
			break
		}
		sum, err := s.summaryOf(c.dir, opts.Verify)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // removed while we listed
			}
			out.Problems = append(out.Problems, Problem{ID: c.name, Dir: c.dir, Err: err})
			continue
		}
		if opts.Cwd != "" && sum.Cwd != filepath.Clean(opts.Cwd) {
			continue // a long cwd whose key collided with ours
		}
		out.Sessions = append(out.Sessions, sum)
	}
	sort.SliceStable(out.Sessions, func(i, j int) bool {
		a, b := out.Sessions[i], out.Sessions[j]
		if !a.LastActive.Equal(b.LastActive) {
			return a.LastActive.After(b.LastActive)
		}
		return a.ID > b.ID
	})
	return out, nil
}

// summaryOf reads one session's summary for a listing. A missing or
// unreadable session.json is rebuilt from the database when the session
// is not running.
func (s *Store) summaryOf(dir string, verify bool) (Summary, error) {
	sum, err := readSummaryFile(dir)
	if err == nil && filepath.Base(dir) != sum.ID {
		err = fmt.Errorf("%s: %w: names session %q", filepath.Join(dir, summaryFile), ErrDamaged, sum.ID)
	}
	if errors.Is(err, ErrTooNew) {
		return sum, err
	}
	if err == nil && !verify {
		sum.Running = isRunning(filepath.Join(dir, lockName))
		return sum, nil
	}
	if _, serr := os.Stat(dir); serr != nil {
		return sum, serr
	}
	// Verify, or rebuild the summary: open the database unless a writer
	// has the session, without waiting for it.
	r, rerr := openReaderPatiently(dir, 0)
	if rerr != nil {
		if errors.Is(rerr, ErrInUse) {
			// Running: show what its writer last published (a missing or
			// damaged session.json is rewritten on its next commit).
			sum.Running = true
			return sum, err
		}
		return sum, rerr
	}
	defer r.Close()
	fresh, rerr := r.view.Summary()
	if rerr != nil {
		return sum, rerr
	}
	fresh.Dir = dir
	if err != nil {
		// The cache was missing or damaged; the database is the truth.
		if werr := writeSummaryFile(dir, fresh); werr != nil {
			return fresh, nil
		}
	}
	return fresh, nil
}

// Latest returns the most recently active session started in cwd that no
// process has open and no task call started: what `quire --continue`
// resumes.
func (s *Store) Latest(ctx context.Context, cwd string) (Summary, error) {
	l, err := s.List(ctx, ListOptions{Cwd: cwd})
	if err != nil {
		return Summary{}, err
	}
	for _, sum := range l.Sessions {
		if !sum.Running && sum.Parent == "" {
			return sum, nil
		}
	}
	return Summary{}, fmt.Errorf("no session to continue in %s: %w", cwd, ErrNotFound)
}

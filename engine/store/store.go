package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Options tune a Store. The zero value is the documented default.
type Options struct {
	// GroupWindow is how long an event recorded with durable=false may wait
	// in memory before it is committed: the most a kill -9 can lose.
	// Default 200ms.
	GroupWindow time.Duration
	// FragmentWindow is how long text fragments (event.Mergeable: the
	// deltas of a streamed answer, a command's output) may wait when
	// nothing else does: a stream would otherwise pay a commit, two
	// fdatasyncs, five times a second. Default 1s.
	FragmentWindow time.Duration
	// GroupEvents is how many waiting events force a commit before the
	// window ends, bounding memory and the size of one transaction.
	// Default 512.
	GroupEvents int
	// Retention is how long after its last activity a session is removed
	// by Prune. Default 30 days.
	Retention time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Defaults of Options.
const (
	DefaultGroupWindow    = 200 * time.Millisecond
	DefaultFragmentWindow = time.Second
	DefaultGroupEvents    = 512
	DefaultRetention      = 30 * 24 * time.Hour
)

// Store is the state directory's sessions. It holds no open files; every
// session is opened on its own, so one Store value can be shared freely.
type Store struct {
	root string
	opts Options
}

// Open prepares root (creating it, private to the user) and returns its
// Store.
func Open(root string, opts Options) (*Store, error) {
	if root == "" {
		return nil, errors.New("open session store: no state directory")
	}
	if opts.GroupWindow <= 0 {
		opts.GroupWindow = DefaultGroupWindow
	}
	if opts.FragmentWindow <= 0 {
		opts.FragmentWindow = max(DefaultFragmentWindow, opts.GroupWindow)
	}
	if opts.GroupEvents <= 0 {
		opts.GroupEvents = DefaultGroupEvents
	}
	if opts.Retention <= 0 {
		opts.Retention = DefaultRetention
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Store{root: root, opts: opts}
	if err := os.MkdirAll(s.sessionsRoot(), 0o700); err != nil {
		return nil, fmt.Errorf("open session store: %w", err)
	}
	return s, nil
}

// Root is the state directory.
func (s *Store) Root() string { return s.root }

// now is the store's clock truncated to what JSON keeps, so summaries read
// back compare equal.
func (s *Store) now() time.Time { return s.opts.Now().UTC() }

// Create starts a new session in cwd and returns its writer. An empty id
// gets a fresh one (NewID). The session directory is built under a
// temporary name and renamed into place, so it is never seen half made.
// The caller records event.SessionStarted (with the writer's ID) first.
func (s *Store) Create(id, cwd string) (*Writer, error) {
	return s.create(id, cwd, "")
}

func (s *Store) create(id, cwd, forkedFrom string) (*Writer, error) {
	if id == "" {
		id = NewID(s.opts.Now())
	}
	if !validID(id) {
		return nil, fmt.Errorf("create session: invalid id %q (letters, digits, '-' and '_' only)", id)
	}
	if cwd == "" || !filepath.IsAbs(cwd) {
		return nil, fmt.Errorf("create session %s: working directory %q is not absolute", id, cwd)
	}
	cwd = filepath.Clean(cwd)
	if _, err := s.find(id); err == nil {
		return nil, fmt.Errorf("create session %s: a session with this id exists", id)
	}
	parent := filepath.Join(s.sessionsRoot(), cwdKey(cwd))
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, fmt.Errorf("create session %s: %w", id, err)
	}
	tmp := filepath.Join(parent, tmpPrefix+id)
	if err := makeTmp(tmp); err != nil {
		return nil, fmt.Errorf("create session %s: %w", id, err)
	}
	now := s.now()
	sum := Summary{ID: id, Cwd: cwd, Created: now, LastActive: now, Format: FormatVersion, ForkedFrom: forkedFrom}
	w, err := s.build(tmp, sum)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("create session %s: %w", id, err)
	}
	final := filepath.Join(parent, id)
	if err := os.Rename(tmp, final); err != nil {
		w.abandon()
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("create session %s: %w", id, err)
	}
	syncDir(parent) // make the new name survive a power loss before the first ack
	syncDir(s.sessionsRoot())
	w.dir, w.path = final, filepath.Join(final, eventsFile)
	w.view.path = w.path
	return w, nil
}

// makeTmp makes the directory a session is built in. A leftover of a
// creation that crashed is removed first; one that another process is
// building right now (it holds the lock) is an error.
func makeTmp(tmp string) error {
	err := os.Mkdir(tmp, 0o700)
	if errors.Is(err, fs.ErrNotExist) {
		// A concurrent Prune removed the (empty) cwd partition.
		if err = os.MkdirAll(filepath.Dir(tmp), 0o700); err == nil {
			err = os.Mkdir(tmp, 0o700)
		}
	}
	if !errors.Is(err, fs.ErrExist) {
		return err
	}
	lock, lerr := tryLock(filepath.Join(tmp, lockName), true, 0)
	if lerr != nil {
		return fmt.Errorf("another process is creating it: %w", ErrInUse)
	}
	err = os.RemoveAll(tmp)
	lock.unlock()
	if err != nil {
		return err
	}
	return os.Mkdir(tmp, 0o700)
}

// build lays out a new session in dir and opens it for writing.
func (s *Store) build(dir string, sum Summary) (*Writer, error) {
	lock, err := tryLock(filepath.Join(dir, lockName), true, 0)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, eventsFile)
	db, err := openDB(path, false)
	if err != nil {
		lock.unlock()
		return nil, err
	}
	if err := guard(func() error { return initDB(db, sum) }); err != nil {
		db.Close()
		lock.unlock()
		return nil, err
	}
	if err := writeSummaryFile(dir, sum); err != nil {
		db.Close()
		lock.unlock()
		return nil, err
	}
	return newWriter(s, dir, lock, db, sum), nil
}

// Append opens the session id (an exact id) for appending after its last
// committed event. It fails with ErrInUse if another process has it open.
func (s *Store) Append(id string) (*Writer, error) {
	dir, err := s.find(id)
	if err != nil {
		return nil, err
	}
	lock, err := tryLock(filepath.Join(dir, lockName), true, time.Second)
	if err != nil {
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("open session %s: %w", id, ErrInUse)
		}
		return nil, fmt.Errorf("open session %s: %w", id, err)
	}
	path := filepath.Join(dir, eventsFile)
	if _, err := os.Stat(path); err != nil {
		lock.unlock()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("open session %s: %w", id, ErrNotFound)
		}
		return nil, fmt.Errorf("open session %s: %w", id, err)
	}
	db, err := openDB(path, false)
	if err != nil {
		lock.unlock()
		return nil, fmt.Errorf("open session %s: %w", id, err)
	}
	removeStaleTemps(dir)
	v := view{db: db, path: path}
	sum, err := v.Summary()
	if err == nil {
		_, err = v.Tail(1) // the last good event is the one appends follow
	}
	if err != nil {
		db.Close()
		lock.unlock()
		return nil, fmt.Errorf("open session %s: %w", id, err)
	}
	return newWriter(s, dir, lock, db, sum), nil
}

// OpenReader opens the session id for reading. It fails with ErrInUse if
// another process (or a Writer in this one) has it open for writing: bbolt
// locks the whole file, so read a running session through its Writer.
func (s *Store) OpenReader(id string) (*Reader, error) {
	dir, err := s.find(id)
	if err != nil {
		return nil, err
	}
	return openReader(dir)
}

func openReader(dir string) (*Reader, error) {
	return openReaderPatiently(dir, time.Second)
}

// openReaderPatiently opens a reader, waiting up to patience for the
// session lock (0: not at all, as a lister does).
func openReaderPatiently(dir string, patience time.Duration) (*Reader, error) {
	id := filepath.Base(dir)
	lock, err := tryLock(filepath.Join(dir, lockName), false, patience)
	if err != nil {
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("read session %s: %w", id, ErrInUse)
		}
		return nil, fmt.Errorf("read session %s: %w", id, err)
	}
	path := filepath.Join(dir, eventsFile)
	db, err := openDB(path, true)
	if err != nil {
		lock.unlock()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read session %s: %w", id, ErrNotFound)
		}
		return nil, fmt.Errorf("read session %s: %w", id, err)
	}
	r := &Reader{view: view{db: db, path: path}, lock: lock, dir: dir}
	if err := r.check(); err != nil {
		r.Close()
		return nil, fmt.Errorf("read session %s: %w", id, err)
	}
	return r, nil
}

// find resolves an exact session id to its directory.
func (s *Store) find(id string) (string, error) {
	if !validID(id) {
		return "", fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	parents, err := os.ReadDir(s.sessionsRoot())
	if err != nil {
		return "", fmt.Errorf("find session %s: %w", id, err)
	}
	for _, p := range parents {
		if !p.IsDir() {
			continue
		}
		dir := filepath.Join(s.sessionsRoot(), p.Name(), id)
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir, nil
		}
	}
	return "", fmt.Errorf("session %s: %w", id, ErrNotFound)
}

// Resolve turns what a user typed (a whole id or a unique prefix of one)
// into a session id.
func (s *Store) Resolve(idOrPrefix string) (string, error) {
	if _, err := s.find(idOrPrefix); err == nil {
		return idOrPrefix, nil
	}
	var matches []string
	err := s.walk(func(parent, name string) {
		if strings.HasPrefix(name, idOrPrefix) {
			matches = append(matches, name)
		}
	})
	if err != nil {
		return "", err
	}
	switch len(matches) {
	case 0:
		return "", fmt.Errorf("session %q: %w", idOrPrefix, ErrNotFound)
	case 1:
		return matches[0], nil
	}
	return "", fmt.Errorf("session %q: %w (%s)", idOrPrefix, ErrAmbiguous, strings.Join(matches, ", "))
}

// walk calls fn for every session directory (parent is its cwd
// partition), skipping sessions still being built.
func (s *Store) walk(fn func(parent, name string)) error {
	parents, err := os.ReadDir(s.sessionsRoot())
	if err != nil {
		return fmt.Errorf("list sessions: %w", err)
	}
	for _, p := range parents {
		if !p.IsDir() {
			continue
		}
		dir := filepath.Join(s.sessionsRoot(), p.Name())
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // removed by a concurrent prune
		}
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				fn(dir, e.Name())
			}
		}
	}
	return nil
}

// syncDir fsyncs a directory so a rename in it is durable. Failure only
// weakens the guarantee after a power loss, so it is not reported.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// removeStaleTemps removes session.json temp files a killed writer left
// behind. Called with the session lock held, so none is being written.
func removeStaleTemps(dir string) {
	if olds, err := filepath.Glob(filepath.Join(dir, "."+summaryFile+".*")); err == nil {
		for _, f := range olds {
			os.Remove(f)
		}
	}
}

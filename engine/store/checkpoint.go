package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/quire-sh/quire/internal/pathx"
)

// maxSnapshot is the largest file whose content a checkpoint keeps. A
// larger file is recorded (so rewind can report it) but not restored.
const maxSnapshot = 64 << 20

// FileState is a file as it was at one moment.
type FileState struct {
	Exists bool        `json:"exists"`
	Mode   fs.FileMode `json:"mode,omitempty"`
	Size   int64       `json:"size,omitempty"`
	// Hash is the blake3 of the content. For a before-state the content
	// is kept as a blob under it.
	Hash string `json:"hash,omitempty"`
	// Skipped says why the content was not kept: not a regular file, or
	// larger than the snapshot limit.
	Skipped string `json:"skipped,omitempty"`
}

// fileCheckpoint is what one turn knows about one file: its state before
// the turn first changed it, and what quire left there when the turn ended.
type fileCheckpoint struct {
	Before FileState  `json:"before"`
	After  *FileState `json:"after,omitempty"`
}

// Checkpoints snapshots files before quire changes them, one snapshot per
// file per turn, so /rewind can put them back. Only files under Root are
// recorded. All state lives in the session database, so a checkpoint
// taken before a crash is there after it.
type Checkpoints struct {
	w     *Writer
	root  string
	files FileWriter
}

// FileWriter is how a rewind writes files back: the same guarded writer
// the file tools use (the session wiring passes package fsguard's), so a
// restore gets the sandbox profile's check, never follows a link that
// replaced a directory since the checkpoint, and never restores setuid
// bits or execute bits into git hooks. The store itself never writes a
// working-directory file any other way.
type FileWriter interface {
	// WriteFile creates or replaces path atomically, making its parents.
	WriteFile(path string, data []byte, mode fs.FileMode) error
	// Remove removes the file at path.
	Remove(path string) error
	// Chmod changes the mode of the file at path.
	Chmod(path string, mode fs.FileMode) error
}

// ErrNoFileWriter is returned by a rewind that would write files when the
// Checkpoints were made without a FileWriter: it refuses rather than
// write unguarded.
var ErrNoFileWriter = errors.New("no guarded file writer was given to the checkpoints; refusing to write files")

// Checkpoints returns the checkpoint keeper of this session for files
// under root (the session's working directory). Rewinds write through
// files; with nil files a rewind can still plan (a dry run) but refuses
// to apply.
func (w *Writer) Checkpoints(root string, files FileWriter) *Checkpoints {
	return &Checkpoints{w: w, root: filepath.Clean(root), files: files}
}

// Hook returns BeforeWrite bound to one turn.
func (c *Checkpoints) Hook(turn int) func(path string) error {
	return func(path string) error { return c.BeforeWrite(turn, path) }
}

func checkpointKey(turn int, path string) []byte {
	k := make([]byte, 4+len(path))
	binary.BigEndian.PutUint32(k, uint32(turn))
	copy(k[4:], path)
	return k
}

func parseCheckpointKey(k []byte) (int, string, bool) {
	if len(k) < 5 {
		return 0, "", false
	}
	return int(binary.BigEndian.Uint32(k)), string(k[4:]), true
}

// BeforeWrite records path's current content (or its absence) as the
// state before turn, unless the turn already recorded it: the first write
// of a turn wins. It returns once the snapshot is committed, so the write
// that follows can always be undone. Paths outside the root are ignored.
func (c *Checkpoints) BeforeWrite(turn int, path string) error {
	if turn < 0 || !filepath.IsAbs(path) {
		return fmt.Errorf("checkpoint %q: need an absolute path and a turn ≥ 0", path)
	}
	path = filepath.Clean(path)
	if !pathx.Within(path, c.root) {
		return nil
	}
	key := checkpointKey(turn, path)
	var have bool
	if err := c.w.view.read(func(tx *bolt.Tx) error {
		have = tx.Bucket(bucketCheckpoints).Get(key) != nil
		return nil
	}); err != nil {
		return fmt.Errorf("checkpoint %s: %w", path, err)
	}
	if have {
		return nil
	}
	state, content, err := snapshot(path, true)
	if err != nil {
		return fmt.Errorf("checkpoint %s before changing it: %w", path, err)
	}
	rec, err := json.Marshal(fileCheckpoint{Before: state})
	if err != nil {
		return err
	}
	err = guard(func() error {
		return c.w.db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketCheckpoints)
			if b.Get(key) != nil {
				return nil // a concurrent call won
			}
			if content != nil {
				if err := putBlob(tx.Bucket(bucketBlobs), HashOf(content), content); err != nil {
					return err
				}
			}
			return b.Put(key, rec)
		})
	})
	if err != nil {
		return fmt.Errorf("checkpoint %s: %s: %w", path, c.w.path, err)
	}
	return nil
}

// snapshot reads the state of path without following a final symlink.
// With keep, it also returns the content to store (nil when skipped).
func snapshot(path string, keep bool) (FileState, []byte, error) {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return FileState{}, nil, nil
	}
	if err != nil {
		return FileState{}, nil, err
	}
	state := FileState{Exists: true, Mode: st.Mode(), Size: st.Size()}
	switch {
	case !st.Mode().IsRegular():
		state.Skipped = "not a regular file"
		return state, nil, nil
	case st.Size() > maxSnapshot:
		state.Skipped = fmt.Sprintf("larger than %d MiB", maxSnapshot>>20)
		return state, nil, nil
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return FileState{}, nil, err
	}
	state.Size = int64(len(content))
	state.Hash = HashOf(content).String()
	if !keep {
		return state, nil, nil
	}
	return state, content, nil
}

// EndTurn records, for every file turn changed, what quire left on disk,
// so a later rewind can tell quire's writes from someone else's.
func (c *Checkpoints) EndTurn(turn int) error {
	type item struct {
		key []byte
		cp  fileCheckpoint
	}
	var items []item
	err := c.w.view.read(func(tx *bolt.Tx) error {
		prefix := checkpointKey(turn, "")
		cur := tx.Bucket(bucketCheckpoints).Cursor()
		for k, v := cur.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, v = cur.Next() {
			var cp fileCheckpoint
			if err := json.Unmarshal(v, &cp); err != nil {
				return fmt.Errorf("%w: checkpoint %q: %v", ErrDamaged, k[4:], err)
			}
			items = append(items, item{key: append([]byte(nil), k...), cp: cp})
		}
		return nil
	})
	if err != nil || len(items) == 0 {
		return err
	}
	for i := range items {
		_, path, _ := parseCheckpointKey(items[i].key)
		after, _, err := snapshot(path, false)
		if err != nil {
			return fmt.Errorf("checkpoint %s after turn %d: %w", path, turn, err)
		}
		items[i].cp.After = &after
	}
	return guard(func() error {
		return c.w.db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketCheckpoints)
			for _, it := range items {
				rec, err := json.Marshal(it.cp)
				if err != nil {
					return err
				}
				if err := b.Put(it.key, rec); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// Point is a turn that changed files: a place /rewind can go back to.
type Point struct {
	Turn  int
	Files []string
}

// Points lists the turns that changed files, oldest first.
func (c *Checkpoints) Points() ([]Point, error) {
	var out []Point
	err := c.w.view.read(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketCheckpoints).ForEach(func(k, _ []byte) error {
			turn, path, ok := parseCheckpointKey(k)
			if !ok {
				return fmt.Errorf("%w: checkpoint key of %d bytes", ErrDamaged, len(k))
			}
			if len(out) == 0 || out[len(out)-1].Turn != turn {
				out = append(out, Point{Turn: turn})
			}
			p := &out[len(out)-1]
			p.Files = append(p.Files, path)
			return nil
		})
	})
	return out, err
}

// Conflict says how a file changed since quire last wrote it.
type Conflict string

const (
	NoConflict    Conflict = ""
	ModifiedSince Conflict = "modified" // its content differs from what quire left
	DeletedSince  Conflict = "deleted"  // quire left it, someone removed it
	CreatedSince  Conflict = "created"  // quire removed it (or never made it), someone created it
)

// RewindAction is what a rewind does to one file.
type RewindAction string

const (
	Restore   RewindAction = "restore"   // write the old content back
	Delete    RewindAction = "delete"    // it did not exist before: remove it
	Unchanged RewindAction = "unchanged" // already as it was
	Skip      RewindAction = "skip"      // its old content was not kept
)

// FileRewind is the plan (and, once applied, the outcome) for one file.
type FileRewind struct {
	Path     string
	Action   RewindAction
	Conflict Conflict
	// Applied is set when the action was carried out.
	Applied bool
	// Note explains a Skip or a conflict left alone.
	Note string
}

// RewindOptions control Rewind.
type RewindOptions struct {
	// Apply carries the plan out; without it Rewind is a dry run that
	// writes nothing.
	Apply bool
	// Overwrite also restores files someone else changed since quire
	// wrote them; without it they are reported and left alone.
	Overwrite bool
}

// RewindReport is what Rewind did or would do.
type RewindReport struct {
	ToTurn  int
	Files   []FileRewind
	Applied bool
}

// Conflicts are the files changed by someone else since quire wrote them.
func (r RewindReport) Conflicts() []FileRewind {
	var out []FileRewind
	for _, f := range r.Files {
		if f.Conflict != NoConflict {
			out = append(out, f)
		}
	}
	return out
}

type rewindItem struct {
	keys   [][]byte // every record of this path at turns ≥ target
	before FileState
	after  *FileState // from the newest record; nil if its turn never ended
}

// Rewind puts every file changed in turns ≥ toTurn back as it was before
// the first of those turns changed it: restored, or removed if it did not
// exist. A file whose current content differs from what quire last left
// there was changed by someone else: it is reported and, unless Overwrite,
// left alone. Without Apply nothing is written. When applied, the
// checkpoints of the files put back are dropped; a file left alone keeps
// its checkpoint so a later rewind with Overwrite can still restore it. If
// any file cannot be written, Rewind returns the error and drops nothing,
// so it can be retried.
func (c *Checkpoints) Rewind(toTurn int, opts RewindOptions) (RewindReport, error) {
	rep := RewindReport{ToTurn: toTurn}
	items := map[string]*rewindItem{}
	err := c.w.view.read(func(tx *bolt.Tx) error {
		cur := tx.Bucket(bucketCheckpoints).Cursor()
		for k, v := cur.Seek(checkpointKey(max(toTurn, 0), "")); k != nil; k, v = cur.Next() {
			_, path, ok := parseCheckpointKey(k)
			if !ok {
				return fmt.Errorf("%w: checkpoint key of %d bytes", ErrDamaged, len(k))
			}
			var cp fileCheckpoint
			if err := json.Unmarshal(v, &cp); err != nil {
				return fmt.Errorf("%w: checkpoint %q: %v", ErrDamaged, path, err)
			}
			it := items[path]
			if it == nil {
				it = &rewindItem{before: cp.Before} // turns ascend: the first is the earliest
				items[path] = it
			}
			it.keys = append(it.keys, append([]byte(nil), k...))
			it.after = cp.After
		}
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("rewind: %w", err)
	}
	paths := make([]string, 0, len(items))
	for p := range items {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f, err := plan(p, items[p])
		if err != nil {
			return rep, fmt.Errorf("rewind %s: %w", p, err)
		}
		rep.Files = append(rep.Files, f)
	}
	if !opts.Apply {
		return rep, nil
	}
	if c.files == nil {
		return rep, fmt.Errorf("rewind: %w", ErrNoFileWriter)
	}
	var drop [][]byte
	for i := range rep.Files {
		f := &rep.Files[i]
		it := items[f.Path]
		if f.Conflict != NoConflict && !opts.Overwrite {
			f.Note = "changed since quire wrote it; left alone"
			continue
		}
		switch f.Action {
		case Skip:
			continue
		case Restore:
			if err := c.restore(f.Path, it.before); err != nil {
				return rep, fmt.Errorf("rewind %s: %w (nothing was dropped; fix it and retry)", f.Path, err)
			}
		case Delete:
			if err := c.files.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return rep, fmt.Errorf("rewind %s: %w (nothing was dropped; fix it and retry)", f.Path, err)
			}
		}
		f.Applied = true
		drop = append(drop, it.keys...)
	}
	err = guard(func() error {
		return c.w.db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketCheckpoints)
			for _, k := range drop {
				if err := b.Delete(k); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return rep, fmt.Errorf("rewind: files restored, but dropping their checkpoints failed: %s: %w", c.w.path, err)
	}
	rep.Applied = true
	return rep, nil
}

// plan compares the disk with the checkpoint of one file.
func plan(path string, it *rewindItem) (FileRewind, error) {
	f := FileRewind{Path: path}
	now, _, err := snapshot(path, false)
	if err != nil {
		return f, err
	}
	if a := it.after; a != nil {
		switch {
		case a.Exists && !now.Exists:
			f.Conflict = DeletedSince
		case !a.Exists && now.Exists:
			f.Conflict = CreatedSince
		case a.Exists && now.Exists && (a.Hash != now.Hash || a.Skipped != now.Skipped):
			f.Conflict = ModifiedSince
		}
	}
	b := it.before
	switch {
	case !b.Exists && !now.Exists:
		f.Action = Unchanged
	case !b.Exists:
		f.Action = Delete
	case b.Skipped != "":
		f.Action, f.Note = Skip, "old content not kept: "+b.Skipped
	case now.Exists && now.Hash == b.Hash && now.Mode == b.Mode:
		f.Action = Unchanged
	default:
		f.Action = Restore
	}
	return f, nil
}

// restore writes the before-state back through the FileWriter, with its
// old mode (which the writer limits); a file whose content is already
// right only gets its mode back.
func (c *Checkpoints) restore(path string, before FileState) error {
	if now, _, err := snapshot(path, false); err == nil && now.Exists && now.Hash == before.Hash && now.Mode.IsRegular() {
		return c.files.Chmod(path, before.Mode)
	}
	h, err := ParseHash(before.Hash)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	content, err := c.w.view.Blob(h)
	if err != nil {
		return err
	}
	return c.files.WriteFile(path, content, before.Mode)
}

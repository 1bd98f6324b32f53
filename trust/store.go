package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"golang.org/x/sys/unix"
)

// Decision is what the user said about one file's content.
type Decision string

const (
	// Unknown: the user has not been asked about this content.
	Unknown Decision = ""
	// Trusted: quire may use the file.
	Trusted Decision = "trusted"
	// Declined: the user said no; quire does not use the file and does
	// not ask again until its content changes.
	Declined Decision = "declined"
)

// Entry is one decision: a file of a project, with the digest of the
// content the user saw.
type Entry struct {
	// Project is the project's root, absolute and free of symlinks.
	Project string `json:"project"`
	// File is the file's path relative to Project, with forward slashes.
	File     string    `json:"file"`
	Digest   string    `json:"digest"`
	Decision Decision  `json:"decision"`
	Time     time.Time `json:"time"`
}

// Store is the file of decisions. Its methods are safe for concurrent use
// by goroutines and by processes.
type Store struct {
	path string
	now  func() time.Time
}

// FileName is the store's file in quire's state dir.
const FileName = "trust.json"

// Open returns the store in stateDir; nothing is read or created until a
// method needs it.
func Open(stateDir string) *Store {
	return &Store{path: filepath.Join(stateDir, FileName), now: time.Now}
}

// Digest identifies a file's content.
func Digest(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

// Check returns the decision about this content of the project's file:
// Unknown when the user was never asked, or was asked about other content.
func (s *Store) Check(project, file string, content []byte) (Decision, error) {
	entries, err := s.read()
	if err != nil {
		return Unknown, err
	}
	digest := Digest(content)
	for _, e := range entries {
		if e.Project == project && e.File == file && e.Digest == digest {
			return e.Decision, nil
		}
	}
	return Unknown, nil
}

// Decide records the user's decision about this content of the project's
// file, replacing any earlier decision about the same file.
func (s *Store) Decide(project, file string, content []byte, d Decision) error {
	if d != Trusted && d != Declined {
		return fmt.Errorf("trust: %q is not a decision", d)
	}
	return s.update(func(entries []Entry) []Entry {
		out := entries[:0]
		for _, e := range entries {
			if e.Project != project || e.File != file {
				out = append(out, e)
			}
		}
		return append(out, Entry{Project: project, File: file, Digest: Digest(content), Decision: d, Time: s.now().UTC()})
	})
}

// Forget removes every decision about the project's files and reports
// how many there were.
func (s *Store) Forget(project string) (int, error) {
	n := 0
	err := s.update(func(entries []Entry) []Entry {
		out := entries[:0]
		for _, e := range entries {
			if e.Project == project {
				n++
				continue
			}
			out = append(out, e)
		}
		return out
	})
	return n, err
}

// Entries lists every decision, sorted by project and file.
func (s *Store) Entries() ([]Entry, error) {
	return s.read()
}

// document is the file's shape.
type document struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

const version = 1

func (s *Store) read() ([]Entry, error) {
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the trusted files: %w", err)
	}
	var doc document
	if err := json.Unmarshal(b, &doc); err != nil {
		// A damaged file trusts nothing: every file is asked about again.
		return nil, fmt.Errorf("reading the trusted files: %s is damaged (%v); delete it to be asked again", s.path, err)
	}
	if doc.Version > version {
		return nil, fmt.Errorf("reading the trusted files: %s was written by a newer quire", s.path)
	}
	sort.Slice(doc.Entries, func(i, j int) bool {
		a, b := doc.Entries[i], doc.Entries[j]
		if a.Project != b.Project {
			return a.Project < b.Project
		}
		return a.File < b.File
	})
	return doc.Entries, nil
}

// update reads the decisions under the lock, changes them and writes them
// back whole.
func (s *Store) update(change func([]Entry) []Entry) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("saving the trusted files: %w", err)
	}
	lock, err := os.OpenFile(s.path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("saving the trusted files: %w", err)
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return fmt.Errorf("saving the trusted files: lock: %w", err)
	}
	defer unix.Flock(int(lock.Fd()), unix.LOCK_UN)
	entries, err := s.read()
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(document{Version: version, Entries: change(entries)}, "", "  ")
	if err != nil {
		return fmt.Errorf("saving the trusted files: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), FileName+".*")
	if err != nil {
		return fmt.Errorf("saving the trusted files: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("saving the trusted files: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("saving the trusted files: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving the trusted files: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("saving the trusted files: %w", err)
	}
	return nil
}

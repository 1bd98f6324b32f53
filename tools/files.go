package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/quire-sh/quire/fsguard"
)

// fileChange is one planned change to a file, computed in memory before
// anything touches the disk.
type fileChange struct {
	path    string // resolved absolute path
	existed bool
	old     []byte
	mode    fs.FileMode
	remove  bool   // delete the file
	new     []byte // content to write unless remove
}

// loadForChange reads path for a change; a missing file yields
// existed=false and no error.
func loadForChange(path string) (fileChange, error) {
	c := fileChange{path: path, mode: 0o644}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, nil
	case err != nil:
		return c, err
	case fi.IsDir():
		return c, fmt.Errorf("%s is a directory", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	c.existed, c.old, c.mode = true, b, fi.Mode().Perm()
	return c, nil
}

// diff renders the change as a unified diff headed with the display name.
func (c fileChange) diff(env *Env) string {
	name := env.display(c.path)
	oldName, newName := name, name
	if !c.existed {
		oldName = ""
	}
	if c.remove {
		newName = ""
	}
	newText := string(c.new)
	if c.remove {
		newText = ""
	}
	return unifiedDiff(oldName, newName, string(c.old), newText)
}

// commitChanges applies changes all or nothing: it checks the profile for
// every path, checks that every file is still what the plan saw, calls the
// checkpoint hook of turn for every path, and only then writes, through the
// guarded writer (package fsguard: no link followed, mode bits limited); if
// a write fails, the files already written are restored.
func commitChanges(env *Env, turn int, changes []fileChange) error {
	for _, c := range changes {
		if _, err := env.Profile.CanWrite(c.path); err != nil {
			return err
		}
	}
	for _, c := range changes {
		if err := stillAsPlanned(env, c); err != nil {
			return err
		}
	}
	for _, c := range changes {
		if err := env.beforeWrite(turn, c.path); err != nil {
			return err
		}
	}
	w := env.writer()
	for i, c := range changes {
		if err := applyChange(w, c); err != nil {
			for j := i - 1; j >= 0; j-- {
				undoChange(w, changes[j])
			}
			return fmt.Errorf("writing %s: %w (no file was changed)", env.display(c.path), err)
		}
	}
	return nil
}

func applyChange(w *fsguard.Writer, c fileChange) error {
	if c.remove {
		return w.Remove(c.path)
	}
	return w.WriteFile(c.path, c.new, c.mode)
}

func undoChange(w *fsguard.Writer, c fileChange) {
	if c.existed {
		_ = w.WriteFile(c.path, c.old, c.mode)
		return
	}
	_ = w.Remove(c.path)
}

// lineEndings describes how a file ends its lines.
type lineEndings struct{ crlf bool }

// detectCRLF reports a file whose every newline is "\r\n"; mixed files are
// matched byte for byte instead, so no other line's ending changes.
func detectCRLF(b []byte) lineEndings {
	s := string(b)
	n := strings.Count(s, "\n")
	return lineEndings{crlf: n > 0 && strings.Count(s, "\r\n") == n}
}

func (l lineEndings) toLF(s string) string {
	if !l.crlf {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

func (l lineEndings) restore(s string) string {
	if !l.crlf {
		return s
	}
	return strings.ReplaceAll(s, "\n", "\r\n")
}

// lineAt is the 1-based line number of byte offset off in s.
func lineAt(s string, off int) int { return strings.Count(s[:off], "\n") + 1 }

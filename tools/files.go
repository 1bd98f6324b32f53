package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
// checkpoint hook of turn for every path, and only then writes; if a write
// fails, the files already written are restored.
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
	for i, c := range changes {
		if err := applyChange(c); err != nil {
			for j := i - 1; j >= 0; j-- {
				undoChange(changes[j])
			}
			return fmt.Errorf("writing %s: %w (no file was changed)", env.display(c.path), err)
		}
	}
	return nil
}

func applyChange(c fileChange) error {
	if c.remove {
		return os.Remove(c.path)
	}
	return writeAtomic(c.path, c.new, c.mode)
}

func undoChange(c fileChange) {
	if c.existed {
		_ = writeAtomic(c.path, c.old, c.mode)
		return
	}
	_ = os.Remove(c.path)
}

// writeAtomic replaces path's content with data through a temporary file
// in the same directory and a rename, so a crash never leaves half a file.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".quire-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
	}
	return werr
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

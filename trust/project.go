package trust

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Kind is a file a project may carry that needs trust before quire uses
// it: where it lives in the project and what it makes quire do, in words
// for the question put to the user.
type Kind struct {
	Name string // relative to the project root, with forward slashes
	What string // e.g. "MCP servers for quire to start"
	// Summary, when set, says line by line what this content would make
	// quire do (the settings it sets, the commands it runs), for the
	// question put to the user; without it the question shows the
	// content itself. It must not fail: content it cannot read is
	// described as such.
	Summary func(content []byte) []string
}

// File is one such file found in a project, with the decision about its
// current content. Owners parse Content, the very bytes that were
// checked, never the file read again.
type File struct {
	Kind
	Content  []byte
	Decision Decision
}

// maxFileSize bounds a project file that is read for trust: these are
// small configuration files, and a larger one is refused rather than read.
const maxFileSize = 1 << 20

// Scan reads the project's files of the given kinds and returns the ones
// that exist, with the decision about their content. A missing file is
// skipped; a file that cannot be read, or is too large, is an error that
// names it.
func (s *Store) Scan(project string, kinds []Kind) ([]File, error) {
	var out []File
	var errs []error
	for _, k := range kinds {
		path := filepath.Join(project, filepath.FromSlash(k.Name))
		content, err := readSmall(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		d, err := s.Check(project, k.Name, content)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Kind: k, Content: content, Decision: d})
	}
	return out, errors.Join(errs...)
}

func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > maxFileSize {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxFileSize)
	}
	b := make([]byte, st.Size())
	n, err := f.ReadAt(b, 0)
	if err != nil && n < len(b) {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return b[:n], nil
}

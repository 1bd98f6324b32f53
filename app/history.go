package app

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// History is the prompt history shared by every session: one JSON string
// per line in history.jsonl in the state dir, appended with O_APPEND so two
// quire processes can add to it at once (each line is a single small
// write). Multi-line prompts survive because each entry is JSON-quoted.
type History struct {
	path    string
	entries []string // oldest first
	// pos is the browsing position: len(entries) means "the draft".
	pos   int
	draft string
}

// maxHistory bounds what is loaded; older lines stay in the file.
const maxHistory = 5000

// LoadHistory reads path; a missing file is an empty history. Lines that do
// not decode (a torn write after a crash) are skipped, not fatal.
func LoadHistory(path string) (*History, error) {
	h := &History{path: path}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return h, fmt.Errorf("reading prompt history: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var s string
		if json.Unmarshal(sc.Bytes(), &s) == nil && s != "" {
			h.entries = append(h.entries, s)
		}
	}
	if len(h.entries) > maxHistory {
		h.entries = h.entries[len(h.entries)-maxHistory:]
	}
	h.pos = len(h.entries)
	return h, sc.Err()
}

// Add records a submitted prompt (in memory and on disk) and resets
// browsing. A repeat of the newest entry is not stored twice.
func (h *History) Add(s string) error {
	h.pos = len(h.entries)
	h.draft = ""
	if strings.TrimSpace(s) == "" || (len(h.entries) > 0 && h.entries[len(h.entries)-1] == s) {
		return nil
	}
	h.entries = append(h.entries, s)
	h.pos = len(h.entries)
	if h.path == "" {
		return nil
	}
	line, _ := json.Marshal(s)
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return fmt.Errorf("saving prompt history: %w", err)
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("saving prompt history: %w", err)
	}
	_, werr := f.Write(append(line, '\n'))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("saving prompt history: %w", werr)
	}
	return nil
}

// Prev returns the older entry for Up, keeping current as the draft when
// browsing starts; ok is false at the oldest entry.
func (h *History) Prev(current string) (string, bool) {
	if h.pos == 0 {
		return "", false
	}
	if h.pos == len(h.entries) {
		h.draft = current
	}
	h.pos--
	return h.entries[h.pos], true
}

// Next returns the newer entry for Down, or the draft past the newest.
func (h *History) Next() (string, bool) {
	if h.pos >= len(h.entries) {
		return "", false
	}
	h.pos++
	if h.pos == len(h.entries) {
		return h.draft, true
	}
	return h.entries[h.pos], true
}

// Search returns the newest entry older than before (an index; pass
// len(entries) to start) that contains query, and its index, for Ctrl+R.
func (h *History) Search(query string, before int) (string, int, bool) {
	if before > len(h.entries) {
		before = len(h.entries)
	}
	for i := before - 1; i >= 0; i-- {
		if strings.Contains(h.entries[i], query) {
			return h.entries[i], i, true
		}
	}
	return "", -1, false
}

// Len is the number of entries.
func (h *History) Len() int { return len(h.entries) }

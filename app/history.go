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

// History is the prompt history shared by every session, in memory: the
// Model browses and searches it and adds to it, never touching the disk.
// The file behind it (ReadHistory, AppendHistory) is read and appended to
// by the loop off its goroutine.
type History struct {
	entries []string // oldest first
	// pos is the browsing position: len(entries) means "the draft".
	pos   int
	draft string
}

// maxHistory bounds what is loaded; older lines stay in the file.
const maxHistory = 5000

// Add records a submitted prompt and resets browsing; it reports whether
// the prompt is new (a repeat of the newest entry, or blank text, is not
// stored twice), so that the caller appends it to the file.
func (h *History) Add(s string) bool {
	h.pos = len(h.entries)
	h.draft = ""
	if strings.TrimSpace(s) == "" || (len(h.entries) > 0 && h.entries[len(h.entries)-1] == s) {
		return false
	}
	h.entries = append(h.entries, s)
	h.pos = len(h.entries)
	return true
}

// prepend puts older entries (the file, read after the session started)
// before those added since, keeping at most maxHistory.
func (h *History) prepend(older []string) {
	if len(older) == 0 {
		return
	}
	browsing := h.pos < len(h.entries)
	h.entries = append(append([]string(nil), older...), h.entries...)
	if len(h.entries) > maxHistory {
		h.entries = h.entries[len(h.entries)-maxHistory:]
	}
	if !browsing {
		h.pos = len(h.entries)
	}
}

// ReadHistory reads the history file at path, oldest first; a missing
// file is an empty history. Each line is one JSON string, so multi-line
// prompts survive; lines that do not decode (a torn write after a crash)
// are skipped, not fatal.
func ReadHistory(path string) ([]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading prompt history: %w", err)
	}
	defer f.Close()
	var entries []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var s string
		if json.Unmarshal(sc.Bytes(), &s) == nil && s != "" {
			entries = append(entries, s)
		}
	}
	if len(entries) > maxHistory {
		entries = entries[len(entries)-maxHistory:]
	}
	if err := sc.Err(); err != nil {
		return entries, fmt.Errorf("reading prompt history: %w", err)
	}
	return entries, nil
}

// AppendHistory appends prompts to the history file at path with
// O_APPEND, so two quire processes can add to it at once (each prompt
// is a single small write).
func AppendHistory(path string, prompts []string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("saving prompt history: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("saving prompt history: %w", err)
	}
	var werr error
	for _, p := range prompts {
		line, _ := json.Marshal(p)
		if _, werr = f.Write(append(line, '\n')); werr != nil {
			break
		}
	}
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

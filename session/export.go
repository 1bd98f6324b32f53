package session

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/quire-sh/quire/engine/store"
)

// exportSession writes the session's JSONL transcript to path, or to
// quire-<id>.jsonl in the working directory.
func exportSession(s *Opened, path string) (string, error) {
	if s.Store == nil || s.Writer == nil {
		return "", errors.New("this session is not stored, so there is nothing to export")
	}
	if err := s.Writer.Flush(); err != nil {
		return "", err
	}
	if path == "" {
		path = "quire-" + s.Writer.ID() + ".jsonl"
	}
	f, err := os.Create(path)
	if err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	// The writer holds the session's lock, so read through it rather than
	// opening the database a second time.
	events, err := s.Writer.ReadAll()
	if err == nil {
		err = store.WriteTranscript(f, store.HeaderFor(s.Writer.Summary(), len(events), time.Now()), events)
	}
	if err != nil {
		f.Close()
		return "", fmt.Errorf("export: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	return "exported to " + path, nil
}

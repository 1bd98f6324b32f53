package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quire-sh/quire/engine/event"
	bolt "go.etcd.io/bbolt"
)

// Summary is what a session listing and the first screen of a resume need,
// kept up to date by the writer so that nobody has to decode the log to
// show it.
type Summary struct {
	ID    string `json:"id"`
	Cwd   string `json:"cwd"`
	Model string `json:"model,omitempty"`
	// Provider is the provider of the latest Model, where one was named.
	Provider string `json:"provider,omitempty"`
	Version  string `json:"version,omitempty"` // quire's version that started it
	// Title is the first line of the first prompt, cut to titleLen runes.
	Title      string    `json:"title,omitempty"`
	Created    time.Time `json:"created"`
	LastActive time.Time `json:"last_active"`
	// Turns is the highest turn number started; Tokens the total tokens
	// reported by the turns that ended.
	Turns  int `json:"turns"`
	Tokens int `json:"tokens"`
	// Cost is the sum in US dollars of the turns' costs that were known;
	// CostUnknown reports turns that used tokens at an unknown price.
	Cost        float64 `json:"cost,omitempty"`
	CostUnknown bool    `json:"cost_unknown,omitempty"`
	// LastSeq is the seq of the last committed event.
	LastSeq    uint64 `json:"last_seq"`
	ForkedFrom string `json:"forked_from,omitempty"`
	// Parent, ParentCall and Agent are set on a child session: the
	// session and task call that started it, and the agent it ran as.
	// Its Title is then the task's description.
	Parent     string `json:"parent,omitempty"`
	ParentCall string `json:"parent_call,omitempty"`
	Agent      string `json:"agent,omitempty"`
	Format     int    `json:"format"`

	// Running is set by List when a process has the session open; Dir is
	// the session's directory. Neither is stored.
	Running bool   `json:"running,omitempty"`
	Dir     string `json:"-"`
}

const titleLen = 80

// observe folds one event into the summary.
func (s *Summary) observe(e event.Event) {
	if e.Seq > s.LastSeq {
		s.LastSeq = e.Seq
	}
	switch e.Kind {
	case event.SessionStarted:
		if e.Session != nil {
			if s.Model == "" || e.Session.Model != "" {
				s.Model, s.Provider = e.Session.Model, e.Session.Provider
			}
			if s.Version == "" {
				s.Version = e.Session.Version
			}
			if p := e.Session.Parent; p != nil && s.Parent == "" {
				s.Parent, s.ParentCall, s.Agent = p.Session, p.CallID, p.Agent
				if s.Title == "" {
					s.Title = titleOf(p.Description)
				}
			}
		}
	case event.UserMessage:
		if s.Title == "" {
			s.Title = titleOf(e.Typed())
		}
	case event.TurnStarted:
		if e.Turn > s.Turns {
			s.Turns = e.Turn
		}
	case event.TurnEnded:
		if e.End != nil {
			s.Tokens += e.End.Usage.TotalTokens
			switch {
			case e.End.Cost != nil:
				s.Cost += *e.End.Cost
			case e.End.Usage.TotalTokens > 0:
				s.CostUnknown = true
			}
		}
	}
}

// titleOf is the first non-blank line of a prompt, cut to titleLen runes.
func titleOf(text string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) > titleLen {
			r := []rune(line)
			line = string(r[:titleLen-1]) + "…"
		}
		return line
	}
	return ""
}

func putSummary(meta *bolt.Bucket, s Summary) error {
	js, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return meta.Put(keySummary, js)
}

func getSummary(tx *bolt.Tx) (Summary, error) {
	var s Summary
	raw := tx.Bucket(bucketMeta).Get(keySummary)
	if raw == nil {
		return s, fmt.Errorf("%w: summary missing", ErrDamaged)
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, fmt.Errorf("%w: summary: %v", ErrDamaged, err)
	}
	return s, nil
}

// writeSummaryFile replaces dir/session.json atomically: a lister sees the
// old or the new summary, never a fragment. It is a cache of the summary
// inside events.db (which is the truth), so it is not fsynced: after a
// power loss a stale or missing file is rebuilt from the database.
func writeSummaryFile(dir string, s Summary) error {
	js, err := json.Marshal(s)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+summaryFile+".*")
	if err != nil {
		return fmt.Errorf("write session summary: %w", err)
	}
	_, err = f.Write(js)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, summaryFile))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write session summary: %w", err)
	}
	return nil
}

// readSummaryFile reads dir/session.json.
func readSummaryFile(dir string) (Summary, error) {
	var s Summary
	path := filepath.Join(dir, summaryFile)
	raw, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, fmt.Errorf("%s: %w: %v", path, ErrDamaged, err)
	}
	if s.Format > FormatVersion {
		return s, fmt.Errorf("%s: %w (store format v%d; this binary reads up to v%d): upgrade quire to open it", path, ErrTooNew, s.Format, FormatVersion)
	}
	s.Dir = dir
	return s, nil
}

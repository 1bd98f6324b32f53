package store

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/quire-sh/quire/internal/pathx"
)

// WriteTable prints sessions as the table `quire sessions` shows: id, last
// activity relative to now ("running" for a session open in a process),
// turns, tokens, cost, cwd (with home shortened to ~) and title. A child
// session (one a task call started) follows its parent, marked └ and
// titled with its agent and task; one whose parent is not listed is
// marked ↳ in its place. Text that came from users or the model is
// stripped of control characters, so a prompt cannot move the cursor or
// change colours.
func WriteTable(w io.Writer, sessions []Summary, now time.Time, home string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLAST ACTIVE\tTURNS\tTOKENS\tCOST\tCWD\tTITLE")
	ids := idSet(sessions)
	for _, s := range Nest(sessions) {
		active := Ago(now, s.LastActive)
		if s.Running {
			active = "running"
		}
		id, title := s.ID, printable(s.Title)
		if s.Parent != "" {
			id = "↳ " + id
			if ids[s.Parent] {
				id = "└ " + s.ID
			}
			if s.Agent != "" {
				title = printable(s.Agent) + ": " + title
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n",
			id, active, s.Turns, Tokens(s.Tokens), Cost(s.Cost, s.CostUnknown), printable(shortHome(s.Cwd, home)), title)
	}
	return tw.Flush()
}

// Nest orders a listing so each child session follows its parent (in the
// order they were listed); children whose parent is not listed keep
// their place.
func Nest(sessions []Summary) []Summary {
	ids := idSet(sessions)
	children := map[string][]Summary{}
	for _, s := range sessions {
		if s.Parent != "" && ids[s.Parent] {
			children[s.Parent] = append(children[s.Parent], s)
		}
	}
	out := make([]Summary, 0, len(sessions))
	for _, s := range sessions {
		if s.Parent != "" && ids[s.Parent] {
			continue
		}
		out = append(out, s)
		out = append(out, children[s.ID]...)
	}
	return out
}

func idSet(sessions []Summary) map[string]bool {
	ids := make(map[string]bool, len(sessions))
	for _, s := range sessions {
		ids[s.ID] = true
	}
	return ids
}

// WriteJSON prints sessions as a JSON array, newest first.
func WriteJSON(w io.Writer, sessions []Summary) error {
	if sessions == nil {
		sessions = []Summary{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sessions)
}

// Ago is how long before now t was, in the largest whole unit; dates for
// anything older than a month, in now's time zone.
func Ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case t.IsZero():
		return "never"
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	}
	return t.In(now.Location()).Format("2006-01-02")
}

// Cost is a cost in US dollars in a few characters: $0.42, $12.30, with
// a + when part of it is unknown, and "-" when none of it is known or
// there is none.
func Cost(usd float64, partial bool) string {
	plus := ""
	if partial {
		if usd == 0 {
			return "-"
		}
		plus = "+"
	}
	switch {
	case usd == 0 && !partial:
		return "-"
	case usd < 0.01:
		return fmt.Sprintf("$%.3f%s", usd, plus)
	}
	return fmt.Sprintf("$%.2f%s", usd, plus)
}

// Tokens is a token count in a few characters: 950, 12.3k, 4.1M.
func Tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

func shortHome(path, home string) string {
	if home == "" || home == "/" {
		return path
	}
	if rel, ok := pathx.Rel(home, path); ok {
		return filepath.Join("~", rel)
	}
	return path
}

// printable replaces control characters (and tabs, which would break the
// table) with spaces.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
}

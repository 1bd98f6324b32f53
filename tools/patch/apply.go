package patch

import (
	"fmt"
	"sort"
	"strings"
)

// ApplyError reports a chunk that could not be located.
type ApplyError struct{ Msg string }

func (e *ApplyError) Error() string { return e.Msg }

// Apply applies an Update hunk's chunks to original, the current text of
// the file displayed as path in messages. Chunks are located in order,
// each searching only after the previous one (so chunks given out of file
// order fail). Context lines keep the file's own text; only "-" lines go
// and "+" lines come. A chunk with only "+" lines is added at the end of
// the file (before a final empty line), as the reference implementation
// does. The result always ends with a newline.
func Apply(original, path string, chunks []Chunk) (string, error) {
	lines := strings.Split(original, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	type replacement struct {
		start, n int
		with     []string
	}
	var reps []replacement
	m := newMatcher(lines)
	cursor := 0
	for _, c := range chunks {
		if c.Context != "" {
			idx := m.seek([]string{c.Context}, cursor, false)
			if idx < 0 {
				return "", &ApplyError{fmt.Sprintf("Failed to find context '%s' in %s", c.Context, path)}
			}
			cursor = idx + 1
		}
		if len(c.Old) == 0 {
			if len(c.New) > 0 {
				at := len(lines)
				if at > 0 && lines[at-1] == "" {
					at--
				}
				reps = append(reps, replacement{at, 0, c.New})
			}
			continue
		}
		old, repl, unchanged := c.Old, c.New, c.Unchanged
		idx := m.seek(old, cursor, c.EOF)
		for idx < 0 && len(old) > 0 && blank(old[len(old)-1]) {
			// A trailing empty line stands for the file's final newline,
			// which is not a line of its own here, or separated this chunk
			// from the next: try without it.
			old = old[:len(old)-1]
			if len(repl) > 0 && blank(repl[len(repl)-1]) {
				repl = repl[:len(repl)-1]
				if len(unchanged) > len(repl) {
					unchanged = unchanged[:len(repl)]
				}
			}
			idx = m.seek(old, cursor, c.EOF)
		}
		if idx < 0 {
			return "", &ApplyError{fmt.Sprintf("Failed to find expected lines in %s:\n%s", path, strings.Join(c.Old, "\n"))}
		}
		reps = append(reps, replacement{idx, len(old), keepContext(repl, unchanged, lines[idx:idx+len(old)])})
		cursor = idx + len(old)
	}
	sort.SliceStable(reps, func(i, j int) bool { return reps[i].start < reps[j].start })
	for i := len(reps) - 1; i >= 0; i-- {
		r := reps[i]
		tail := append([]string(nil), lines[r.start+r.n:]...)
		lines = append(append(lines[:r.start], r.with...), tail...)
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// keepContext is a chunk's replacement with its context lines as the file
// has them (found, the lines the chunk's Old matched).
func keepContext(repl []string, unchanged []int, found []string) []string {
	if len(unchanged) != len(repl) {
		return repl
	}
	with := make([]string, len(repl))
	for i, l := range repl {
		if u := unchanged[i]; u >= 0 && u < len(found) {
			l = found[u]
		}
		with[i] = l
	}
	return with
}

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
// order fail). The result always ends with a newline.
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
	cursor := 0
	for _, c := range chunks {
		if c.Context != "" {
			idx := Seek(lines, []string{c.Context}, cursor, false)
			if idx < 0 {
				return "", &ApplyError{fmt.Sprintf("Failed to find context '%s' in %s", c.Context, path)}
			}
			cursor = idx + 1
		}
		if len(c.Old) == 0 {
			reps = append(reps, replacement{len(lines), 0, c.New})
			continue
		}
		old, repl := c.Old, c.New
		idx := Seek(lines, old, cursor, c.EOF)
		if idx < 0 && old[len(old)-1] == "" {
			// A trailing empty line usually stands for the file's final
			// newline, which is not a line of its own here.
			old = old[:len(old)-1]
			if len(repl) > 0 && repl[len(repl)-1] == "" {
				repl = repl[:len(repl)-1]
			}
			if len(old) > 0 {
				idx = Seek(lines, old, cursor, c.EOF)
			}
		}
		if idx < 0 {
			return "", &ApplyError{fmt.Sprintf("Failed to find expected lines in %s:\n%s", path, strings.Join(c.Old, "\n"))}
		}
		reps = append(reps, replacement{idx, len(old), repl})
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

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/quire-sh/quire/internal/editdist"
	"github.com/quire-sh/quire/tools/patch"
)

// EditFile is the edit_file tool: exact string replacement.
type EditFile struct{}

var editFileParams = []param{
	{name: "path", typ: "string", desc: "file to edit, relative to the working directory or absolute", required: true},
	{name: "old_string", typ: "string", desc: "exact text to replace, including whitespace and indentation; it must occur exactly once unless replace_all is true", required: true},
	{name: "new_string", typ: "string", desc: "text to put in its place", required: true},
	{name: "replace_all", typ: "boolean", desc: "replace every occurrence instead of requiring a unique one (default false)"},
}

type editFileArgs struct {
	Path       string `json:"path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

// Model-facing edit_file error texts. They are part of the contract with
// the model; edit_test.go pins them.
const (
	msgNotFound  = "The string to replace was not found in the file, use the read_file tool to see the correct string."
	msgStaleHint = " If you read the file earlier, it may have changed since."
)

func (EditFile) Spec() Spec {
	return Spec{
		Name: "edit_file",
		Description: "Replace exact text in a file. old_string must match the file byte for byte (whitespace and indentation included) " +
			"and occur exactly once, unless replace_all is true. Include enough surrounding lines to make it unique. " +
			"Windows line endings are kept. An empty old_string creates a new file.",
		Schema: schemaOf(editFileParams),
		Kind:   KindEdit,
		Writes: true,
	}
}

func (t EditFile) plan(env *Env, files *Overlay, raw json.RawMessage) (fileChange, int, error) {
	var a editFileArgs
	if err := decodeArgs(raw, editFileParams, &a); err != nil {
		return fileChange{}, 0, err
	}
	path, err := env.writePath(a.Path)
	if err != nil {
		return fileChange{}, 0, err
	}
	c, err := files.load(path)
	if err != nil {
		return fileChange{}, 0, fmt.Errorf("cannot edit %s: %w", env.display(path), err)
	}
	name := env.display(path)
	if a.OldString == "" {
		if c.existed && len(c.old) > 0 {
			return c, 0, fmt.Errorf("old_string is empty but %s already has content; pass the exact text to replace, or use write_file to replace the whole file", name)
		}
		c.new = []byte(a.NewString)
		return c, 1, nil
	}
	if !c.existed {
		return c, 0, fmt.Errorf("%s does not exist; create it with write_file (or edit_file with an empty old_string)", name)
	}
	if a.OldString == a.NewString {
		return c, 0, errors.New("old_string and new_string are identical, so there is nothing to change")
	}
	le := detectCRLF(c.old)
	text := le.toLF(string(c.old))
	old := le.toLF(a.OldString)
	repl := le.toLF(a.NewString)
	positions := matchPositions(text, old)
	switch {
	case len(positions) == 0:
		return c, 0, errors.New(notFoundMessage(text, old))
	case len(positions) > 1 && !a.ReplaceAll:
		var lines []string
		for i, p := range positions {
			if i == 10 {
				lines = append(lines, "…")
				break
			}
			lines = append(lines, fmt.Sprint(lineAt(text, p)))
		}
		//lint:ignore ST1005 the model reads this as a sentence with advice
		return c, 0, fmt.Errorf("Found %d matches of old_string in %s (lines %s). Include more surrounding lines in old_string to make it unique, or set replace_all to true to replace every one.",
			len(positions), name, strings.Join(lines, ", "))
	}
	var b strings.Builder
	prev := 0
	for _, p := range positions {
		b.WriteString(text[prev:p])
		b.WriteString(repl)
		prev = p + len(old)
	}
	b.WriteString(text[prev:])
	c.new = []byte(le.restore(b.String()))
	return c, len(positions), nil
}

// matchPositions lists the byte offsets of every non-overlapping
// occurrence of old in text, in one left-to-right scan.
func matchPositions(text, old string) []int {
	var out []int
	for i := 0; ; {
		j := strings.Index(text[i:], old)
		if j < 0 {
			return out
		}
		out = append(out, i+j)
		i += j + len(old)
	}
}

func (t EditFile) Plan(env *Env, files *Overlay, raw json.RawMessage) (Plan, error) {
	c, n, err := t.plan(env, files, raw)
	if err != nil {
		return Plan{}, err
	}
	what := "Replaced 1 occurrence"
	switch {
	case !c.existed:
		what = "Created the file"
	case n > 1:
		what = fmt.Sprintf("Replaced %d occurrences", n)
	}
	return Plan{Target: env.display(c.path), Preview: c.diff(env), Writes: []string{c.path}, InDir: env.inDir([]string{c.path}),
		Action: &fileAction{changes: []fileChange{c}, done: fmt.Sprintf("%s in %s.", what, env.display(c.path))}}, nil
}

func (t EditFile) Run(ctx context.Context, env *Env, call Call) Result {
	return runFileAction(env, call, "edit_file")
}

// notFoundMessage explains a failed match: the fixed sentence, then hints
// for the likely causes (a stale copy, typography, whitespace) and the
// file line most similar to old_string's first line.
func notFoundMessage(text, old string) string {
	msg := msgNotFound + msgStaleHint
	lines := strings.Split(text, "\n")
	if ls := confusableLines(lines, old); len(ls) > 0 {
		msg += fmt.Sprintf(" Line(s) %s contain typographic characters (curly quotes, dashes or special spaces) where old_string has plain ASCII; copy them exactly as read_file shows them.", joinInts(ls))
	} else if ws := whitespaceMatch(text, old); ws > 0 {
		msg += fmt.Sprintf(" The text matches at line %d if whitespace is ignored; indentation or trailing spaces differ.", ws)
	}
	if n, line := nearestLine(lines, old); n > 0 {
		msg += fmt.Sprintf(" The most similar line is line %d: %s", n, clipLine(line))
	}
	return msg
}

// confusableLines lists the lines that would contain old_string's first
// line once typographic characters are replaced by their ASCII look-alikes.
func confusableLines(lines []string, old string) []int {
	first := patch.Normalize(strings.TrimSpace(strings.SplitN(old, "\n", 2)[0]))
	if first == "" {
		return nil
	}
	var out []int
	for i, l := range lines {
		n := patch.Normalize(l)
		if n != l && strings.Contains(n, first) {
			out = append(out, i+1)
		}
	}
	return out
}

// whitespaceMatch returns the line where old matches text when every run
// of whitespace is ignored at line ends and starts, or 0.
func whitespaceMatch(text, old string) int {
	want := strings.Split(old, "\n")
	lines := strings.Split(text, "\n")
	for i := 0; i+len(want) <= len(lines); i++ {
		ok := true
		for j, w := range want {
			if strings.TrimSpace(lines[i+j]) != strings.TrimSpace(w) {
				ok = false
				break
			}
		}
		if ok {
			return i + 1
		}
	}
	return 0
}

// nearestLine finds the file line most similar to old_string's first
// line, among those sharing its longest token.
func nearestLine(lines []string, old string) (int, string) {
	first := strings.TrimSpace(strings.SplitN(old, "\n", 2)[0])
	token := ""
	for _, f := range strings.FieldsFunc(first, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f)
	}) {
		if len(f) > len(token) {
			token = f
		}
	}
	if len(token) < 3 {
		return 0, ""
	}
	best, bestD := 0, 1<<30
	for i, l := range lines {
		if !strings.Contains(l, token) || len(l) > 4*maxLineBytes {
			continue
		}
		if d := editdist.Levenshtein(strings.TrimSpace(l), first); d < bestD {
			best, bestD = i+1, d
		}
	}
	if best == 0 {
		return 0, ""
	}
	return best, lines[best-1]
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// FileSource reads a config file as a layer named by its path. A missing
// file is an empty layer.
func FileSource(path string) (Source, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Source{Name: path}, nil
	}
	if err != nil {
		return Source{}, fmt.Errorf("reading %s: %w", path, err)
	}
	values, err := parseTOML(data)
	if err != nil {
		return Source{}, fmt.Errorf("%s: %w", path, err)
	}
	normalizeOlderForms(values)
	return Source{Name: path, Values: values}, nil
}

// parseTOML decodes a config file. A syntax error is reported by line
// and column, never with the text of the line, not even the key it
// follows: a config file may hold a secret (a key typed where a value
// belongs is text of the line too), and an error message ends up in
// terminals, logs and bug reports.
func parseTOML(data []byte) (map[string]any, error) {
	values := map[string]any{}
	if _, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&values); err != nil {
		return nil, safeError(err, data)
	}
	return values, nil
}

// quoted matches what a TOML error message quotes from the input.
var quoted = regexp.MustCompile(`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"`)

// safeError restates a TOML error without any text of the document: what
// the library quotes is dropped, a message that names input after a colon
// (invalid float: x) is cut there, and any other word the document holds
// (99999999999 is out of range) is blanked.
func safeError(err error, doc []byte) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return errors.New("not valid TOML")
	}
	msg := quoted.ReplaceAllString(pe.Message, "…")
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[:i]
	}
	words := strings.Fields(msg)
	for i, w := range words {
		if bare := strings.Trim(w, ".,;:()"); len(bare) >= 3 && bytes.Contains(doc, []byte(bare)) {
			words[i] = "…"
		}
	}
	msg = strings.Join(words, " ")
	where := fmt.Sprintf("line %d", pe.Position.Line)
	if pe.Position.Col > 0 {
		where += fmt.Sprintf(", column %d", pe.Position.Col)
	}
	return fmt.Errorf("%s: not valid TOML: %s", where, msg)
}

// decodeTable decodes the table at key of the merged configuration into
// v, a struct its owner defines with toml tags. A key the struct does not
// have is an error, named with its full path and where it came from, and
// so is a value of the wrong type.
func decodeTable(m merged, key string, v any) error {
	t, _ := m.values[key].(map[string]any)
	if t == nil {
		if _, ok := m.values[key]; ok {
			return fmt.Errorf("%s (from %s): expected a table", key, m.originOf(key))
		}
		return nil
	}
	// Settings that live in the table are the settings table's to parse.
	t = maps.Clone(t)
	for _, p := range settingPaths() {
		if len(p) == 2 && p[0] == key {
			delete(t, p[1])
		}
	}
	// The merged values are written out and decoded into v, so the owner's
	// type gets the library's conversions and checks; the text is ours,
	// so its line numbers mean nothing and are not shown.
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(t); err != nil {
		return fmt.Errorf("[%s]: %w", key, err)
	}
	md, err := toml.NewDecoder(&buf).Decode(v)
	if err != nil {
		p, msg := decodeProblem(err)
		if p == "" {
			return fmt.Errorf("[%s]: %s", key, msg)
		}
		p = key + "." + p
		return fmt.Errorf("%s (from %s): %s", p, m.originOf(p), msg)
	}
	var unknown []string
	for _, k := range md.Undecoded() {
		path := append(toml.Key{key}, k...).String()
		// Report the outermost unknown key only, not each key inside it.
		if len(unknown) > 0 && strings.HasPrefix(path, unknown[len(unknown)-1]+".") {
			continue
		}
		unknown = append(unknown, path)
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		for i, p := range unknown {
			unknown[i] = p + " (from " + m.originOf(p) + ")"
		}
		return fmt.Errorf("unknown setting %s", strings.Join(unknown, ", "))
	}
	return nil
}

// typeError is how the TOML library words a value of the wrong type; the
// message names types only.
var typeError = regexp.MustCompile(`\(last key "((?:[^"\\]|\\.)*)"\): (.*)$`)

// decodeProblem is the key path and a message for an error decoding a
// table into its owner's type, without the value (a number out of range
// is named in the library's message, and it could be a secret).
func decodeProblem(err error) (path, msg string) {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return pe.LastKey, "the value is out of range or not valid here"
	}
	if m := typeError.FindStringSubmatch(err.Error()); m != nil {
		return m[1], m[2]
	}
	return "", "not valid"
}

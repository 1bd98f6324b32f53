package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Editing config.toml. quire never rewrites the file from its parsed
// form, which would lose the user's comments, order and formatting: a
// table is added by appending its text, and removed by cutting its lines
// out, and either change is written only if the file parses afterwards to
// exactly what it held before plus or minus that table.

// Value is a value AppendTable writes: a string, a bool, an int64, a
// []string or a map[string]string (written as an inline table).
type Value = any

// AppendTable adds the table at path (e.g. mcp.servers.NAME) with the
// given keys to the config file, creating it if needed. It refuses when
// the table exists already.
func AppendTable(file string, path toml.Key, keys map[string]Value) error {
	old, err := readConfigFile(file)
	if err != nil {
		return err
	}
	before, err := parseTOML(old)
	if err != nil {
		return fmt.Errorf("%s: %w; fix it before adding to it", file, err)
	}
	if _, ok := get(before, path); ok {
		return fmt.Errorf("%s already has [%s]", file, path)
	}
	var b bytes.Buffer
	b.Write(old)
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		b.WriteByte('\n')
	}
	if len(old) > 0 {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[%s]\n", path)
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v, err := tomlValue(keys[k])
		if err != nil {
			return fmt.Errorf("%s.%s: %w", path, k, err)
		}
		fmt.Fprintf(&b, "%s = %s\n", tomlKey(k), v)
	}
	after, err := parseTOML(b.Bytes())
	if err != nil {
		return fmt.Errorf("adding [%s] would break %s (%v); nothing was changed", path, file, err)
	}
	want := cloneTree(before)
	put(want, path, map[string]any{})
	if !reflect.DeepEqual(withoutPath(after, path), withoutPath(want, path)) {
		return fmt.Errorf("adding [%s] would change other settings of %s; nothing was changed", path, file)
	}
	return writeConfigFile(file, b.Bytes())
}

// RemoveTable cuts the table at path out of the config file: its header
// line and its keys, up to the next table, keeping the comments that
// precede the next table. It refuses, saying what to remove by hand,
// when the table is not written as one [header] section (dotted keys,
// an inline table) and cutting its lines would change anything else.
func RemoveTable(file string, path toml.Key) error {
	old, err := readConfigFile(file)
	if err != nil {
		return err
	}
	before, err := parseTOML(old)
	if err != nil {
		return fmt.Errorf("%s: %w; fix it first", file, err)
	}
	if _, ok := get(before, path); !ok {
		return fmt.Errorf("%s has no [%s]", file, path)
	}
	lines := strings.SplitAfter(string(old), "\n")
	start, end := -1, len(lines)
	for i, line := range lines {
		h, ok := tableHeader(line)
		if !ok {
			continue
		}
		if start >= 0 {
			if strings.HasPrefix(h, path.String()+".") {
				continue // a subtable of the one being removed
			}
			end = i
			break
		}
		if h == path.String() {
			start = i
		}
	}
	manual := fmt.Errorf("[%s] in %s is not written as one [%s] section quire can cut out safely; remove it by hand", path, file, path)
	if start < 0 {
		return manual
	}
	// Comments and blank lines just above the next table are the next
	// table's.
	for end > start+1 && isTrivia(lines[end-1]) {
		end--
	}
	// A table cut from the end takes the blank lines before it along.
	if strings.TrimSpace(strings.Join(lines[end:], "")) == "" {
		for start > 0 && strings.TrimSpace(lines[start-1]) == "" {
			start--
		}
	}
	// One blank line between what stays, not two.
	if start > 0 && strings.TrimSpace(lines[start-1]) == "" && end < len(lines) && strings.TrimSpace(lines[end]) == "" {
		end++
	}
	next := append(append([]string(nil), lines[:start]...), lines[end:]...)
	out := []byte(strings.Join(next, ""))
	after, err := parseTOML(out)
	if err != nil {
		return manual
	}
	want := cloneTree(before)
	deletePath(want, path)
	if !reflect.DeepEqual(pruned(after), pruned(want)) {
		return manual
	}
	return writeConfigFile(file, out)
}

var headerLine = regexp.MustCompile(`^\s*\[([^\[\]]+)\]\s*(#.*)?$`)

// tableHeader returns the normalised key of a [table] header line.
func tableHeader(line string) (string, bool) {
	m := headerLine.FindStringSubmatch(strings.TrimRight(line, "\r\n"))
	if m == nil {
		return "", false
	}
	var doc map[string]any
	if _, err := toml.Decode("["+m[1]+"]\n", &doc); err != nil {
		return "", false
	}
	var key toml.Key
	for t := doc; len(t) == 1; {
		var k string
		var v any
		for k, v = range t {
		}
		key = append(key, k)
		sub, ok := v.(map[string]any)
		if !ok {
			break
		}
		t = sub
	}
	return key.String(), true
}

func isTrivia(line string) bool {
	s := strings.TrimSpace(line)
	return s == "" || strings.HasPrefix(s, "#")
}

func readConfigFile(file string) ([]byte, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	return b, nil
}

// writeConfigFile replaces the file whole (a temporary file, then a
// rename), keeping its mode.
func writeConfigFile(file string, data []byte) error {
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".config.toml.*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Chmod(mode)
	}
	if err := errors.Join(werr, tmp.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	return nil
}

// tomlKey is k as TOML writes it: bare when it may be (bareKey), quoted
// otherwise.
func tomlKey(k string) string {
	if bareKey.MatchString(k) {
		return k
	}
	return tomlString(k)
}

// tomlString is a TOML basic string: quotes, backslashes and control
// characters escaped.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func tomlValue(v Value) (string, error) {
	switch v := v.(type) {
	case string:
		return tomlString(v), nil
	case bool:
		return strconv.FormatBool(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case int:
		return strconv.Itoa(v), nil
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = tomlString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case map[string]string:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = tomlKey(k) + " = " + tomlString(v[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }", nil
	}
	return "", fmt.Errorf("cannot write a %T", v)
}

func cloneTree(t map[string]any) map[string]any {
	out := make(map[string]any, len(t))
	for k, v := range t {
		if sub, ok := v.(map[string]any); ok {
			v = cloneTree(sub)
		}
		out[k] = v
	}
	return out
}

// withoutPath is a copy of t without the value at path.
func withoutPath(t map[string]any, path toml.Key) map[string]any {
	c := cloneTree(t)
	deletePath(c, path)
	return c
}

// pruned is t without empty tables, which removing a table's only
// child leaves in a parsed tree but not in the text.
func pruned(t map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range t {
		if sub, ok := v.(map[string]any); ok {
			sub = pruned(sub)
			if len(sub) == 0 {
				continue
			}
			v = sub
		}
		out[k] = v
	}
	return out
}

func deletePath(t map[string]any, path toml.Key) {
	for _, k := range path[:len(path)-1] {
		sub, ok := t[k].(map[string]any)
		if !ok {
			return
		}
		t = sub
	}
	delete(t, path[len(path)-1])
}

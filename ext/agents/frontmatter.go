package agents

// This file is the whole of the frontmatter reading agent definitions
// need: the subset of YAML such files are written in (scalars, quoted or
// not, block scalars, lists in either style, and nested keys, which are
// skipped). It is kept apart so that a shared frontmatter reader can take
// its place without touching the rest of the package.

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// maxFront bounds the frontmatter, fences included.
const maxFront = 64 << 10

// frontValue is one key's value: text, a list of text, or a nested
// mapping (kept only as a kind, since no key of a definition is one).
type frontValue struct {
	kind frontKind
	text string
	list []string
	line int // the file's line the key is on
}

type frontKind int

const (
	frontText frontKind = iota
	frontList
	frontMap
)

// splitFront splits a document into its frontmatter's keys and its body.
// A document without an opening "---" line has no frontmatter (has is
// false); one without a closing "---" (or "...") line is an error.
func splitFront(data []byte) (keys map[string]frontValue, body []byte, has bool, err error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	first, rest := cutLine(data)
	if !isFence(first, false) {
		return nil, data, false, nil
	}
	var lines []string
	for n := 2; ; n++ {
		if len(data)-len(rest) > maxFront {
			return nil, nil, true, fmt.Errorf("the frontmatter has no closing --- line in its first %d KiB", maxFront>>10)
		}
		if len(rest) == 0 {
			return nil, nil, true, errors.New("the frontmatter has no closing --- line")
		}
		var l []byte
		l, rest = cutLine(rest)
		if isFence(l, true) {
			break
		}
		lines = append(lines, strings.TrimRight(string(l), "\r"))
	}
	keys, err = parseFront(lines)
	return keys, rest, true, err
}

func cutLine(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

func isFence(line []byte, closing bool) bool {
	l := string(bytes.TrimRight(line, " \t\r"))
	return l == "---" || closing && l == "..."
}

// parseFront reads the frontmatter's lines (the file's line 2 onwards).
func parseFront(lines []string) (map[string]frontValue, error) {
	keys := map[string]frontValue{}
	lineNo := func(i int) int { return i + 2 }
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if blankOrComment(l) {
			continue
		}
		if indent(l) > 0 {
			return nil, fmt.Errorf("line %d: an indented line where a key belongs (each key starts its line: key: value)", lineNo(i))
		}
		if strings.HasPrefix(l, "\t") {
			return nil, fmt.Errorf("line %d: a tab indents this line; YAML indents with spaces", lineNo(i))
		}
		key, raw, ok := strings.Cut(l, ":")
		key = strings.TrimSpace(key)
		if !ok || key == "" || strings.ContainsAny(key, " \t\"'[]{}#") {
			return nil, fmt.Errorf("line %d: %q is not a key: value line", lineNo(i), clip(l))
		}
		if _, dup := keys[key]; dup {
			return nil, fmt.Errorf("line %d: the key %q is given twice", lineNo(i), key)
		}
		raw = strings.TrimSpace(raw)
		// The lines that belong to this key: the indented ones after it.
		end := i + 1
		for end < len(lines) && (blankOrComment(lines[end]) || indent(lines[end]) > 0 || strings.HasPrefix(lines[end], "- ") || lines[end] == "-") {
			end++
		}
		nested := lines[i+1 : end]
		v, err := frontScalarOrBlock(raw, nested, lineNo(i))
		if err != nil {
			return nil, err
		}
		v.line = lineNo(i)
		keys[key] = v
		i = end - 1
	}
	return keys, nil
}

// frontScalarOrBlock reads a key's value from the rest of its line and
// the lines that belong to it.
func frontScalarOrBlock(raw string, nested []string, line int) (frontValue, error) {
	var content []string // nested lines that are not blank
	var at []int         // their lines in the file
	for j, l := range nested {
		if !blankOrComment(l) {
			content, at = append(content, l), append(at, line+1+j)
		}
	}
	switch {
	case raw == "" || strings.HasPrefix(raw, "#"):
		if len(content) == 0 {
			return frontValue{kind: frontText}, nil
		}
		if item := strings.TrimSpace(content[0]); item == "-" || strings.HasPrefix(item, "- ") {
			var list []string
			for k, l := range content {
				item := strings.TrimSpace(l)
				if item != "-" && !strings.HasPrefix(item, "- ") {
					return frontValue{}, fmt.Errorf("line %d: a list mixes items (- item) with other lines", at[k])
				}
				s, err := frontScalar(strings.TrimSpace(strings.TrimPrefix(item, "-")), at[k])
				if err != nil {
					return frontValue{}, err
				}
				list = append(list, s)
			}
			return frontValue{kind: frontList, list: list}, nil
		}
		return frontValue{kind: frontMap}, nil
	case raw[0] == '|' || raw[0] == '>':
		return frontValue{kind: frontText, text: blockScalar(raw[0] == '>', nested)}, nil
	case raw[0] == '[':
		if len(content) > 0 {
			return frontValue{}, fmt.Errorf("line %d: a [list] must close on its own line", line)
		}
		list, err := flowList(raw, line)
		return frontValue{kind: frontList, list: list}, err
	case raw[0] == '{':
		return frontValue{kind: frontMap}, nil
	}
	s, err := frontScalar(raw, line)
	if err != nil {
		return frontValue{}, err
	}
	// A plain scalar may go on over more indented lines, folded.
	if raw[0] != '"' && raw[0] != '\'' {
		for _, l := range content {
			s += " " + strings.TrimSpace(stripComment(l))
		}
	} else if len(content) > 0 {
		return frontValue{}, fmt.Errorf("line %d: a quoted value must end on its own line", line)
	}
	return frontValue{kind: frontText, text: s}, nil
}

// frontScalar reads one value: "double quoted" (with escapes), 'single
// quoted' (a quote doubled stands for one), or plain text up to a " #"
// comment.
func frontScalar(raw string, line int) (string, error) {
	switch {
	case strings.HasPrefix(raw, `"`):
		end := closingQuote(raw)
		if end < 0 {
			return "", fmt.Errorf("line %d: a \"quoted\" value is not closed", line)
		}
		s, err := strconv.Unquote(raw[:end+1])
		if err != nil {
			return "", fmt.Errorf("line %d: a \"quoted\" value has an escape that cannot be read", line)
		}
		if rest := strings.TrimSpace(raw[end+1:]); rest != "" && !strings.HasPrefix(rest, "#") {
			return "", fmt.Errorf("line %d: text after a quoted value", line)
		}
		return s, nil
	case strings.HasPrefix(raw, "'"):
		var b strings.Builder
		for i := 1; i < len(raw); i++ {
			if raw[i] != '\'' {
				b.WriteByte(raw[i])
				continue
			}
			if i+1 < len(raw) && raw[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			if rest := strings.TrimSpace(raw[i+1:]); rest != "" && !strings.HasPrefix(rest, "#") {
				return "", fmt.Errorf("line %d: text after a quoted value", line)
			}
			return b.String(), nil
		}
		return "", fmt.Errorf("line %d: a 'quoted' value is not closed", line)
	}
	return strings.TrimSpace(stripComment(raw)), nil
}

// closingQuote is the index of the quote that closes a double-quoted
// value starting at s[0], or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// stripComment cuts a plain value at " #".
func stripComment(s string) string {
	if strings.HasPrefix(strings.TrimSpace(s), "#") {
		return ""
	}
	if i := strings.Index(s, " #"); i >= 0 {
		return s[:i]
	}
	return s
}

// flowList reads [a, "b", 'c'] on one line.
func flowList(raw string, line int) ([]string, error) {
	s := strings.TrimSpace(stripComment(raw))
	if !strings.HasSuffix(s, "]") {
		return nil, fmt.Errorf("line %d: a [list] is not closed with ] on its line", line)
	}
	inner := strings.TrimSpace(s[1 : len(s)-1])
	list := []string{}
	for inner != "" {
		var item string
		switch inner[0] {
		case '"', '\'':
			end := closingQuote(inner)
			if inner[0] == '\'' {
				end = strings.IndexByte(inner[1:], '\'') + 1
				if end == 0 {
					end = -1
				}
			}
			if end < 0 {
				return nil, fmt.Errorf("line %d: a quoted item of a [list] is not closed", line)
			}
			v, err := frontScalar(inner[:end+1], line)
			if err != nil {
				return nil, err
			}
			item, inner = v, strings.TrimSpace(inner[end+1:])
			if inner != "" && inner[0] != ',' {
				return nil, fmt.Errorf("line %d: items of a [list] are separated by commas", line)
			}
		default:
			i := strings.IndexByte(inner, ',')
			if i < 0 {
				i = len(inner)
			}
			item, inner = strings.TrimSpace(inner[:i]), inner[i:]
			if strings.ContainsAny(item, "[]{}") {
				return nil, fmt.Errorf("line %d: a [list] holds only plain values", line)
			}
		}
		list = append(list, item)
		inner = strings.TrimSpace(strings.TrimPrefix(inner, ","))
	}
	return list, nil
}

// blockScalar reads the lines of a | (literal) or > (folded) value.
func blockScalar(folded bool, lines []string) string {
	pad := -1
	for _, l := range lines {
		if strings.TrimSpace(l) != "" && (pad < 0 || indent(l) < pad) {
			pad = indent(l)
		}
	}
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			out = append(out, "")
			continue
		}
		out = append(out, l[min(pad, len(l)):])
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if !folded {
		return strings.Join(out, "\n")
	}
	var b strings.Builder
	for i, l := range out {
		switch {
		case i == 0:
		case l == "" || out[i-1] == "":
			b.WriteByte('\n')
		default:
			b.WriteByte(' ')
		}
		b.WriteString(l)
	}
	return b.String()
}

func blankOrComment(l string) bool {
	t := strings.TrimSpace(l)
	return t == "" || strings.HasPrefix(t, "#")
}

func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

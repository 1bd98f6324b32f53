package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Decode decodes the frontmatter into v, a pointer to a struct with yaml
// tags. Empty frontmatter leaves v as it is. The YAML must be a mapping;
// its errors are one line and name lines of the file, not of the
// frontmatter.
func (d Doc) Decode(v any) error {
	_, err := d.DecodeLines(v)
	return err
}

// DecodeLines is Decode that also gives the file's line of each
// top-level key, for the owner's own checks of a value to name. A key
// given no value (tools:) is there, though it leaves its field as an
// absent key does.
func (d Doc) DecodeLines(v any) (lines map[string]int, err error) {
	if len(bytes.TrimSpace(d.Front)) == 0 {
		return nil, nil
	}
	defer func() {
		// The decoder is third-party code fed untrusted text: a panic in
		// it is this file's error, not quire's crash.
		if r := recover(); r != nil {
			lines, err = nil, fmt.Errorf("the frontmatter could not be read as YAML (%v)", r)
		}
	}()
	// The decoder is given the opening fence's line as a blank one, so
	// the lines it counts are nearly the file's (fileLines has the rest).
	fl := newFileLines(d.Front)
	var root yaml.Node
	if err := yaml.Unmarshal(append([]byte{'\n'}, d.Front...), &root); err != nil {
		return nil, syntaxError(fl, err)
	}
	if len(root.Content) == 0 {
		return nil, nil
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: the frontmatter must be key: value lines, not %s", fl.line(top.Line), kindName(top))
	}
	keys := topKeys(top, fl)
	if err := root.Decode(v); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return nil, typeError(te, keys, fl)
		}
		return nil, fmt.Errorf("the frontmatter is not valid YAML: %s", oneLine(err))
	}
	lines = make(map[string]int, len(keys))
	for _, k := range keys {
		if _, dup := lines[k.name]; !dup {
			lines[k.name] = k.line
		}
	}
	return lines, nil
}

// key is a top-level key of the frontmatter and the file's line it is on.
type key struct {
	name string
	line int
}

// topKeys are the keys of the frontmatter's mapping, in the file's order.
func topKeys(m *yaml.Node, fl *fileLines) []key {
	var keys []key
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode {
			keys = append(keys, key{k.Value, fl.line(k.Line)})
		}
	}
	return keys
}

// ownerKey is the top-level key whose value holds the file's line, or ""
// when that is not one key's (keys of a one-line {mapping}).
func ownerKey(keys []key, line int) string {
	owner := -1
	for i, k := range keys {
		if k.line <= line {
			owner = i
		}
	}
	if owner < 0 {
		return ""
	}
	for i, k := range keys {
		if i != owner && k.line == keys[owner].line {
			return ""
		}
	}
	return keys[owner].name
}

// typeNames says in words what the decoder's tags and Go types are.
var typeNames = strings.NewReplacer(
	"!!seq", "a list", "!!map", "a set of keys", "!!str", "text", "!!int", "a number",
	"!!float", "a number", "!!bool", "true or false", "!!null", "nothing", "!!timestamp", "a date",
	"[]string", "a list of text", "map[string]string", "keys with text values", "string", "text",
	"bool", "true or false", "int", "a whole number",
)

var (
	cannot    = regexp.MustCompile(`cannot unmarshal (\S+)(?: ` + "`" + `[^` + "`" + `]*` + "`" + `)? into (\S+)`)
	duplicate = regexp.MustCompile(`^line (\d+): mapping key ("(?:[^"\\]|\\.)*") already defined at line (\d+)$`)
	atLine    = regexp.MustCompile(`^line (\d+): `)
)

// typeError restates the decoder's complaints about values: a key given
// twice, and a value of the wrong type, with the file's line, the key it
// belongs to, what was found and what belongs there.
func typeError(te *yaml.TypeError, keys []key, fl *fileLines) error {
	fileLine := func(s string) int {
		n, _ := strconv.Atoi(s)
		return fl.line(n)
	}
	var twice, wrong []string
	for _, e := range te.Errors {
		if m := duplicate.FindStringSubmatch(e); m != nil {
			twice = append(twice, fmt.Sprintf("line %d: the key %s is given twice (first on line %d)", fileLine(m[1]), m[2], fileLine(m[3])))
			continue
		}
		msg := cannot.ReplaceAllStringFunc(e, func(s string) string {
			m := cannot.FindStringSubmatch(s)
			return typeNames.Replace(m[1]) + " where " + typeNames.Replace(m[2]) + " belongs"
		})
		if m := atLine.FindStringSubmatch(msg); m != nil {
			line := fileLine(m[1])
			at := fmt.Sprintf("line %d: ", line)
			if k := ownerKey(keys, line); k != "" {
				at += k + ": "
			}
			msg = at + msg[len(m[0]):]
		}
		wrong = append(wrong, msg)
	}
	if len(wrong) > 0 {
		twice = append(twice, "the frontmatter has a value of the wrong type: "+strings.Join(wrong, "; "))
	}
	return errors.New(strings.Join(twice, "; "))
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a single value"
	case yaml.AliasNode:
		return "an alias"
	}
	return "that"
}

// oneLine is the decoder's error on one line, without its "yaml: ".
func oneLine(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	return strings.Join(strings.Fields(msg), " ")
}

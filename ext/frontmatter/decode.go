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
func (d Doc) Decode(v any) (err error) {
	if len(bytes.TrimSpace(d.Front)) == 0 {
		return nil
	}
	defer func() {
		// The decoder is third-party code fed untrusted text: a panic in
		// it is this file's error, not quire's crash.
		if r := recover(); r != nil {
			err = fmt.Errorf("the frontmatter could not be read as YAML (%v)", r)
		}
	}()
	var root yaml.Node
	if err := yaml.Unmarshal(d.Front, &root); err != nil {
		return yamlError(err)
	}
	if len(root.Content) == 0 {
		return nil
	}
	if n := root.Content[0]; n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: the frontmatter must be key: value lines, not %s", n.Line+1, kindName(n))
	}
	if err := root.Decode(v); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return typeError(te)
		}
		return yamlError(err)
	}
	return nil
}

// typeNames says in words what the decoder's tags and Go types are.
var typeNames = strings.NewReplacer(
	"!!seq", "a list", "!!map", "a set of keys", "!!str", "text", "!!int", "a number",
	"!!float", "a number", "!!bool", "true or false", "!!null", "nothing", "!!timestamp", "a date",
	"[]string", "a list of text", "map[string]string", "keys with text values", "string", "text",
	"bool", "true or false", "int", "a whole number",
)

var cannot = regexp.MustCompile(`cannot unmarshal (\S+)(?: ` + "`" + `[^` + "`" + `]*` + "`" + `)? into (\S+)`)

// typeError restates a value of the wrong type: the line of the file,
// what was found and what belongs there.
func typeError(te *yaml.TypeError) error {
	var parts []string
	for _, e := range te.Errors {
		msg := cannot.ReplaceAllStringFunc(e, func(s string) string {
			m := cannot.FindStringSubmatch(s)
			return typeNames.Replace(m[1]) + " where " + typeNames.Replace(m[2]) + " belongs"
		})
		msg = yamlLine.ReplaceAllStringFunc(msg, shiftLine)
		parts = append(parts, msg)
	}
	return fmt.Errorf("the frontmatter has a value of the wrong type: %s", strings.Join(parts, "; "))
}

// shiftLine moves a "line N" of the frontmatter past the opening fence.
func shiftLine(s string) string { return shiftBy(s, 1) }

func shiftBy(s string, by int) string {
	n, _ := strconv.Atoi(s[len("line "):])
	return "line " + strconv.Itoa(n+by)
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

var yamlLine = regexp.MustCompile(`line (\d+)`)

// yamlError restates the decoder's error on one line, its line numbers
// moved past the opening fence so they are the file's.
func yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:")
	shift := shiftLine
	if strings.Contains(msg, "did not find expected") {
		// The parser's errors (unlike the scanner's) count lines from 0.
		shift = func(s string) string { return shiftBy(s, 2) }
	}
	msg = yamlLine.ReplaceAllStringFunc(msg, shift)
	var parts []string
	for _, p := range strings.Split(msg, "\n") {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return fmt.Errorf("the frontmatter is not valid YAML: %s", strings.Join(parts, "; "))
}

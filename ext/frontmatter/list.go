package frontmatter

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// List is a list of text that frontmatter may give as a YAML list
// (tools: [read_file, grep]) or as text separated by commas (tools:
// read_file, grep), the way files written for other agents give such
// keys. Items are trimmed and empty ones dropped; [] or "" is an empty
// List, not a nil one. A key given no value (tools:) leaves it nil, as
// an absent key does; DecodeLines tells the two apart.
type List []string

// UnmarshalYAML reads a list or text; anything else is a value of the
// wrong type.
func (l *List) UnmarshalYAML(n *yaml.Node) error {
	var items []string
	if n.Kind == yaml.ScalarNode {
		items = strings.FieldsFunc(n.Value, func(r rune) bool { return r == ',' || r == '\n' })
	} else if err := n.Decode(&items); err != nil {
		return err
	}
	out := List{}
	for _, it := range items {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	*l = out
	return nil
}

// Package frontmatter reads markdown files that begin with YAML
// frontmatter: a first line "---", YAML, and a closing "---" line, then
// the body. Skills (SKILL.md), custom commands and agent definitions are
// such files; this package splits them, bounds what is read, and decodes
// the YAML into the owner's struct with errors that name the file's line.
//
// The YAML is decoded by go.yaml.in/yaml/v3, so files written for other
// agents (block scalars, lists, nested maps) read as they do there. Keys
// the owner's struct does not name are ignored: such files carry keys for
// other programs. A duplicate key, a value of the wrong type, frontmatter
// that is not a mapping, or one without its closing line is an error. The
// frontmatter is at most MaxFront bytes, so a huge file is never read
// whole to find out what it is.
package frontmatter

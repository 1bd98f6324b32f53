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
// that is not a mapping, or one without its closing line is an error.
// Errors are one line, in the words of someone who wrote the file rather
// than the YAML library's ("a [list] is not closed with ]"), and name
// the line of the file an editor shows (not the one the library counts,
// nor the start of the list a stray line breaks) and the key a value of
// the wrong type belongs to. DecodeLines also gives each key's line, for
// the owner's own checks of a value to name. List is a key's list of
// text given either as a YAML list or as text separated by commas, as
// other agents write tools:. The frontmatter is at most MaxFront bytes,
// so a huge file is never read whole to find out what it is.
package frontmatter

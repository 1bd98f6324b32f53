package frontmatter

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The decoder words a syntax error as libyaml does ("line N: did not find
// expected key"), and its line is not always the one to look at. These
// say the common ones in the words of someone who wrote the file, and
// find the line each is about.

// parserProblems are the problems libyaml's parser (rather than its
// scanner) finds; the decoder counts their lines from 0.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found undefined tag handle":             true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

// lateProblems are found on a line after the one the decoder names: a
// block list or mapping with a line that does not belong, where it names
// the line the list or mapping starts on, and a tab in a value's
// indentation, where it names the line the value starts on.
var lateProblems = map[string]bool{
	"did not find expected '-' indicator":                          true,
	"did not find expected key":                                    true,
	"found a tab character that violates indentation":              true,
	"found a tab character where an indentation space is expected": true,
}

// plainWords restate problems; %q, where there is one, is the text of
// the line.
var plainWords = map[string]string{
	"found unexpected end of stream":                               "a quoted value is not closed",
	"found unexpected document indicator":                          "a quoted value is not closed",
	"found unknown escape character":                               `a "double-quoted" value has a \ escape that cannot be read (write \\ for a backslash, or quote with ' instead)`,
	"did not find expected hexdecimal number":                      `a "double-quoted" value has a \x, \u or \U escape without its hex digits`,
	"found invalid Unicode character escape code":                  `a "double-quoted" value has a \u or \U escape that is not a character`,
	"did not find expected ',' or ']'":                             "a [list] is not closed with ], or its items are not separated by commas",
	"did not find expected ',' or '}'":                             "a {mapping} is not closed with }, or its keys are not separated by commas",
	"could not find expected ':'":                                  "%q is not a key: value line",
	"did not find expected key":                                    "%q is not a key: value line (is it indented wrongly, or is there text after a quoted value?)",
	"did not find expected '-' indicator":                          "a list mixes items (- item) with another line: %q",
	"did not find expected node content":                           "a value is missing here",
	"mapping values are not allowed in this context":               `a value holds ": " (quote the value), or a key is indented under another value: %q`,
	"block sequence entries are not allowed in this context":       "a list item (- item) follows a value on its line; put the list on the lines after its key",
	"found a tab character that violates indentation":              "a tab indents this line; YAML indents with spaces",
	"found a tab character where an indentation space is expected": "a tab indents this line; YAML indents with spaces",
	"found character that cannot start any token":                  "a value starts with a character YAML keeps for itself (quote the value): %q",
}

var lineProblem = regexp.MustCompile(`^line (\d+): (.+)$`)

// syntaxError restates the decoder's error about the frontmatter: one
// line, the file's line, plain words.
func syntaxError(lines *fileLines, err error) error {
	msg := oneLine(err)
	m := lineProblem.FindStringSubmatch(msg)
	if m == nil {
		return fmt.Errorf("the frontmatter is not valid YAML: %s", msg)
	}
	line, _ := strconv.Atoi(m[1])
	problem := m[2]
	if parserProblems[problem] {
		line++
	}
	if lateProblems[problem] {
		line = problemLine(lines, line, problem)
	}
	words, ok := plainWords[problem]
	switch {
	case !ok:
		words = problem
	case strings.Contains(words, "%q"):
		words = fmt.Sprintf(words, clip(lines.text(line), 60))
	}
	return fmt.Errorf("the frontmatter is not valid YAML: line %d: %s", lines.line(line), words)
}

// problemLine finds the line of a late problem in what starts on the
// decoder's line start. The decoder names the line a problem's context (the
// list, the value) starts on, except when that is the first line it is
// given, where it takes the line's 0 for "no line" and names the
// problem's own line instead. So the frontmatter from start on is
// decoded again; when that finds the same problem, its line is the one.
// Otherwise the context's start is as near as can be said.
func problemLine(lines *fileLines, start int, problem string) int {
	off := lines.offset(start)
	if off < 0 {
		return start
	}
	var n yaml.Node
	err := yaml.Unmarshal(lines.front[off:], &n)
	if err == nil {
		return start
	}
	m := lineProblem.FindStringSubmatch(oneLine(err))
	if m == nil || m[2] != problem {
		return start
	}
	at, _ := strconv.Atoi(m[1])
	if !parserProblems[problem] {
		at-- // the scanner's lines count from 1
	}
	return start + at
}

// clip shortens text quoted in an error to n characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

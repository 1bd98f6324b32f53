package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxFront bounds the frontmatter, fences included.
const MaxFront = 64 << 10

// Doc is a markdown file split into its frontmatter and body.
type Doc struct {
	// Front is the YAML between the fences; HasFront reports whether the
	// file had frontmatter at all (Front may be empty when it had).
	Front    []byte
	HasFront bool
	// Body is what follows the closing fence (the whole file when there
	// is no frontmatter), up to the limit it was read with.
	Body []byte
	// BodyLine is the 1-based line of the file the body starts on.
	BodyLine int
	// Truncated reports that the body was cut at the limit.
	Truncated bool
}

var bom = []byte("\xef\xbb\xbf")

// Parse splits a whole document. A document has frontmatter when its first
// line is exactly "---" (a UTF-8 byte order mark and trailing spaces or
// a carriage return aside); the frontmatter then ends at the next line
// that is "---" or "...". An opening fence without a closing one, or
// frontmatter longer than MaxFront, is an error.
func Parse(data []byte) (Doc, error) {
	data = bytes.TrimPrefix(data, bom)
	first, rest, _ := cutLine(data)
	if !isFence(first, false) {
		return Doc{Body: data, BodyLine: 1}, nil
	}
	off := len(data) - len(rest)
	line := 2
	for len(rest) > 0 {
		l, next, _ := cutLine(rest)
		if isFence(l, true) {
			front := data[off : len(data)-len(rest)]
			if len(data)-len(next) > MaxFront {
				return Doc{}, fmt.Errorf("the frontmatter is longer than %d KiB", MaxFront>>10)
			}
			return Doc{Front: front, HasFront: true, Body: next, BodyLine: line + 1}, nil
		}
		if len(data)-len(next) > MaxFront {
			return Doc{}, fmt.Errorf("the frontmatter has no closing --- line in its first %d KiB", MaxFront>>10)
		}
		rest = next
		line++
	}
	return Doc{}, errors.New("the frontmatter has no closing --- line")
}

// cutLine splits off the first line, without its line ending; ok reports
// whether a newline ended it.
func cutLine(b []byte) (line, rest []byte, ok bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil, false
	}
	return b[:i], b[i+1:], true
}

// isFence reports whether line is "---" (or, closing, "..."), with
// trailing blanks and a carriage return allowed.
func isFence(line []byte, closing bool) bool {
	l := bytes.TrimRight(line, " \t\r")
	return string(l) == "---" || closing && string(l) == "..."
}

// ReadFile reads the frontmatter of the file at path and at most
// bodyLimit bytes of its body (0: none); Truncated says when the body was
// longer. Only a regular file is read (a symbolic link to one is), and
// never more than MaxFront+bodyLimit+1 bytes of it.
func ReadFile(path string, bodyLimit int) (Doc, error) {
	f, err := os.Open(path)
	if err != nil {
		return Doc{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Doc{}, err
	}
	if !st.Mode().IsRegular() {
		return Doc{}, errors.New("not a regular file")
	}
	// The body starts within MaxFront bytes, so one more byte than the
	// body's limit past that tells whether the body is longer. Most
	// frontmatter is short: a first read of a few KiB usually settles it.
	need := MaxFront + bodyLimit + 1
	buf := make([]byte, 0, min(int64(need), st.Size()+1))
	buf, eof, err := readUpTo(f, buf, min(firstRead+bodyLimit, need))
	if err != nil {
		return Doc{}, err
	}
	d, perr := Parse(buf)
	if !eof && (perr != nil || len(d.Body) <= bodyLimit) {
		if buf, _, err = readUpTo(f, buf, need); err != nil {
			return Doc{}, err
		}
		d, perr = Parse(buf)
	}
	if perr != nil {
		return Doc{}, perr
	}
	if len(d.Body) > bodyLimit {
		d.Body = d.Body[:cutRune(d.Body, bodyLimit)]
		d.Truncated = true
	}
	return d, nil
}

// firstRead is how much of a file is read first.
const firstRead = 8 << 10

// readUpTo reads from r until buf holds n bytes or r ends (eof).
func readUpTo(r io.Reader, buf []byte, n int) (_ []byte, eof bool, err error) {
	if len(buf) >= n {
		return buf, false, nil
	}
	start := len(buf)
	buf = append(buf, make([]byte, n-start)...)
	m, err := io.ReadFull(r, buf[start:])
	buf = buf[:start+m]
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return buf, true, nil
	}
	return buf, false, err
}

// cutRune is the largest length up to n that does not split a UTF-8
// sequence.
func cutRune(b []byte, n int) int {
	if n >= len(b) {
		return len(b)
	}
	for n > 0 && b[n]&0xC0 == 0x80 {
		n--
	}
	return n
}

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

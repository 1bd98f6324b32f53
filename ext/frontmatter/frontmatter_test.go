package frontmatter

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

type meta struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Tags        []string `yaml:"tags"`
	Tools       List     `yaml:"tools"`
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		front     string
		hasFront  bool
		body      string
		bodyLine  int
		offset    int
		err       string
	}{
		{name: "none", doc: "# Title\n\ntext\n", body: "# Title\n\ntext\n", bodyLine: 1},
		{name: "empty file", doc: "", body: "", bodyLine: 1},
		{name: "plain", doc: "---\nname: a\n---\nbody\n", front: "name: a\n", hasFront: true, body: "body\n", bodyLine: 4, offset: 16},
		{name: "crlf", doc: "---\r\nname: a\r\n---\r\nbody\r\n", front: "name: a\r\n", hasFront: true, body: "body\r\n", bodyLine: 4, offset: 19},
		{name: "bom and trailing blanks", doc: "\xef\xbb\xbf--- \nname: a\n---\t\nbody", front: "name: a\n", hasFront: true, body: "body", bodyLine: 4, offset: 21},
		{name: "dots close", doc: "---\nname: a\n...\nbody", front: "name: a\n", hasFront: true, body: "body", bodyLine: 4, offset: 16},
		{name: "empty frontmatter", doc: "---\n---\nbody", front: "", hasFront: true, body: "body", bodyLine: 3, offset: 8},
		{name: "no body", doc: "---\nname: a\n---", front: "name: a\n", hasFront: true, body: "", bodyLine: 4, offset: 15},
		{name: "fence later is body", doc: "text\n---\nname: a\n---\n", body: "text\n---\nname: a\n---\n", bodyLine: 1},
		{name: "four dashes are not a fence", doc: "----\nx\n", body: "----\nx\n", bodyLine: 1},
		{name: "bom without frontmatter", doc: "\xef\xbb\xbftext", body: "text", bodyLine: 1, offset: 3},
		{name: "unclosed", doc: "---\nname: a\nbody\n", err: "no closing --- line"},
		{name: "only a fence", doc: "---", err: "no closing --- line"},
		{name: "too long", doc: "---\n" + strings.Repeat("k: v\n", MaxFront/5+1) + "---\nbody", err: "no closing --- line in its first 64 KiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.doc))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(d.Front) != tc.front || d.HasFront != tc.hasFront || string(d.Body) != tc.body || d.BodyLine != tc.bodyLine || d.BodyOffset != tc.offset {
				t.Fatalf("got front %q (%v), body %q at line %d, byte %d; want %q (%v), %q at %d, %d", d.Front, d.HasFront, d.Body, d.BodyLine, d.BodyOffset, tc.front, tc.hasFront, tc.body, tc.bodyLine, tc.offset)
			}
			if d.BodyOffset+len(d.Body) != len(tc.doc) {
				t.Fatalf("the body at byte %d is not the document's last %d bytes", d.BodyOffset, len(d.Body))
			}
		})
	}
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		name, front string
		want        meta
		err         string
	}{
		{name: "plain", front: "name: pdf\ndescription: Read PDFs\n", want: meta{Name: "pdf", Description: "Read PDFs"}},
		{name: "quoted", front: "name: 'pdf'\ndescription: \"Read: PDFs\"\n", want: meta{Name: "pdf", Description: "Read: PDFs"}},
		{name: "folded block", front: "description: >\n  one\n  two\n", want: meta{Description: "one two\n"}},
		{name: "literal block", front: "description: |\n  one\n  two\n", want: meta{Description: "one\ntwo\n"}},
		{name: "lists", front: "tags: [a, b]\n", want: meta{Tags: []string{"a", "b"}}},
		{name: "block list", front: "tags:\n  - a\n  - b\n", want: meta{Tags: []string{"a", "b"}}},
		{name: "unknown keys are others'", front: "name: x\nmetadata:\n  author: me\nallowed-tools: Read, Grep\nhooks:\n  PreToolUse: []\n", want: meta{Name: "x"}},
		{name: "comments", front: "# about\nname: x # trailing\n", want: meta{Name: "x"}},
		{name: "a number is text", front: "name: 123\n", want: meta{Name: "123"}},
		{name: "empty", front: "\n\n", want: meta{}},
		{name: "duplicate key", front: "name: a\nname: b\n", err: `line 3: the key "name" is given twice (first on line 2)`},
		{name: "list where text belongs", front: "name: [a]\n", err: "wrong type: line 2: name: a list where text belongs"},
		{name: "map where text belongs", front: "description:\n  a: b\n", err: "line 3: description: a set of keys where text belongs"},
		{name: "text where a list belongs", front: "tags: x\n", err: "line 2: tags: text where a list of text belongs"},
		{name: "a one-line mapping names no key", front: "{name: [a], tags: [b]}\n", err: "wrong type: line 2: a list where text belongs"},
		{name: "both at once", front: "name: [a]\ntags: x\n", err: "line 2: name: a list where text belongs; line 3: tags: text where a list of text belongs"},
		{name: "not a mapping", front: "- a\n- b\n", err: "line 2: the frontmatter must be key: value lines, not a list"},
		{name: "a single value", front: "just text\n", err: "not a single value"},
		{name: "bad indentation", front: "name: a\n  b: c\n", err: "not valid YAML: line 3"},
		{name: "unterminated quote", front: "name: x\ndescription: 'a\n", err: "not valid YAML: line 3: a quoted value is not closed"},
		{name: "unterminated quote on the first line", front: "description: \"a\nname: x\n", err: "not valid YAML: line 2: a quoted value is not closed"},
		{name: "bad escape", front: "name: x\ndescription: \"\\q\"\n", err: `line 3: a "double-quoted" value has a \ escape that cannot be read`},
		{name: "escape without its digits", front: "name: x\ndescription: \"\\xZZ\"\n", err: `line 3: a "double-quoted" value has a \x, \u or \U escape without its hex digits`},
		{name: "unclosed flow list", front: "name: x\ndescription: [a\n", err: "not valid YAML: line 3: a [list] is not closed with ]"},
		{name: "unclosed flow list on the first line", front: "tags: [a, b\nname: x\n", err: "not valid YAML: line 2: a [list] is not closed with ]"},
		{name: "unclosed flow mapping", front: "name: x\nmetadata: {a: b\n", err: "not valid YAML: line 3: a {mapping} is not closed with }"},
		{name: "missing key", front: "name: x\n- a\n", err: `not valid YAML: line 3: "- a" is not a key: value line`},
		{name: "missing key after comments", front: "# about\n\nname: x\ndescription: y\n\n- a\n", err: `not valid YAML: line 7: "- a" is not a key: value line`},
		{name: "missing key in a nested mapping", front: "name: x\nmetadata:\n  a: b\n  c: d\n  - e\n", err: `not valid YAML: line 6: "- e" is not a key: value line`},
		{name: "text after a block value", front: "description: |\n  a\n b\n", err: `not valid YAML: line 4: "b" is not a key: value line`},
		{name: "a list mixed with keys", front: "name: x\ntags:\n  - a\n\n  # more\n  - b\n  c: d\n", err: `not valid YAML: line 8: a list mixes items (- item) with another line: "c: d"`},
		{name: "words without a key", front: "name: x\njust words\n", err: `not valid YAML: line 3: "just words" is not a key: value line`},
		{name: "colon in a value", front: "name: x\ndescription: Use it: for PDFs\n", err: `not valid YAML: line 3: a value holds ": " (quote the value)`},
		{name: "key indented under a value", front: "name: x\n  description: y\n", err: `not valid YAML: line 3: a value holds ": " (quote the value), or a key is indented under another value: "description: y"`},
		{name: "reserved first character", front: "name: x\ndescription: @me\n", err: `not valid YAML: line 3: a value starts with a character YAML keeps for itself (quote the value): "description: @me"`},
		{name: "list item after a value", front: "tags: - a\n", err: "not valid YAML: line 2: a list item (- item) follows a value on its line"},
		{name: "tab in a value's indentation", front: "name: x\ndescription: a\n  b\n\tc\n", err: "not valid YAML: line 5: a tab indents this line"},
		{name: "tab in a block value", front: "name: x\ndescription: |\n  a\n\t b\n", err: "not valid YAML: line 5: a tab indents this line"},
		{name: "a lone CR is no line of the file", front: "name: x\rdescription: [a]\ntags: x\n", err: "wrong type: line 2: a list where text belongs; line 3: tags: text where"},
		{name: "nor is U+2028", front: "name: x\u2028tags: [a\n", err: "not valid YAML: line 2: a [list] is not closed"},
		{name: "CRLF", front: "name: x\r\n\r\ndescription: 'a\r\n", err: "not valid YAML: line 4: a quoted value is not closed"},
		{name: "tab indent", front: "name:\n\t- a\n", err: "not valid YAML: line 3: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m meta
			err := Doc{Front: []byte(tc.front), HasFront: true}.Decode(&m)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Fatalf("error is more than one line: %q", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Name != tc.want.Name || m.Description != tc.want.Description || strings.Join(m.Tags, ",") != strings.Join(tc.want.Tags, ",") {
				t.Fatalf("got %+v, want %+v", m, tc.want)
			}
		})
	}
}

// DecodeLines says where each top-level key is, a key without a value
// too, in the file's lines.
func TestDecodeLines(t *testing.T) {
	d, err := Parse([]byte("---\nname: a\n# about\n\ndescription: >\n  x\n  y\ntags:\nmetadata:\n  name: inner\n---\nbody\n"))
	if err != nil {
		t.Fatal(err)
	}
	var m meta
	lines, err := d.DecodeLines(&m)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"name": 2, "description": 5, "tags": 8, "metadata": 9}
	if !reflect.DeepEqual(lines, want) || m.Name != "a" || m.Tags != nil {
		t.Fatalf("lines %v, %+v; want %v", lines, m, want)
	}
	if lines, err := (Doc{HasFront: true}).DecodeLines(&m); lines != nil || err != nil {
		t.Fatalf("empty frontmatter: %v, %v", lines, err)
	}
}

// An alias bomb is refused, not expanded.
func TestDecodeAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for i := 0; i < 9; i++ {
		name := string(rune('b' + i))
		b.WriteString(name + ": &" + name + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*" + prev)
		}
		b.WriteString("]\n")
		prev = name
	}
	var m map[string]any
	err := Doc{Front: []byte(b.String()), HasFront: true}.Decode(&m)
	if err == nil {
		t.Fatal("a billion laughs decoded without error")
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	small := write("small.md", "---\nname: a\n---\nhello\n")
	d, err := ReadFile(small, 100)
	if err != nil || string(d.Body) != "hello\n" || d.Truncated || string(d.Front) != "name: a\n" {
		t.Fatalf("small: %+v, %v", d, err)
	}
	d, err = ReadFile(small, 0)
	if err != nil || len(d.Body) != 0 || !d.Truncated || string(d.Front) != "name: a\n" {
		t.Fatalf("front only: %+v, %v", d, err)
	}
	// A huge file: the frontmatter is found and the body bounded, without
	// reading the whole.
	huge := write("huge.md", "---\nname: big\n---\n"+strings.Repeat("é", 6<<20))
	d, err = ReadFile(huge, 1001)
	if err != nil || !d.Truncated || len(d.Body) != 1000 || string(d.Front) != "name: big\n" {
		t.Fatalf("huge: body %d bytes, truncated %v, %v", len(d.Body), d.Truncated, err)
	}
	// Exactly at the limit is not truncated.
	exact := write("exact.md", "body")
	if d, err = ReadFile(exact, 4); err != nil || d.Truncated || string(d.Body) != "body" {
		t.Fatalf("exact: %+v, %v", d, err)
	}
	// Frontmatter longer than the first read, and a body past it.
	longFront := "---\n" + strings.Repeat("# a comment line of the frontmatter\n", 600) + "name: long\n---\nthe body\n"
	long := write("long.md", longFront)
	if d, err = ReadFile(long, 100); err != nil || string(d.Body) != "the body\n" || d.Truncated || !strings.HasSuffix(string(d.Front), "name: long\n") {
		t.Fatalf("long frontmatter: body %q, %v", d.Body, err)
	}
	// A body that ends exactly at the first read.
	edge := write("edge.md", "---\nname: e\n---\n"+strings.Repeat("b", firstRead-len("---\nname: e\n---\n")))
	if d, err = ReadFile(edge, firstRead); err != nil || d.Truncated || len(d.Body) != firstRead-len("---\nname: e\n---\n") {
		t.Fatalf("edge: %d bytes, truncated %v, %v", len(d.Body), d.Truncated, err)
	}
	if d, err = ReadFile(edge, 10); err != nil || !d.Truncated || len(d.Body) != 10 {
		t.Fatalf("edge cut: %d bytes, truncated %v, %v", len(d.Body), d.Truncated, err)
	}
	unclosed := write("unclosed.md", "---\nname: a\n"+strings.Repeat("x\n", MaxFront))
	if _, err = ReadFile(unclosed, 10); err == nil || !strings.Contains(err.Error(), "first 64 KiB") {
		t.Fatalf("unclosed: %v", err)
	}
	if _, err = ReadFile(dir, 10); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a directory: %v", err)
	}
	if _, err = ReadFile(filepath.Join(dir, "missing.md"), 10); !os.IsNotExist(err) {
		t.Fatalf("missing: %v", err)
	}
}

var lineNumber = regexp.MustCompile(`line (\d+)`)

// FuzzParse: any input splits without panic into frontmatter and body
// that are the input's own bytes, and decoding never panics or returns a
// multi-line error.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"---\nname: a\ndescription: b\n---\nbody\n",
		"---\r\nname: 'a'\r\n---\r\n",
		"---\ndescription: >\n  x\n  y\ntags: [a, b]\nmetadata:\n  k: v\n---\n",
		"---\n- a\n---\n", "---\nname: [\n---\n", "---\na: &x 1\nb: *x\n---\n", "no front", "---", "",
		"---\nname: \"\\u0000\"\n---\n", "---\ntools: a, b\n---\n", "---\ntools:\n  - a\n  - [b]\n---\n", "---\n? complex\n: key\n---\n", "---\n!!binary x: y\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data)
		if err != nil {
			return
		}
		if !bytes.Contains(data, d.Front) || !bytes.HasSuffix(data, d.Body) {
			t.Fatalf("parts are not the input's: front %q body %q", d.Front, d.Body)
		}
		if !d.HasFront && !bytes.Equal(bytes.TrimPrefix(data, bom), d.Body) {
			t.Fatalf("without frontmatter the body is not the whole input")
		}
		if !bytes.Equal(data[d.BodyOffset:], d.Body) {
			t.Fatalf("the body is not the input from byte %d", d.BodyOffset)
		}
		var m meta
		err = d.Decode(&m)
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("multi-line error %q", err)
		}
		if err != nil {
			// A line an error names is one of the frontmatter's, or the
			// closing fence's where it ends too soon.
			for _, l := range lineNumber.FindAllStringSubmatch(err.Error(), -1) {
				if n, _ := strconv.Atoi(l[1]); n < 2 || n >= d.BodyLine {
					t.Fatalf("error %q names line %d; the frontmatter is lines 2 to %d", err, n, d.BodyLine-2)
				}
			}
		}
		var any map[string]any
		_ = d.Decode(&any)
	})
}

// FuzzReadFile: reading a file with a body limit gives what parsing the
// whole file gives, the body cut at the limit (on a rune boundary).
func FuzzReadFile(f *testing.F) {
	f.Add([]byte("---\nname: a\n---\nbody text\n"), uint16(4))
	f.Add([]byte("---\n"+strings.Repeat("k: v\n", 3000)+"---\nb"), uint16(1))
	f.Add([]byte("plain"), uint16(0))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) {
		path := filepath.Join(dir, "f.md")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(path, int(limit))
		want, werr := Parse(data)
		if (err != nil) != (werr != nil) {
			t.Fatalf("ReadFile error %v, Parse error %v", err, werr)
		}
		if err != nil {
			return
		}
		body := want.Body
		truncated := len(body) > int(limit)
		if truncated {
			body = body[:cutRune(body, int(limit))]
		}
		if !bytes.Equal(got.Front, want.Front) || got.HasFront != want.HasFront || !bytes.Equal(got.Body, body) || got.Truncated != truncated || got.BodyLine != want.BodyLine || got.BodyOffset != want.BodyOffset {
			t.Fatalf("ReadFile %+v, want %+v cut to %d", got, want, limit)
		}
	})
}

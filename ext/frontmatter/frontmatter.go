package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
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
	// BodyLine is the 1-based line of the file the body starts on, and
	// BodyOffset its byte offset in the file (fences and a byte order
	// mark before it), so an owner can bound the whole file.
	BodyLine   int
	BodyOffset int
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
	mark := 0
	if bytes.HasPrefix(data, bom) {
		data, mark = data[len(bom):], len(bom)
	}
	first, rest, _ := cutLine(data)
	if !isFence(first, false) {
		return Doc{Body: data, BodyLine: 1, BodyOffset: mark}, nil
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
			return Doc{Front: front, HasFront: true, Body: next, BodyLine: line + 1, BodyOffset: mark + len(data) - len(next)}, nil
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

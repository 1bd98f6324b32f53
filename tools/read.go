package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/quire-sh/quire/internal/editdist"
)

// ReadFile is the read_file tool: a window of numbered lines.
type ReadFile struct{}

var readFileParams = []param{
	{name: "path", typ: "string", desc: "file to read, relative to the working directory or absolute", required: true},
	{name: "offset", typ: "integer", desc: "1-based line number to start at (default 1)", min: 1},
	{name: "limit", typ: "integer", desc: fmt.Sprintf("number of lines to show (default and maximum %d)", readWindowLines), min: 1, max: readWindowLines},
}

type readFileArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

func (ReadFile) Spec() Spec {
	return Spec{
		Name: "read_file",
		Description: fmt.Sprintf("Read a text file. Lines are numbered (number, tab, text). At most %d lines or %d KB are shown per call; "+
			"use offset and limit to page through larger files. Binary files are refused.", readWindowLines, readWindowBytes>>10),
		Schema: schemaOf(readFileParams),
		Kind:   KindRead,
	}
}

func (ReadFile) Plan(env *Env, _ *Overlay, raw json.RawMessage) (Plan, error) {
	var a readFileArgs
	if err := decodeArgs(raw, readFileParams, &a); err != nil {
		return Plan{}, err
	}
	return Plan{Target: env.display(env.abs(a.Path)), Reads: []string{env.reach(a.Path)}, Action: a}, nil
}

func (ReadFile) Run(ctx context.Context, env *Env, call Call) Result {
	a, ok := call.Plan.Action.(readFileArgs)
	if !ok {
		return unplanned("read_file")
	}
	if a.Offset == 0 {
		a.Offset = 1
	}
	if a.Limit == 0 {
		a.Limit = readWindowLines
	}
	path, err := env.readPath(a.Path)
	if err != nil {
		return errorResult("%v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return errorResult("%s", describeOpenError(env, path, err))
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return errorResult("%s is a directory; use list_dir to see its entries", env.display(path))
	}
	br := bufio.NewReaderSize(f, 64<<10)
	sniff, _ := br.Peek(8192)
	if bytes.IndexByte(sniff, 0) >= 0 {
		size := int64(-1)
		if fi, err := f.Stat(); err == nil {
			size = fi.Size()
		}
		return errorResult("%s looks binary (%s, %d bytes); read_file shows text only. Use the shell tool with `file`, `xxd | head` or a converter instead.",
			env.display(path), http.DetectContentType(sniff), size)
	}
	return readWindow(ctx, br, env.display(path), a.Offset, a.Limit)
}

// readWindow renders lines [offset, offset+limit) of r, numbered, within
// the byte budget, and counts the remaining lines for the footer.
func readWindow(ctx context.Context, r *bufio.Reader, name string, offset, limit int) Result {
	var out strings.Builder
	line, shown, last := 0, 0, 0
	stoppedByBytes, invalid, anyClipped := false, false, false
	for {
		if line%4096 == 0 && ctx.Err() != nil {
			return errorResult("read_file cancelled: %v", ctx.Err())
		}
		text, wasClipped, err := readLine(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			return errorResult("reading %s: %v", name, err)
		}
		line++
		if line < offset || shown >= limit || stoppedByBytes {
			continue
		}
		text = strings.TrimSuffix(text, "\r")
		if !utf8.ValidString(text) {
			invalid = true
			text = strings.ToValidUTF8(text, "\uFFFD")
		}
		entry := fmt.Sprintf("%6d\t%s\n", line, text)
		if out.Len()+len(entry) > readWindowBytes {
			stoppedByBytes = true
			continue
		}
		out.WriteString(entry)
		anyClipped = anyClipped || wasClipped
		shown++
		last = line
	}
	switch {
	case line == 0:
		return Result{Output: fmt.Sprintf("(%s is empty)", name)}
	case offset > line:
		return errorResult("offset %d is past the end of %s, which has %d lines", offset, name, line)
	}
	res := Result{Output: out.String(), Truncated: anyClipped}
	if invalid {
		res.Output += "[note: bytes that are not valid UTF-8 are shown as \uFFFD]\n"
	}
	if last < line {
		why := "line limit"
		if stoppedByBytes {
			why = fmt.Sprintf("%d KB window", readWindowBytes>>10)
		}
		res.Output += fmt.Sprintf("[showing lines %d-%d of %d (%s); call read_file with offset=%d to continue]\n", offset, last, line, why, last+1)
		res.Truncated = true
	}
	return res
}

// readLine reads one line without its newline, keeping at most
// maxLineBytes+utf8.UTFMax bytes of it in memory however long it is. A
// longer line comes back clipped, with a note giving its full length.
func readLine(r *bufio.Reader) (text string, clippedLine bool, err error) {
	var buf []byte
	total := 0
	for {
		chunk, err := r.ReadSlice('\n')
		total += len(chunk)
		if room := maxLineBytes + utf8.UTFMax - len(buf); room > 0 {
			buf = append(buf, chunk[:min(room, len(chunk))]...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && total == 0:
			return "", false, io.EOF
		case err != nil && err != io.EOF:
			return "", false, err
		}
		if total > len(buf) {
			if n := len(chunk); n > 0 && chunk[n-1] == '\n' {
				total--
			}
			return clipped(string(buf), total), true, nil
		}
		return strings.TrimSuffix(string(buf), "\n"), false, nil
	}
}

// describeOpenError turns an open failure into advice the model can use.
func describeOpenError(env *Env, path string, err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		msg := fmt.Sprintf("%s does not exist", env.display(path))
		if near := similarNames(path); len(near) > 0 {
			msg += "; similar names in " + env.display(filepath.Dir(path)) + ": " + strings.Join(near, ", ")
		}
		return msg
	case errors.Is(err, os.ErrPermission):
		return fmt.Sprintf("permission denied opening %s", env.display(path))
	}
	return err.Error()
}

// similarNames lists up to three entries of path's directory whose names
// are close to path's base name.
func similarNames(path string) []string {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return nil
	}
	base := strings.ToLower(filepath.Base(path))
	var out []string
	for _, e := range entries {
		n := e.Name()
		if editdist.Levenshtein(strings.ToLower(n), base) <= max(2, len(base)/4) || strings.Contains(strings.ToLower(n), base) {
			out = append(out, n)
			if len(out) == 3 {
				break
			}
		}
	}
	return out
}

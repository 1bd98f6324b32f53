package patch

import (
	"fmt"
	"path"
	"strings"
)

// Op is what a hunk does to its file.
type Op int

const (
	Add Op = iota
	Delete
	Update
)

func (o Op) String() string {
	switch o {
	case Add:
		return "add"
	case Delete:
		return "delete"
	}
	return "update"
}

// Hunk is one file operation of a patch.
type Hunk struct {
	Op Op
	// Path is the file as the patch names it, joined to the directory of
	// a "cd DIR &&" the patch was wrapped in, if any.
	Path string
	// Contents is the new file's text (Add), ending with a newline.
	Contents string
	// MoveTo is the new path of an updated file, or "".
	MoveTo string
	// Chunks are the changes of an Update, in file order.
	Chunks []Chunk
}

// Chunk is one located change inside an updated file.
type Chunk struct {
	// Context is the text of an "@@ " line, a line to find before Old;
	// empty when the chunk has no cursor line.
	Context string
	// Old are the lines to replace (context and "-" lines), New their
	// replacement (context and "+" lines). A chunk with neither only moves
	// the cursor to its Context.
	Old, New []string
	// Unchanged[i] is the index in Old of New[i] when that line is
	// context, else -1. Context lines keep the file's own text, so a match
	// that overlooked whitespace or typography changes only the "-" and
	// "+" lines. Nil (a chunk built by hand) writes New as it is.
	Unchanged []int
	// EOF marks a chunk that must match at the end of the file.
	EOF bool
}

const (
	beginMarker  = "*** Begin Patch"
	endMarker    = "*** End Patch"
	addPrefix    = "*** Add File:"
	deletePrefix = "*** Delete File:"
	updatePrefix = "*** Update File:"
	movePrefix   = "*** Move to:"
	eofMarker    = "*** End of File"
)

// ParseError reports a malformed patch, with the 1-based line it was
// found on (0 when it concerns the whole patch).
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return "invalid patch: " + e.Msg
	}
	return fmt.Sprintf("invalid patch, line %d: %s", e.Line, e.Msg)
}

// Parse reads a patch in the apply_patch grammar:
//
//	Patch  := "*** Begin Patch" { FileOp } "*** End Patch"
//	FileOp := "*** Add File: " path { "+" line }
//	        | "*** Delete File: " path
//	        | "*** Update File: " path [ "*** Move to: " path ] { Chunk }
//	Chunk  := [ "@@" [ " " context ] ] { (" " | "-" | "+") line } [ "*** End of File" ]
//
// It is as lenient as the reference implementation models were trained
// against, and a little more where the intent is plain: "\r\n" line ends;
// blank lines around the envelope, between operations and before or
// between chunks; marker lines with surrounding whitespace; a shell
// heredoc ("apply_patch <<'EOF'" … "EOF", optionally after "cd DIR &&",
// whose DIR then prefixes every path) or a Markdown code fence around the
// patch; a bare empty line inside a chunk standing for an empty context
// line, and one inside an added file for an empty line; "@@" followed by
// only whitespace, or by a unified diff's "-a,b +c,d @@" position; several
// "@@" lines in a row to narrow the search down. Anything else outside the
// grammar is an error naming the line.
func Parse(text string) ([]Hunk, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	first, last := 0, len(lines)-1
	trim := func() {
		for first <= last && blank(lines[first]) {
			first++
		}
		for last >= first && blank(lines[last]) {
			last--
		}
	}
	trim()
	if first > last {
		return nil, &ParseError{0, "the patch is empty; it must start with '" + beginMarker + "' and end with '" + endMarker + "'"}
	}
	dir := ""
	for { // a fence around a heredoc, or the other way round
		f, l, d, ok := unwrap(lines, first, last)
		if !ok {
			break
		}
		first, last = f, l
		if d != "" {
			dir = path.Join(dir, d)
		}
		trim()
	}
	if first > last || strings.TrimSpace(lines[first]) != beginMarker {
		return nil, &ParseError{0, "the first line of the patch must be '" + beginMarker + "'"}
	}
	if last == first || strings.TrimSpace(lines[last]) != endMarker {
		return nil, &ParseError{0, "the last line of the patch must be '" + endMarker + "'"}
	}
	p := parser{lines: lines[:last], i: first + 1}
	var hunks []Hunk
	for {
		p.skipBlank()
		if p.done() {
			break
		}
		h, err := p.hunk()
		if err != nil {
			return nil, err
		}
		if dir != "" {
			h.Path = inDir(dir, h.Path)
			if h.MoveTo != "" {
				h.MoveTo = inDir(dir, h.MoveTo)
			}
		}
		hunks = append(hunks, h)
	}
	if len(hunks) == 0 {
		return nil, &ParseError{0, "the patch contains no file operations; add '" + addPrefix + " <path>', '" + deletePrefix + " <path>' or '" + updatePrefix + " <path>' sections"}
	}
	return hunks, nil
}

// blank reports a line of nothing but whitespace.
func blank(line string) bool { return strings.TrimSpace(line) == "" }

// inDir resolves a patch path against the directory of a "cd DIR &&".
func inDir(dir, p string) string {
	if path.IsAbs(p) {
		return p
	}
	return path.Join(dir, p)
}

type parser struct {
	lines []string // up to, not including, the end marker
	i     int
}

func (p *parser) done() bool { return p.i >= len(p.lines) }

func (p *parser) skipBlank() {
	for !p.done() && blank(p.lines[p.i]) {
		p.i++
	}
}

func (p *parser) errorf(format string, args ...any) error {
	return &ParseError{p.i + 1, fmt.Sprintf(format, args...)}
}

// header recognises a file operation's first line, surrounding whitespace
// allowed, returning its prefix and path.
func header(line string) (prefix, path string, ok bool) {
	t := strings.TrimSpace(line)
	for _, prefix := range []string{addPrefix, deletePrefix, updatePrefix} {
		if rest, ok := strings.CutPrefix(t, prefix); ok {
			return prefix, strings.TrimSpace(rest), true
		}
	}
	return "", "", false
}

// isMarker reports a line that ends a chunk or a file operation: a file
// operation's header or the end-of-file marker, with or without
// surrounding whitespace, or any line starting with "***".
func isMarker(line string) bool {
	if _, _, ok := header(line); ok {
		return true
	}
	return strings.TrimSpace(line) == eofMarker || strings.HasPrefix(line, "***")
}

func (p *parser) hunk() (Hunk, error) {
	prefix, name, ok := header(p.lines[p.i])
	if !ok {
		return Hunk{}, p.errorf("%q is not a valid hunk header; use '%s <path>', '%s <path>' or '%s <path>'",
			p.lines[p.i], addPrefix, deletePrefix, updatePrefix)
	}
	if name == "" {
		return Hunk{}, p.errorf("missing file path after %q", prefix)
	}
	p.i++
	switch prefix {
	case addPrefix:
		return p.add(name)
	case deletePrefix:
		return Hunk{Op: Delete, Path: name}, nil
	}
	return p.update(name)
}

func (p *parser) add(name string) (Hunk, error) {
	var b strings.Builder
	for !p.done() {
		line := p.lines[p.i]
		if blank(line) {
			// An empty line of the file whose '+' was dropped, unless only
			// blank lines separate it from the next operation.
			j := p.i
			for j < len(p.lines) && blank(p.lines[j]) {
				j++
			}
			if j == len(p.lines) || isMarker(p.lines[j]) {
				p.i = j
				break
			}
			for ; p.i < j; p.i++ {
				b.WriteByte('\n')
			}
			continue
		}
		if isMarker(line) {
			break
		}
		content, ok := strings.CutPrefix(line, "+")
		if !ok {
			return Hunk{}, p.errorf("every line of an added file must start with '+', got %q", line)
		}
		b.WriteString(content)
		b.WriteByte('\n')
		p.i++
	}
	return Hunk{Op: Add, Path: name, Contents: b.String()}, nil
}

func (p *parser) update(name string) (Hunk, error) {
	start := p.i // the line after the header
	h := Hunk{Op: Update, Path: name}
	p.skipBlank()
	if !p.done() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(p.lines[p.i]), movePrefix); ok {
			if h.MoveTo = strings.TrimSpace(rest); h.MoveTo == "" {
				return Hunk{}, p.errorf("missing file path after %q", movePrefix)
			}
			p.i++
		}
	}
	var cur *Chunk
	ended := false // the last chunk ended with the end-of-file marker
	for !p.done() {
		line := p.lines[p.i]
		switch {
		case (cur == nil || ended) && blank(line):
			// Before the first chunk and after an end-of-file marker,
			// blank lines only separate.
			p.i++
			continue
		case strings.TrimSpace(line) == eofMarker:
			if cur == nil || ended || len(cur.Old)+len(cur.New) == 0 {
				return Hunk{}, p.errorf("'%s' must follow the lines of a change", eofMarker)
			}
			cur.EOF, ended = true, true
			p.i++
			continue
		case isMarker(line):
			return p.endUpdate(h, start)
		case strings.HasPrefix(line, "@@"):
			if cur != nil {
				trimBlankChunk(cur)
			}
			h.Chunks = append(h.Chunks, Chunk{Context: contextOf(line)})
			cur, ended = &h.Chunks[len(h.Chunks)-1], false
			p.i++
			continue
		}
		if ended {
			return Hunk{}, p.errorf("a change after '%s' needs its own '@@' line", eofMarker)
		}
		if cur == nil {
			// The first change may omit its "@@" line.
			h.Chunks = append(h.Chunks, Chunk{})
			cur = &h.Chunks[len(h.Chunks)-1]
		}
		switch {
		case line == "", blank(line):
			// Models often drop the space of an empty context line.
			cur.context("")
		case line[0] == ' ':
			cur.context(line[1:])
		case line[0] == '-':
			cur.Old = append(cur.Old, line[1:])
		case line[0] == '+':
			cur.New = append(cur.New, line[1:])
			cur.Unchanged = append(cur.Unchanged, -1)
		default:
			return Hunk{}, p.errorf("unexpected line %q in the update of %s; change lines start with ' ', '+' or '-', and '@@' starts a new change", line, name)
		}
		p.i++
	}
	return p.endUpdate(h, start)
}

func (p *parser) endUpdate(h Hunk, start int) (Hunk, error) {
	if n := len(h.Chunks); n > 0 {
		trimBlankChunk(&h.Chunks[n-1])
	}
	if h.MoveTo != "" {
		return h, nil // a rename, perhaps with changes
	}
	for _, c := range h.Chunks {
		if len(c.Old)+len(c.New) > 0 {
			return h, nil
		}
	}
	return Hunk{}, &ParseError{start, fmt.Sprintf("the update of %s contains no changes; add lines starting with '+', '-' or ' ' after its header", h.Path)}
}

// context adds a context line: one to find and keep.
func (c *Chunk) context(line string) {
	c.Unchanged = append(c.Unchanged, len(c.Old))
	c.Old = append(c.Old, line)
	c.New = append(c.New, line)
}

// trimBlankChunk empties a chunk made only of blank lines: they separate
// its "@@" line from the next one rather than ask for an empty line there.
func trimBlankChunk(c *Chunk) {
	if c.EOF {
		return
	}
	for _, l := range c.Old {
		if !blank(l) {
			return
		}
	}
	for _, l := range c.New {
		if !blank(l) {
			return
		}
	}
	c.Old, c.New, c.Unchanged = nil, nil, nil
}

// contextOf is the search text of an "@@" line: what follows "@@ ", none
// for whitespace only, and for a unified diff's "@@ -a,b +c,d @@ text"
// the text after the position.
func contextOf(line string) string {
	ctx := strings.TrimPrefix(line, "@@")
	if blank(ctx) {
		return ""
	}
	if rest, ok := unifiedPosition(ctx); ok {
		if blank(rest) {
			return ""
		}
		ctx = rest
	}
	return strings.TrimPrefix(ctx, " ")
}

// unifiedPosition recognises " -a,b +c,d @@" at the start of s and returns
// what follows it.
func unifiedPosition(s string) (string, bool) {
	f := strings.Fields(s)
	if len(f) < 3 || !isRange(f[0], '-') || !isRange(f[1], '+') || f[2] != "@@" {
		return "", false
	}
	_, rest, _ := strings.Cut(s, "@@")
	return rest, true
}

func isRange(s string, sign byte) bool {
	if len(s) < 2 || s[0] != sign {
		return false
	}
	for _, r := range s[1:] {
		if (r < '0' || r > '9') && r != ',' {
			return false
		}
	}
	return true
}

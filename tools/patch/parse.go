package patch

import (
	"fmt"
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
	Op   Op
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
	// Context is the text after "@@ ", a line to find before Old; empty
	// when the chunk has no cursor line.
	Context string
	// Old are the lines to replace (context and "-" lines), New their
	// replacement (context and "+" lines).
	Old, New []string
	// EOF marks a chunk that must match at the end of the file.
	EOF bool
}

const (
	beginMarker  = "*** Begin Patch"
	endMarker    = "*** End Patch"
	addPrefix    = "*** Add File: "
	deletePrefix = "*** Delete File: "
	updatePrefix = "*** Update File: "
	movePrefix   = "*** Move to: "
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

// Parse reads a patch. It accepts "\r\n" line ends and blank lines around
// the envelope; anything else outside the grammar is an error naming the
// line.
func Parse(text string) ([]Hunk, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	first, last := 0, len(lines)-1
	for first <= last && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	for last >= first && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	first, last = stripHeredoc(lines, first, last)
	if first > last || strings.TrimSpace(lines[first]) != beginMarker {
		return nil, &ParseError{0, "the first line of the patch must be '" + beginMarker + "'"}
	}
	if last == first || strings.TrimSpace(lines[last]) != endMarker {
		return nil, &ParseError{0, "the last line of the patch must be '" + endMarker + "'"}
	}
	p := parser{lines: lines[:last], i: first + 1}
	var hunks []Hunk
	for p.i < len(p.lines) {
		h, err := p.hunk()
		if err != nil {
			return nil, err
		}
		hunks = append(hunks, h)
	}
	if len(hunks) == 0 {
		return nil, &ParseError{0, "the patch contains no file operations"}
	}
	return hunks, nil
}

// stripHeredoc drops a shell heredoc wrapper around the patch
// ("<<'EOF'" … "EOF"), which models used to running apply_patch as a
// command often include.
func stripHeredoc(lines []string, first, last int) (int, int) {
	if first >= last {
		return first, last
	}
	head := strings.TrimSpace(lines[first])
	tag, ok := strings.CutPrefix(head, "<<")
	if !ok {
		return first, last
	}
	tag = strings.Trim(strings.TrimPrefix(tag, "-"), `'" `)
	if tag == "" || strings.TrimSpace(lines[last]) != tag {
		return first, last
	}
	return first + 1, last - 1
}

type parser struct {
	lines []string
	i     int
}

func (p *parser) errorf(format string, args ...any) error {
	return &ParseError{p.i + 1, fmt.Sprintf(format, args...)}
}

func (p *parser) hunk() (Hunk, error) {
	line := p.lines[p.i]
	switch {
	case strings.HasPrefix(line, addPrefix):
		path, err := p.path(line, addPrefix)
		if err != nil {
			return Hunk{}, err
		}
		p.i++
		var b strings.Builder
		for p.i < len(p.lines) && !strings.HasPrefix(p.lines[p.i], "***") {
			l := p.lines[p.i]
			if !strings.HasPrefix(l, "+") {
				return Hunk{}, p.errorf("every line of an added file must start with '+', got %q", l)
			}
			b.WriteString(l[1:])
			b.WriteByte('\n')
			p.i++
		}
		return Hunk{Op: Add, Path: path, Contents: b.String()}, nil
	case strings.HasPrefix(line, deletePrefix):
		path, err := p.path(line, deletePrefix)
		if err != nil {
			return Hunk{}, err
		}
		p.i++
		return Hunk{Op: Delete, Path: path}, nil
	case strings.HasPrefix(line, updatePrefix):
		return p.update()
	}
	return Hunk{}, p.errorf("%q is not a valid hunk header; use '%s<path>', '%s<path>' or '%s<path>'",
		line, addPrefix, deletePrefix, updatePrefix)
}

func (p *parser) path(line, prefix string) (string, error) {
	path := strings.TrimSpace(strings.TrimPrefix(line, prefix))
	if path == "" {
		return "", p.errorf("missing file path after %q", strings.TrimSpace(prefix))
	}
	return path, nil
}

func (p *parser) update() (Hunk, error) {
	start := p.i
	path, err := p.path(p.lines[p.i], updatePrefix)
	if err != nil {
		return Hunk{}, err
	}
	h := Hunk{Op: Update, Path: path}
	p.i++
	if p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], movePrefix) {
		if h.MoveTo, err = p.path(p.lines[p.i], movePrefix); err != nil {
			return Hunk{}, err
		}
		p.i++
	}
	var cur *Chunk
	lastWasChange := false // the current chunk has a '+', '-' or ' ' line
	for p.i < len(p.lines) {
		line := p.lines[p.i]
		switch {
		case line == eofMarker:
			if cur == nil || !lastWasChange {
				return Hunk{}, p.errorf("'%s' must follow the lines of a change", eofMarker)
			}
			cur.EOF = true
			cur = nil
			p.i++
			continue
		case strings.HasPrefix(line, "***"):
			if len(h.Chunks) == 0 && h.MoveTo == "" {
				return Hunk{}, &ParseError{start + 1, fmt.Sprintf("the update of %s contains no changes", path)}
			}
			return h, nil
		case line == "@@" || strings.HasPrefix(line, "@@ "):
			h.Chunks = append(h.Chunks, Chunk{Context: strings.TrimPrefix(strings.TrimPrefix(line, "@@"), " ")})
			cur = &h.Chunks[len(h.Chunks)-1]
			lastWasChange = false
			p.i++
			continue
		}
		if cur == nil {
			// Only the first change may omit its "@@" line; cur is nil
			// later only after an End of File marker.
			if len(h.Chunks) > 0 {
				return Hunk{}, p.errorf("a change after '%s' needs its own '@@' line", eofMarker)
			}
			h.Chunks = append(h.Chunks, Chunk{})
			cur = &h.Chunks[len(h.Chunks)-1]
		}
		switch {
		case line == "":
			// Models often drop the space of an empty context line.
			cur.Old = append(cur.Old, "")
			cur.New = append(cur.New, "")
		case line[0] == ' ':
			cur.Old = append(cur.Old, line[1:])
			cur.New = append(cur.New, line[1:])
		case line[0] == '-':
			cur.Old = append(cur.Old, line[1:])
		case line[0] == '+':
			cur.New = append(cur.New, line[1:])
		default:
			return Hunk{}, p.errorf("unexpected line %q in the update of %s; change lines start with ' ', '+' or '-', and '@@' starts a new change", line, path)
		}
		lastWasChange = true
		p.i++
	}
	if len(h.Chunks) == 0 && h.MoveTo == "" {
		return Hunk{}, &ParseError{start + 1, fmt.Sprintf("the update of %s contains no changes", path)}
	}
	return h, nil
}

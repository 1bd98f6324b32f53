package llm

import (
	"bytes"
	"errors"
	"io"
)

// MaxEventSize bounds one server-sent event: the bytes of its lines plus
// one for each line end between them (the blank line that ends it does not
// count). A server that
// sends more without a blank line is broken; the reader reports it and
// skips the rest of that event rather than growing without limit.
const MaxEventSize = 1 << 20

// ErrEventTooLarge is returned by sseReader.Next when an event exceeds
// MaxEventSize. The rest of that event is skipped; the next event can
// still be read.
var ErrEventTooLarge = errors.New("server-sent event larger than 1 MiB")

// sseMinRead is the least free space handed to the underlying Read, and
// the buffer's first size.
const sseMinRead = 32 << 10

// utf8BOM is skipped once at the start of a stream, as the event-stream
// format says.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// sseReader splits a text/event-stream into events, as the WHATWG
// event-stream format describes: lines end in "\r\n", "\n" or "\r"; a
// blank line ends an event; "data" lines are joined with "\n"; lines
// starting with ':' are comments. It works on raw bytes and decodes
// nothing, so a multi-byte character split across reads is never mangled
// (the delimiters are ASCII and cannot occur inside one).
//
// Every byte is looked at a bounded number of times whatever the sizes of
// the underlying reads: a line still missing its end stays in the buffer,
// new bytes are appended after it, and only they are searched for the line
// end. Only the current line and the current event's data are held.
type sseReader struct {
	r   io.Reader
	max int

	buf  []byte // buf[off:] is the start of a line not yet ended
	off  int
	scan int // buf[off:scan] holds no line end

	started bool  // the byte-order mark question is settled
	skipLF  bool  // the last line ended in "\r": a "\n" right after belongs to it
	eof     bool  // the underlying reader is exhausted
	err     error // a read error, reported once the buffered events are out

	// The event being assembled.
	data     []byte
	hasData  bool
	typ      []byte // its "event" field
	size     int    // its bytes so far, as MaxEventSize counts them
	lines    int    // its lines so far
	skipping bool   // it outgrew max: drop lines up to the blank line
	dropLine bool   // the start of the current line was dropped with it

	lastType string // the event type of the event Next last returned

	// beforeRead, when set, runs before every read of the underlying
	// reader; an error it returns is Next's.
	beforeRead func() error
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: r, max: MaxEventSize}
}

// Next returns the data of the next event that has any ("data" lines
// joined by "\n"). Comments and events without data are skipped. At the
// end of the stream it returns io.EOF; a final event not followed by a
// blank line is still returned first. The slice is the caller's to keep.
func (s *sseReader) Next() ([]byte, error) {
	for {
		if !s.started && !s.skipBOM() {
			if err := s.fill(); err != nil {
				return nil, err
			}
			continue
		}
		for {
			line, ok := s.nextLine()
			if !ok {
				break
			}
			if data, ok, err := s.take(line); ok || err != nil {
				return data, err
			}
		}
		switch partial := len(s.buf) - s.off; {
		case partial == 0:
		case s.skipping:
			// The rest of an oversized event is not kept, not even the
			// start of a line.
			s.dropLine = true
			s.off, s.scan = len(s.buf), len(s.buf)
		case s.size+s.sep()+partial > s.max:
			s.overflow()
			return nil, ErrEventTooLarge
		}
		if s.eof {
			return s.finish()
		}
		if err := s.fill(); err != nil {
			return nil, err
		}
	}
}

// Buffered reports whether bytes read from the stream wait in the reader
// (the start of an event, or whole events Next has not returned yet).
func (s *sseReader) Buffered() bool { return s.off < len(s.buf) }

// EventType is the "event" field of the event Next last returned, or ""
// when it had none (the format's default type, "message", is left to the
// caller).
func (s *sseReader) EventType() string { return s.lastType }

// skipBOM drops a byte-order mark at the start of the stream once enough
// bytes are there to tell, reporting whether the question is settled.
func (s *sseReader) skipBOM() bool {
	b := s.buf[s.off:]
	if len(b) < len(utf8BOM) && !s.eof && bytes.HasPrefix(utf8BOM, b) {
		return false
	}
	if bytes.HasPrefix(b, utf8BOM) {
		s.off += len(utf8BOM)
		s.scan = s.off
	}
	s.started = true
	return true
}

// nextLine returns the next complete line, without its end, or false when
// the buffer holds none. It searches only bytes not searched before.
func (s *sseReader) nextLine() ([]byte, bool) {
	if s.skipLF {
		if s.off == len(s.buf) {
			if !s.eof {
				return nil, false
			}
		} else if s.buf[s.off] == '\n' {
			s.off++
		}
		s.skipLF = false
		s.scan = max(s.scan, s.off)
	}
	i := lineEnd(s.buf[s.scan:])
	if i < 0 {
		s.scan = len(s.buf)
		return nil, false
	}
	end := s.scan + i
	line := s.buf[s.off:end]
	s.skipLF = s.buf[end] == '\r'
	s.off, s.scan = end+1, end+1
	return line, true
}

// lineEnd is the index of the first '\n' or '\r' in b, or -1.
func lineEnd(b []byte) int {
	lf := bytes.IndexByte(b, '\n')
	head := b
	if lf >= 0 {
		head = b[:lf]
	}
	if cr := bytes.IndexByte(head, '\r'); cr >= 0 {
		return cr
	}
	return lf
}

// take interprets one line of the current event; on the blank line that
// ends an event with data it returns that data.
func (s *sseReader) take(line []byte) ([]byte, bool, error) {
	if s.dropLine {
		s.dropLine = false
		return nil, false, nil
	}
	if len(line) == 0 {
		if s.skipping || !s.hasData {
			s.reset()
			return nil, false, nil
		}
		return s.dispatch(), true, nil
	}
	if s.skipping {
		return nil, false, nil
	}
	s.size += s.sep() + len(line)
	s.lines++
	if s.size > s.max {
		s.skipping = true
		s.data, s.hasData = nil, false
		return nil, false, ErrEventTooLarge
	}
	field, value, _ := bytes.Cut(line, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(field) {
	case "data":
		if s.hasData {
			s.data = append(s.data, '\n')
		}
		s.data = append(s.data, value...)
		s.hasData = true
	case "event":
		s.typ = append(s.typ[:0], value...)
	}
	return nil, false, nil
}

// sep is the line end counted before the next line of the event.
func (s *sseReader) sep() int {
	if s.lines > 0 {
		return 1
	}
	return 0
}

// overflow starts skipping the current event, whose unfinished line has
// made it too large; the rest of that line is dropped when it arrives.
func (s *sseReader) overflow() {
	s.skipping, s.dropLine = true, true
	s.data, s.hasData = nil, false
	s.off, s.scan = len(s.buf), len(s.buf)
}

// dispatch hands out the current event's data and starts the next event.
// The data was gathered in a slice of its own, which is the caller's now:
// an event of one data line costs one allocation and one copy.
func (s *sseReader) dispatch() []byte {
	out := s.data
	if string(s.typ) != s.lastType {
		s.lastType = string(s.typ)
	}
	s.reset()
	return out
}

func (s *sseReader) reset() {
	s.data, s.hasData, s.typ = nil, false, s.typ[:0]
	s.size, s.lines, s.skipping = 0, 0, false
}

// finish ends the stream: an unended last line still counts, and an event
// with data not followed by a blank line is still returned.
func (s *sseReader) finish() ([]byte, error) {
	if s.off < len(s.buf) {
		line := s.buf[s.off:]
		s.off, s.scan = len(s.buf), len(s.buf)
		if _, _, err := s.take(line); err != nil {
			return nil, err
		}
	}
	if s.hasData && !s.skipping {
		return s.dispatch(), nil
	}
	s.reset()
	return nil, io.EOF
}

// fill reads until the buffer holds a line end, the stream ends or fails,
// or the unended line outgrows the event bound. New bytes go after the
// unended line and only they are searched, so however small the reads, a
// byte costs O(1): the buffer grows by doubling, and the unended line is
// moved to the front at most once.
func (s *sseReader) fill() error {
	if s.err != nil {
		err := s.err
		s.err = nil
		return err
	}
	for empty := 0; ; {
		if cap(s.buf)-len(s.buf) < sseMinRead {
			s.makeRoom()
		}
		if s.beforeRead != nil {
			if err := s.beforeRead(); err != nil {
				return err
			}
		}
		start := len(s.buf)
		n, err := s.r.Read(s.buf[start:cap(s.buf)])
		s.buf = s.buf[:start+n]
		switch {
		case err == io.EOF:
			s.eof = true
			return nil
		case err != nil && n > 0:
			s.err = err // the bytes read come first
			return nil
		case err != nil:
			return err
		case n == 0:
			// A reader that keeps returning nothing is broken; as bufio
			// does, give up rather than spin.
			if empty++; empty == 100 {
				return io.ErrNoProgress
			}
			continue
		case !s.started:
			return nil
		}
		empty = 0
		if n > 16 {
			if bytes.IndexByte(s.buf[start:], '\n') >= 0 || bytes.IndexByte(s.buf[start:], '\r') >= 0 {
				return nil
			}
		} else {
			// A call into IndexByte costs more than looking at a few bytes.
			for _, c := range s.buf[start:] {
				if c == '\n' || c == '\r' {
					return nil
				}
			}
		}
		// No line end: the first new byte was not the "\n" of a "\r\n".
		s.skipLF = false
		s.scan = len(s.buf)
		if s.skipping {
			s.dropLine = true
			s.buf, s.off, s.scan = s.buf[:0], 0, 0
			continue
		}
		if s.size+s.sep()+len(s.buf)-s.off > s.max {
			return nil
		}
	}
}

// makeRoom makes room for a read of sseMinRead bytes, first by moving the
// unended line to the front, then by doubling the buffer.
func (s *sseReader) makeRoom() {
	if s.off > 0 {
		n := copy(s.buf, s.buf[s.off:])
		s.buf, s.scan, s.off = s.buf[:n], s.scan-s.off, 0
		if cap(s.buf)-len(s.buf) >= sseMinRead {
			return
		}
	}
	grown := make([]byte, len(s.buf), max(2*cap(s.buf), len(s.buf)+sseMinRead))
	copy(grown, s.buf)
	s.buf = grown
}

package llm

import (
	"bytes"
	"errors"
	"io"
)

// MaxEventSize bounds one server-sent event. A server that sends more
// without a blank line is broken; the reader reports it and drops the
// buffered bytes rather than growing without limit.
const MaxEventSize = 1 << 20

// ErrEventTooLarge is returned by sseReader.Next when an event exceeds
// MaxEventSize. The buffer has been cleared; the next event can still be
// read.
var ErrEventTooLarge = errors.New("server-sent event larger than 1 MiB")

// sseReader splits a text/event-stream into events. It accumulates raw
// bytes and decodes nothing until an event is complete, so a multi-byte
// character split across reads is never mangled (the delimiters are
// ASCII and cannot occur inside one).
type sseReader struct {
	r   io.Reader
	buf []byte
	max int
	eof bool
	tmp []byte
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: r, max: MaxEventSize, tmp: make([]byte, 32<<10)}
}

// Next returns the data of the next event that has any ("data:" lines
// joined by "\n"). Comments and the event, id and retry fields are
// skipped. At the end of the stream it returns io.EOF; a final event
// not followed by a blank line is still returned first.
func (s *sseReader) Next() ([]byte, error) {
	for {
		if end, skip := eventEnd(s.buf, s.eof); end >= 0 {
			raw := s.buf[:end]
			s.buf = s.buf[end+skip:]
			if end > s.max {
				return nil, ErrEventTooLarge
			}
			if data, ok := eventData(raw); ok {
				return data, nil
			}
			continue
		}
		if len(s.buf) > s.max {
			s.buf = s.buf[:0]
			return nil, ErrEventTooLarge
		}
		if s.eof {
			if len(bytes.TrimSpace(s.buf)) == 0 {
				return nil, io.EOF
			}
			raw := s.buf
			s.buf = nil
			if data, ok := eventData(raw); ok {
				return data, nil
			}
			return nil, io.EOF
		}
		n, err := s.r.Read(s.tmp)
		s.buf = append(s.buf, s.tmp[:n]...)
		if err == io.EOF {
			s.eof = true
		} else if err != nil {
			return nil, err
		}
	}
}

// eventEnd finds the first blank line, returning where the event ends and
// how many delimiter bytes follow it, or -1. Lines end in "\n", "\r\n" or
// "\r"; a "\r" at the very end is undecided until more bytes (or the end
// of the stream) arrive.
func eventEnd(b []byte, eof bool) (end, skip int) {
	for i := 0; i < len(b); i++ {
		l := terminator(b[i:], eof)
		if l == 0 {
			continue
		}
		if l < 0 {
			return -1, 0
		}
		m := terminator(b[i+l:], eof)
		if m < 0 {
			return -1, 0
		}
		if m > 0 {
			return i, l + m
		}
		i += l - 1
	}
	return -1, 0
}

// terminator reports the length of the line terminator at the start of b:
// 0 for none, -1 when it cannot be told yet.
func terminator(b []byte, eof bool) int {
	if len(b) == 0 {
		if eof {
			return 0
		}
		return -1
	}
	switch b[0] {
	case '\n':
		return 1
	case '\r':
		if len(b) == 1 && !eof {
			return -1
		}
		if len(b) > 1 && b[1] == '\n' {
			return 2
		}
		return 1
	}
	return 0
}

// eventData extracts the data field of one raw event.
func eventData(raw []byte) ([]byte, bool) {
	var data []byte
	found := false
	for len(raw) > 0 {
		line := raw
		raw = nil
		if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
			rest := line[i+1:]
			if line[i] == '\r' && len(rest) > 0 && rest[0] == '\n' {
				rest = rest[1:]
			}
			line, raw = line[:i], rest
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if string(field) != "data" {
			continue
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if found {
			data = append(data, '\n')
		}
		data = append(data, value...)
		found = true
	}
	return data, found
}

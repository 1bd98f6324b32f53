package llm

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// sseEvent is what the reader yields for one event, as a test sees it.
type sseEvent struct {
	typ, data string
}

func (e sseEvent) String() string { return fmt.Sprintf("%s:%q", e.typ, e.data) }

func readAll(t testing.TB, r io.Reader) ([]string, error) {
	t.Helper()
	evs, err := readEvents(r)
	var out []string
	for _, e := range evs {
		out = append(out, e.data)
	}
	return out, err
}

// readEvents reads to the end, carrying on after ErrEventTooLarge, and
// returns the events and the first error.
func readEvents(r io.Reader) ([]sseEvent, error) {
	s := newSSEReader(r)
	var out []sseEvent
	var first error
	for {
		d, err := s.Next()
		if err == io.EOF {
			return out, first
		}
		if errors.Is(err, ErrEventTooLarge) {
			if first == nil {
				first = err
			}
			out = append(out, sseEvent{"!", "too large"})
			continue
		}
		if err != nil {
			return out, err
		}
		out = append(out, sseEvent{s.EventType(), string(d)})
	}
}

// chunkReader returns at most n bytes per Read.
type chunkReader struct {
	b []byte
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), c.n, len(c.b))
	copy(p, c.b[:k])
	c.b = c.b[k:]
	return k, nil
}

// readPatterns are the ways a test feeds the same bytes to the reader.
var readPatterns = []struct {
	name string
	new  func(string) io.Reader
}{
	{"whole", func(s string) io.Reader { return strings.NewReader(s) }},
	{"1-byte", func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }},
	{"2-byte", func(s string) io.Reader { return &chunkReader{[]byte(s), 2} }},
	{"7-byte", func(s string) io.Reader { return &chunkReader{[]byte(s), 7} }},
	{"data-err-eof", func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) }},
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"lf", "data: a\n\ndata: b\n\n", []string{"a", "b"}},
		{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"a", "b"}},
		{"cr", "data: a\r\rdata: b\r\r", []string{"a", "b"}},
		{"mixed line ends", "data: a\r\ndata: b\rdata: c\n\r\ndata: d\r\n\n", []string{"a\nb\nc", "d"}},
		{"multi-line data", "data: a\ndata: b\n\n", []string{"a\nb"}},
		{"comments and fields", ": keepalive\n\nevent: x\nid: 3\ndata: a\nretry: 10\n\n", []string{"a"}},
		{"no space after colon", "data:a\n\n", []string{"a"}},
		{"only one space stripped", "data:  a \n\n", []string{" a "}},
		{"field without colon", "data\n\ndata\ndata\n\n", []string{"", "\n"}},
		{"empty data is an event", "data:\n\n", []string{""}},
		{"field names are exact", "Data: a\ndata : b\n data: c\ndata-x: d\n\n", nil},
		{"colon in value", "data: {\"a\":\"b:c\"}\n\n", []string{`{"a":"b:c"}`}},
		{"event without data", "event: ping\n\ndata: a\n\n", []string{"a"}},
		{"blank lines between events", "\n\n\r\n\rdata: a\n\n\n\n\ndata: b\n\n\n", []string{"a", "b"}},
		{"final event without blank line", "data: a\n\ndata: b", []string{"a", "b"}},
		{"final event ending in one line end", "data: a\r\n", []string{"a"}},
		{"final cr", "data: a\r", []string{"a"}},
		{"comment only", ": hello\n\n: world\n", nil},
		{"byte-order mark", "\xEF\xBB\xBFdata: a\n\n", []string{"a"}},
		{"only one byte-order mark", "\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\ndata: b\n\n", []string{"b"}},
		{"byte-order mark later is data", "data: \xEF\xBB\xBFa\n\n", []string{"\xEF\xBB\xBFa"}},
		{"byte-order mark prefix", "\xEF\xBBdata: a\n\ndata: b\n\n", []string{"b"}},
		{"short stream", "\xEF", nil},
		{"utf-8", "data: {\"text\":\"完成后\"}\n\n", []string{`{"text":"完成后"}`}},
		{"nul and invalid utf-8 pass through", "data: a\x00\xff\n\n", []string{"a\x00\xff"}},
		{"empty", "", nil},
		{"whitespace only", " \t \n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, p := range readPatterns {
				got, err := readAll(t, p.new(tt.in))
				if err != nil {
					t.Fatalf("%s: %v", p.name, err)
				}
				if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
					t.Errorf("%s: got %q, want %q", p.name, got, tt.want)
				}
			}
		})
	}
}

// The event type travels with each event and does not leak into the next.
func TestSSEReaderEventType(t *testing.T) {
	in := "event: message_start\ndata: 1\n\n" +
		"data: 2\n\n" +
		"event: a\nevent: content_block_delta\r\ndata: 3\r\n\r\n" +
		"event: ping\n\n" +
		"event:delta\ndata: 4"
	want := `[message_start:"1" :"2" content_block_delta:"3" delta:"4"]`
	for _, p := range readPatterns {
		got, err := readEvents(p.new(in))
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("%s: got %v, %v; want %s", p.name, got, err, want)
		}
	}
}

// A multi-byte character split across reads survives.
func TestSSEReaderSplitCharacter(t *testing.T) {
	parts := [][]byte{[]byte("data: {\"text\":\"完\xE6\x88"), []byte("\x90后\"}\n\n")}
	r := io.MultiReader(bytes.NewReader(parts[0]), bytes.NewReader(parts[1]))
	got, err := readAll(t, r)
	if err != nil || len(got) != 1 || got[0] != `{"text":"完成后"}` {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestSSEReaderOversizedEvent(t *testing.T) {
	in := "data: " + strings.Repeat("x", MaxEventSize+1) + "\n\ndata: ok\n\n"
	s := newSSEReader(strings.NewReader(in))
	_, err := s.Next()
	if !errors.Is(err, ErrEventTooLarge) {
		t.Fatalf("first Next: %v, want ErrEventTooLarge", err)
	}
	var got []string
	for {
		d, err := s.Next()
		if err != nil {
			break
		}
		got = append(got, string(d))
	}
	if len(got) != 1 || got[0] != "ok" {
		t.Fatalf("events after overflow: %q", got)
	}
}

// The bound is exact, whatever the read sizes: an event of MaxEventSize
// bytes (lines and the line ends between them) passes, one byte more is
// refused once, and nothing of the refused event reaches the caller, not
// even lines after the point where it overflowed.
func TestSSEReaderEventSizeBound(t *testing.T) {
	fits := "data: " + strings.Repeat("a", MaxEventSize-6)
	twoLines := "data: " + strings.Repeat("b", MaxEventSize/2) + "\r\ndata: " + strings.Repeat("c", MaxEventSize/2-15)
	over := "data: " + strings.Repeat("x", MaxEventSize-5)
	tests := []struct {
		name, in string
		want     []string
	}{
		{"exactly the bound", fits + "\n\ndata: ok\n\n", []string{len1(fits), "ok"}},
		{"two lines within the bound", twoLines + "\r\n\r\ndata: ok\n\n", []string{len1(twoLines), "ok"}},
		{"one byte over", over + "\n\ndata: ok\n\n", []string{"!", "ok"}},
		{"over on its last line", ": c\n" + fits + "\ndata: leak\n\ndata: ok\n\n", []string{"!", "ok"}},
		{"lines after the overflow are not data", over + "x\ndata: leak\r\ndata: leak\n\ndata: ok\n\n", []string{"!", "ok"}},
		{"overflow at the end of the stream", "data: ok\n\n" + over, []string{"ok", "!"}},
		{"two oversized events", over + "\n\n" + over + "\n\ndata: ok", []string{"!", "!", "ok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, p := range []string{"whole", "1-byte", "7-byte"} {
				var r io.Reader
				switch p {
				case "whole":
					r = strings.NewReader(tt.in)
				case "1-byte":
					r = iotest.OneByteReader(strings.NewReader(tt.in))
				default:
					r = &chunkReader{[]byte(tt.in), 7}
				}
				evs, err := readEvents(r)
				var got []string
				for _, e := range evs {
					if e.typ == "!" {
						got = append(got, "!")
					} else {
						got = append(got, len1(e.data))
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.want) {
					t.Errorf("%s: got %v, want %v", p, got, tt.want)
				}
				if strings.Contains(tt.name, "over") && !errors.Is(err, ErrEventTooLarge) {
					t.Errorf("%s: err %v", p, err)
				}
			}
		})
	}
}

// len1 shortens long data for comparison: its length and first byte.
func len1(s string) string {
	if len(s) < 16 {
		return s
	}
	if strings.HasPrefix(s, "data: ") {
		s = strings.ReplaceAll(strings.TrimPrefix(s, "data: "), "\r\ndata: ", "\n")
	}
	return fmt.Sprintf("%d×%c", len(s), s[0])
}

// A read error is reported after the events that arrived with it, and
// the reader carries on if the stream does.
func TestSSEReaderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := io.MultiReader(&errAfter{b: []byte("data: a\n\ndata: b"), err: boom}, strings.NewReader("\n\n"))
	s := newSSEReader(r)
	d, err := s.Next()
	if string(d) != "a" || err != nil {
		t.Fatalf("first: %q %v", d, err)
	}
	if _, err := s.Next(); err != boom {
		t.Fatalf("second: %v, want the read error", err)
	}
	if d, err := s.Next(); string(d) != "b" || err != nil {
		t.Fatalf("third: %q %v", d, err)
	}
}

// A reader that returns nothing, forever, is reported rather than spun on.
// Empty reads among others are fine.
func TestSSEReaderNoProgress(t *testing.T) {
	if _, err := newSSEReader(&stutter{every: 0}).Next(); err != io.ErrNoProgress {
		t.Fatalf("err = %v, want io.ErrNoProgress", err)
	}
	d, err := newSSEReader(&stutter{b: []byte("data: " + strings.Repeat("x", 300) + "\n\n"), every: 99}).Next()
	if err != nil || len(d) != 300 {
		t.Fatalf("got %d bytes, %v", len(d), err)
	}
}

// stutter returns nothing, except one byte of b on every every-th call.
type stutter struct {
	b     []byte
	every int
	n     int
}

func (s *stutter) Read(p []byte) (int, error) {
	s.n++
	if s.every == 0 || s.n%s.every != 0 {
		return 0, nil
	}
	if len(s.b) == 0 {
		return 0, io.EOF
	}
	p[0], s.b = s.b[0], s.b[1:]
	return 1, nil
}

// errAfter returns its bytes and err from the same Read, then io.EOF.
type errAfter struct {
	b   []byte
	err error
}

func (e *errAfter) Read(p []byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	n := copy(p, e.b)
	err := e.err
	e.b, e.err = e.b[n:], nil
	return n, err
}

// refEvents is the event-stream format read the plain way: split the
// whole input into lines, then walk them. The reader must agree with it
// for any input within the size bound, however it is delivered.
func refEvents(in []byte) []sseEvent {
	in = bytes.TrimPrefix(in, utf8BOM)
	var lines [][]byte
	for len(in) > 0 {
		i := bytes.IndexAny(in, "\r\n")
		if i < 0 {
			lines = append(lines, in)
			break
		}
		lines = append(lines, in[:i])
		if in[i] == '\r' && i+1 < len(in) && in[i+1] == '\n' {
			i++
		}
		in = in[i+1:]
	}
	var out []sseEvent
	var data, typ []byte
	has := false
	for i, l := range append(lines, nil) {
		if len(l) == 0 {
			if has {
				out = append(out, sseEvent{string(typ), string(data)})
			}
			data, typ, has = nil, nil, false
			if i == len(lines) {
				break
			}
			continue
		}
		f, v, _ := bytes.Cut(l, []byte(":"))
		v = bytes.TrimPrefix(v, []byte(" "))
		switch string(f) {
		case "data":
			if has {
				data = append(data, '\n')
			}
			data, has = append(data, v...), true
		case "event":
			typ = append([]byte(nil), v...)
		}
	}
	return out
}

// Any input, delivered whole, a byte at a time, in 7-byte reads or split
// at any point, yields the events the plain reading of the format gives.
func FuzzSSEReader(f *testing.F) {
	f.Add([]byte("data: a\n\ndata: b\r\n\r\n"), 3)
	f.Add([]byte("data: {\"x\":\"完成\"}\r\rdata: y\n\n"), 7)
	f.Add([]byte(": c\nevent: e\ndata: 1\ndata: 2\n\n"), 0)
	f.Add([]byte("\xEF\xBB\xBFevent: x\r\ndata\r\n\r\ndata:  z\r"), 2)
	f.Fuzz(func(t *testing.T, in []byte, cut int) {
		if cut < 0 {
			cut = -cut
		}
		if len(in) > 0 {
			cut %= len(in) + 1
		} else {
			cut = 0
		}
		want := fmt.Sprint(refEvents(in))
		readers := map[string]io.Reader{
			"whole":  bytes.NewReader(in),
			"1-byte": iotest.OneByteReader(bytes.NewReader(in)),
			"7-byte": &chunkReader{in, 7},
			"split":  io.MultiReader(bytes.NewReader(in[:cut]), bytes.NewReader(in[cut:])),
		}
		for name, r := range readers {
			got, err := readEvents(r)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if fmt.Sprint(got) != want {
				t.Fatalf("%s (cut %d): got %v, want %v", name, cut, got, want)
			}
		}
	})
}

package llm

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readAll(t testing.TB, r io.Reader) ([]string, error) {
	t.Helper()
	s := newSSEReader(r)
	var out []string
	for {
		d, err := s.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, string(d))
	}
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
		{"multi-line data", "data: a\ndata: b\n\n", []string{"a\nb"}},
		{"comments and fields", ": keepalive\n\nevent: x\nid: 3\ndata: a\nretry: 10\n\n", []string{"a"}},
		{"no space after colon", "data:a\n\n", []string{"a"}},
		{"final event without blank line", "data: a\n\ndata: b", []string{"a", "b"}},
		{"utf-8", "data: {\"text\":\"完成后\"}\n\n", []string{`{"text":"完成后"}`}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, err := readAll(t, r)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
					t.Errorf("got %q, want %q", got, tt.want)
				}
			}
		})
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
	// The rest of the oversized event is junk up to its blank line; the
	// event after it still parses.
	var got []string
	for {
		d, err := s.Next()
		if err != nil {
			break
		}
		got = append(got, string(d))
	}
	if len(got) == 0 || got[len(got)-1] != "ok" {
		t.Fatalf("events after overflow: %q", got)
	}
}

// Splitting the input at any point yields the same events.
func FuzzSSEReader(f *testing.F) {
	f.Add([]byte("data: a\n\ndata: b\r\n\r\n"), 3)
	f.Add([]byte("data: {\"x\":\"完成\"}\r\rdata: y\n\n"), 7)
	f.Add([]byte(": c\nevent: e\ndata: 1\ndata: 2\n\n"), 0)
	f.Fuzz(func(t *testing.T, in []byte, cut int) {
		whole, err1 := readAll(t, bytes.NewReader(in))
		if cut < 0 {
			cut = -cut
		}
		if len(in) > 0 {
			cut %= len(in) + 1
		} else {
			cut = 0
		}
		split, err2 := readAll(t, io.MultiReader(bytes.NewReader(in[:cut]), bytes.NewReader(in[cut:])))
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("errors differ: %v vs %v", err1, err2)
		}
		if strings.Join(whole, "\x00") != strings.Join(split, "\x00") || len(whole) != len(split) {
			t.Fatalf("whole %q, split at %d %q", whole, cut, split)
		}
	})
}

package tools

import (
	"fmt"
	"unicode/utf8"

	"github.com/quire-sh/quire/internal/ring"
)

// Output limits: what one call may put into the model's context. Every
// truncation says so in the output and sets Result.Truncated.
const (
	// readLimitBytes caps a read_file result, window plus footer.
	readLimitBytes = 50_000
	// readWindowLines and readWindowBytes bound one read_file window,
	// leaving room for the footer under readLimitBytes.
	readWindowLines = 2000
	readWindowBytes = 48 << 10
	// maxLineBytes clips very long lines (minified files).
	maxLineBytes = 2000
	// shellLimitBytes caps shell output, kept as head plus tail.
	shellLimitBytes = 30_000
	// searchLimitBytes caps list_dir, glob and grep results.
	searchLimitBytes = 50_000
	// searchLimitEntries caps the number of paths or matches listed.
	searchLimitEntries = 1000
)

func errorResult(format string, args ...any) Result {
	return Result{Output: fmt.Sprintf(format, args...), IsError: true}
}

// clipLine shortens a line longer than maxLineBytes on a rune boundary.
func clipLine(s string) string {
	if len(s) <= maxLineBytes {
		return s
	}
	return clipped(s, len(s))
}

// clipped cuts s to maxLineBytes on a rune boundary and notes that the
// whole line had full bytes.
func clipped(s string, full int) string {
	cut := min(len(s), maxLineBytes)
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf(" … [line clipped, %d bytes]", full)
}

// headTail keeps the first and last limit/2 bytes of a stream of any
// length in bounded memory.
type headTail struct {
	limit int
	head  []byte
	tail  *ring.Tail // the last limit-limit/2 bytes after the head
	total int64
}

func newHeadTail(limit int) *headTail {
	return &headTail{limit: limit, head: make([]byte, 0, limit/2), tail: ring.NewTail(limit - limit/2)}
}

func (h *headTail) Write(p []byte) (int, error) {
	n := len(p)
	h.total += int64(n)
	if room := cap(h.head) - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	h.tail.Write(p)
	return n, nil
}

// truncated reports whether bytes were dropped.
func (h *headTail) truncated() bool { return h.total > int64(len(h.head)+h.tail.Len()) }

// String renders the kept bytes, with a marker saying how much was cut
// and how to see it. Invalid UTF-8 is replaced so the result is text.
func (h *headTail) String() string {
	if !h.truncated() {
		return toValidUTF8(append(append([]byte(nil), h.head...), h.tail.Bytes()...))
	}
	head := trimPartialRune(h.head)
	tail := h.tail.Text()
	omitted := h.total - int64(len(head)+len(tail))
	return fmt.Sprintf("%s\n[… output truncated: %d of %d bytes omitted; showing the first %d and last %d bytes. Redirect the output to a file and grep or read_file it to see more.]\n%s",
		toValidUTF8(head), omitted, h.total, len(head), len(tail), toValidUTF8(tail))
}

func toValidUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string([]rune(string(b))) // each invalid byte becomes U+FFFD
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b, so a
// cut never splits a character.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}

package tools

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestHeadTail(t *testing.T) {
	for _, n := range []int{0, 10, 99, 100, 101, 1000, 12345} {
		h := newHeadTail(100)
		var all strings.Builder
		for i := 0; i < n; i++ {
			c := byte('a' + i%26)
			h.Write([]byte{c})
			all.WriteByte(c)
		}
		s := h.String()
		if n <= 100 {
			if s != all.String() || h.truncated() {
				t.Fatalf("n=%d: %q", n, s)
			}
			continue
		}
		full := all.String()
		if !h.truncated() || !strings.HasPrefix(s, full[:50]) || !strings.HasSuffix(s, full[n-50:]) || !strings.Contains(s, fmt.Sprintf("%d of %d bytes omitted", n-100, n)) {
			t.Fatalf("n=%d: %q", n, s)
		}
	}
	// Multi-byte characters are never split at the cut.
	h := newHeadTail(10)
	h.Write([]byte(strings.Repeat("é", 100)))
	if s := h.String(); strings.ContainsRune(s, '\uFFFD') {
		t.Fatalf("split a rune: %q", s)
	}
}

// TestHeadTailKeepsEnds feeds random chunk sizes and checks that the first
// and last limit/2 bytes survive exactly.
func TestHeadTailKeepsEnds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		limit := rapid.IntRange(2, 64).Draw(t, "limit")
		chunks := rapid.SliceOf(rapid.SliceOfN(rapid.ByteRange('a', 'z'), 0, 100)).Draw(t, "chunks")
		h := newHeadTail(limit)
		var all []byte
		for _, c := range chunks {
			h.Write(c)
			all = append(all, c...)
		}
		tail := h.tail.Bytes()
		if len(all) <= limit {
			if got := string(h.head) + string(tail); got != string(all) {
				t.Fatalf("kept %q of %q", got, all)
			}
			return
		}
		if string(h.head) != string(all[:limit/2]) || string(tail) != string(all[len(all)-(limit-limit/2):]) {
			t.Fatalf("head %q tail %q of %q", h.head, tail, all)
		}
	})
}

package markdown

import (
	"math/rand/v2"
	"testing"

	"github.com/rivo/uniseg"
)

// segmentAll splits b into line segments with next, returning each
// segment's length and the state after it.
func segmentAll(b []byte, next func([]byte, int) (int, int)) (ns, states []int) {
	state := -1
	for len(b) > 0 {
		n, st := next(b, state)
		ns, states = append(ns, n), append(states, st)
		b, state = b[n:], st
	}
	return ns, states
}

func unisegSegment(b []byte, state int) (int, int) {
	seg, _, _, st := uniseg.FirstLineSegment(b, state)
	return len(seg), st
}

// checkSegments fails t unless nextLineSegment splits s as uniseg does,
// with uniseg's states.
func checkSegments(t *testing.T, s string) {
	t.Helper()
	wantN, wantS := segmentAll([]byte(s), unisegSegment)
	gotN, gotS := segmentAll([]byte(s), nextLineSegment)
	if len(wantN) != len(gotN) {
		t.Fatalf("%q: segments %v, uniseg's %v", s, gotN, wantN)
	}
	for k := range wantN {
		if wantN[k] != gotN[k] || wantS[k] != gotS[k] {
			t.Fatalf("%q: segment %d is %d bytes, state %d; uniseg's %d, state %d", s, k, gotN[k], gotS[k], wantN[k], wantS[k])
		}
	}
}

// The fast path must give uniseg's segments and states on any text: ASCII
// prose with every kind of punctuation, and text around it that is not.
func TestNextLineSegmentIsUnisegs(t *testing.T) {
	alphabet := []string{"a", "Z", "7", " ", "  ", "-", "(", ")", "[", "]", "{", "}", "\"", "'",
		",", ".", ":", ";", "!", "?", "/", "%", "$", "+", "#", "*", "_", "`", "\n", "\t",
		"&", "<", "=", ">", "@", "^", "`", "~", "|", "\\", "**b**", "`c`", "é", "中", "\u200d", "👩", "\u00a0", "\u200b", "—", "«", "»", "'s", "1,000", "3.14", "word"}
	rng := rand.New(rand.NewPCG(1, 2))
	fixed := []string{"hello world", "a, b. c! d? e) f] g} h/ i", "(a b) c", "\"a\" b", "x1 2y 3 z",
		"word  \u00a0next", "a\u200b b", "end.", "a - b", "a -b", "1 2 3", "a\tb", "a\nb"}
	for i := range 100000 {
		var s string
		if i < len(fixed) {
			s = fixed[i]
		} else {
			for range 1 + rng.IntN(24) {
				s += alphabet[rng.IntN(len(alphabet))]
			}
		}
		checkSegments(t, s)
	}
}

func FuzzNextLineSegment(f *testing.F) {
	f.Add("hello, world) again")
	f.Add("(a b) \"c\" d")
	f.Fuzz(func(t *testing.T, s string) {
		checkSegments(t, s)
	})
}

package term

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// FuzzDecode feeds arbitrary bytes, cut at an arbitrary point into two
// reads, through the decoder. It must never panic, never hold more than
// one token's worth of bytes after the escape delay, and must decode the
// same keys whether or not the input was split (the cut only matters
// inside a sequence, which the decoder reassembles).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"hi", "\x1b[A", "\x1b[200~hello\x1b[201~", "\x01\x1bb", "\x1b[<0;10;5M", "\x1b[<64;1;1m",
		"\x1bP>|kitty(0.35)\x1b\\", "\x1b[?2026;2$y", "\x1b[12;40R", "\x1b\x1b[A", "\x1b]11;rgb:0/0/0\x07",
		"\x1b[M !!", "\x1b[[A", "\x1b[13;2u", "é世\x1bé", "\x1b[1;5R", "\x1b[65;0;97;1;0;9999_",
	} {
		f.Add([]byte(s), uint8(1), false)
	}
	f.Fuzz(func(t *testing.T, in []byte, cut uint8, wantCPR bool) {
		run := func(chunks ...[]byte) []Event {
			var out []Event
			d := newDecoder(func(e Event) { out = append(out, e) }, func(reply) {}, func() bool { return wantCPR })
			for _, c := range chunks {
				d.feed(c)
			}
			d.flush()
			if d.partial() && len(d.pending) > 1 {
				t.Fatalf("%d bytes still pending after the escape delay: %q", len(d.pending), d.pending)
			}
			d.abandonPaste()
			for _, e := range out {
				if p, ok := e.(PasteEvent); ok && bytes.Contains([]byte(p.Text), []byte("\r")) {
					t.Fatalf("paste kept a CR: %q", p.Text)
				}
				if k, ok := e.(KeyEvent); ok && k.Key == KeyRune && k.Rune < 0x20 {
					t.Fatalf("control character as a rune: %#v", k)
				}
				if m, ok := e.(MouseEvent); ok && (m.X < 0 || m.Y < 0) {
					t.Fatalf("negative mouse position: %#v", m)
				}
			}
			return out
		}
		whole := run(in)
		i := int(cut) % (len(in) + 1)
		split := run(in[:i], in[i:])
		if utf8.Valid(in) && !bytes.ContainsAny(in, "\x1b") && len(whole) != len(split) {
			t.Fatalf("plain text decoded differently when split at %d: %v vs %v", i, whole, split)
		}
	})
}

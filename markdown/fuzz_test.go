package markdown

import (
	"strings"
	"testing"
)

// FuzzStream feeds arbitrary bytes in arbitrary chunks: nothing panics,
// nothing emits a raw control character, and the stream always equals the
// one-shot render.
func FuzzStream(f *testing.F) {
	for _, src := range corpus(f) {
		f.Add([]byte(src), []byte{3, 17, 1, 64})
	}
	f.Add([]byte("```go\nx\n```\n\n- a\n\n- b\n> q\n\n[x]: /u\n"), []byte{1})
	f.Add([]byte("| a |\n|---|\n| b |\n\n\x1b]52;c;x\x07"), []byte{2, 5})
	f.Fuzz(func(t *testing.T, src, cuts []byte) {
		if len(src) > 2048 {
			src = src[:2048]
		}
		opts := Options{Width: 20 + len(cuts)%70}
		s := NewStream(opts)
		for p, i := 0, 0; p < len(src); i++ {
			n := 1
			if len(cuts) > 0 {
				n = 1 + int(cuts[i%len(cuts)])%80
			}
			n = min(n, len(src)-p)
			s.Append(string(src[p : p+n]))
			s.Frozen() // render now: checkpoints move at every chunk
			p += n
			if (i%8 == 0 || p == len(src)) && exactFrame(s) {
				want := Render(ShownPrefix(s.Source()), opts)
				if !sameLines(s.Lines(), want) {
					t.Fatalf("stream != one-shot at %d bytes\n--- stream\n%s--- one-shot\n%s", p, dump(s.Lines()), dump(want))
				}
			}
		}
		s.Finish()
		want := Render(string(src), opts)
		if !sameLines(s.Lines(), want) {
			t.Fatalf("stream != one-shot after Finish\n--- stream\n%s--- one-shot\n%s", dump(s.Lines()), dump(want))
		}
		checkSafe(t, want, opts.Width)
	})
}

// FuzzStreamPlain streams text after a line over the inline budget, so
// that it lands in a paragraph shown as its text (open_plain.go), or
// ends it: every frame the freezing rule promises exact, and the lines
// after Finish, equal the one-shot render.
func FuzzStreamPlain(f *testing.F) {
	f.Add([]byte("more words\r\n  \tnext line 漢字 e\u0301 \x1b[1m\xff\n\nafter"), []byte{3, 17, 1})
	f.Add([]byte("\n> quoted\n\n"+strings.Repeat("x", 300)+" y\n"), []byte{1, 64})
	head := strings.Repeat("word ", maxInlineLine/5+1)
	f.Fuzz(func(t *testing.T, tail, cuts []byte) {
		if len(tail) > 2048 {
			tail = tail[:2048]
		}
		streamTail(t, head, string(tail), cuts)
	})
}

// FuzzStreamIndentedCode streams text after 31 lines of indented code,
// so that the code's lines are frozen and the text continues, or ends,
// a block whose language is decided (freeze.go, open_code.go): every
// frame the freezing rule promises exact, and the lines after Finish,
// equal the one-shot render.
func FuzzStreamIndentedCode(f *testing.F) {
	f.Add([]byte("    y = 2\n\n  \t\n\tz = 3\r\n   \tw\n    \n\nafter *a*\n"), []byte{3, 17, 1})
	f.Add([]byte("\t\tdeep\n      \n    x\n  less\n    code?\n"), []byte{1, 64})
	f.Add([]byte("    a\n\n\n- item\n\n    code in item\n"), []byte{2})
	head := strings.Repeat("    x = 1  # note\n", 31)
	f.Fuzz(func(t *testing.T, tail, cuts []byte) {
		if len(tail) > 2048 {
			tail = tail[:2048]
		}
		streamTail(t, head, string(tail), cuts)
	})
}

// FuzzStreamListItem streams text into a list item of more than a
// paragraph, long enough to be followed as its content (open_item.go):
// the text's lines are indented to the item's content column when lines
// says so for them (a bit per line, cycling), so that they stay in the
// item or, at an indentation of its own, end it. Every frame the
// freezing rule promises exact, and the lines after Finish, equal the
// one-shot render.
func FuzzStreamListItem(f *testing.F) {
	f.Add([]byte("  - b\n```go\nx\n```\n> q\n\n- next\n\tz\n# h\n"), []byte{3, 17, 1}, []byte{0xff})
	f.Add([]byte("| a | b |\n|---|---|\n| 1 | 2 |\n[k]: /u\n[k]\nlazy\n"), []byte{1, 64}, []byte{0xf5})
	f.Add([]byte("1. x\n   2. y\n    code?\n---\n===\n<div>\n\n"), []byte{2}, []byte{0x7f})
	head := "1. The steps:\n" + strings.Repeat("   - a step with `code`\n", 12)
	f.Fuzz(func(t *testing.T, tail, cuts, lines []byte) {
		if len(tail) > 2048 {
			tail = tail[:2048]
		}
		var b strings.Builder
		for i, l := range strings.SplitAfter(string(tail), "\n") {
			if len(lines) > 0 && lines[i/8%len(lines)]>>(i%8)&1 == 1 {
				b.WriteString("   ")
			}
			b.WriteString(l)
		}
		streamTail(t, head, b.String(), cuts)
	})
}

// streamTail streams tail after head (appended whole) in chunks of 1 to
// 40 bytes that cuts sets (cycling; one byte each without cuts), at a
// width cuts also sets, rendering after every chunk so that the stream
// takes each in: every fourth frame the freezing rule promises exact,
// the last, and the lines after Finish, must equal the one-shot render.
func streamTail(t *testing.T, head, tail string, cuts []byte) {
	t.Helper()
	opts := Options{Width: 10 + len(cuts)%70}
	s := NewStream(opts)
	s.Append(head)
	for p, i := 0, 0; p < len(tail); i++ {
		n := 1
		if len(cuts) > 0 {
			n = 1 + int(cuts[i%len(cuts)])%40
		}
		n = min(n, len(tail)-p)
		s.Append(tail[p : p+n])
		s.Frozen()
		p += n
		if (i%4 == 0 || p == len(tail)) && exactFrame(s) {
			want := Render(ShownPrefix(s.Source()), opts)
			if !sameLines(s.Lines(), want) {
				t.Fatalf("stream != one-shot at %d bytes of the tail\n--- stream\n%s--- one-shot\n%s", p, dump(s.Lines()), dump(want))
			}
		}
	}
	s.Finish()
	if want := Render(s.Source(), opts); !sameLines(s.Lines(), want) {
		t.Fatalf("stream != one-shot after Finish\n--- stream\n%s--- one-shot\n%s", dump(s.Lines()), dump(want))
	}
}

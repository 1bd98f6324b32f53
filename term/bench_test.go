package term

import (
	"strings"
	"testing"
)

// BenchmarkDecodeTyping is the per-byte cost of ordinary typing mixed
// with arrows and Ctrl chords.
func BenchmarkDecodeTyping(b *testing.B) {
	in := []byte(strings.Repeat("hello world\x1b[A\x1b[1;5C\x01\x1bb", 64))
	d := newDecoder(func(Event) {}, nil, nil)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		d.feed(in)
	}
}

// BenchmarkDecodePaste is the cost of a large bracketed paste arriving in
// 4 KiB reads, as a pty delivers it.
func BenchmarkDecodePaste(b *testing.B) {
	body := strings.Repeat("func main() {\r\n\tfmt.Println(\"x\")\r\n}\r\n", 4096)
	in := []byte("\x1b[200~" + body + "\x1b[201~")
	d := newDecoder(func(Event) {}, nil, nil)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i < len(in); i += 4096 {
			d.feed(in[i:min(i+4096, len(in))])
		}
	}
}

// BenchmarkDecodeMouse is the cost of a stream of SGR wheel reports.
func BenchmarkDecodeMouse(b *testing.B) {
	in := []byte(strings.Repeat("\x1b[<65;40;12M", 256))
	d := newDecoder(func(Event) {}, nil, nil)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		d.feed(in)
	}
}

// BenchmarkWriterFrame is what the UI pays per frame handed to the writer
// goroutine (copy into a pooled buffer, queue, wake), with the tty keeping up.
func BenchmarkWriterFrame(b *testing.B) {
	tty := newFakeTty()
	tty.discard = true
	term, err := OpenTty(tty, Options{NoSignals: true, Env: envOf(), QueueFrames: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer term.Close()
	frame := []byte("\x1b[?2026h" + strings.Repeat("\x1b[12;40Hchanged cell text ", 20) + "\x1b[?2026l")
	w := term.Writer()
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		w.Write(frame)
		if term.Pending() > 1024 {
			term.WaitDrained(0)
		}
	}
	b.StopTimer()
	term.WaitDrained(10e9)
}

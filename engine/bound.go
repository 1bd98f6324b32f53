package engine

import (
	"fmt"
	"unicode/utf8"

	"github.com/quire-sh/quire/internal/ring"
)

// What one call's streamed output (ToolOutputDelta events) carries at
// most. The model sees the tool's own result, which the tool bounds (the
// shell keeps 30,000 bytes); the live view, the store and `quire exec
// --json` get the first streamHead bytes as they come, a line saying more
// follows, and when the call ends a line naming how much was left out and
// the last streamTail bytes. However much a command prints, its events
// stay this size; ToolResult.StreamedBytes reports the whole.
const (
	streamHead = 64 << 10
	streamTail = 64 << 10
)

// streamBound passes a call's output on until streamHead bytes, then
// keeps only the last streamTail bytes for flush. Text comes in whole
// characters (utf8Carry), and every cut falls between characters.
type streamBound struct {
	emit  func(string)
	sent  int        // bytes passed on before the cut
	total int64      // bytes written
	tail  *ring.Tail // the last streamTail bytes after the cut
	cut   bool
}

func (b *streamBound) write(text string) {
	b.total += int64(len(text))
	if !b.cut {
		if b.sent+len(text) <= streamHead {
			b.sent += len(text)
			b.emit(text)
			return
		}
		k := streamHead - b.sent
		for k > 0 && !utf8.RuneStart(text[k]) {
			k--
		}
		if k > 0 {
			b.sent += k
			b.emit(text[:k])
		}
		text = text[k:]
		b.cut = true
		b.emit(fmt.Sprintf("\n[… more output; its last %d KiB are shown when the call ends …]\n", streamTail>>10))
		b.tail = ring.NewTail(streamTail)
	}
	b.tail.WriteString(text)
}

// flush passes on what was left out and the tail, after a cut.
func (b *streamBound) flush() {
	if !b.cut {
		return
	}
	tail := b.tail.Text()
	left := b.total - int64(b.sent) - int64(len(tail))
	msg := ""
	if left > 0 {
		msg = fmt.Sprintf("[… %d bytes left out; the call printed %d bytes in all …]\n", left, b.total)
	}
	b.emit(msg + string(tail))
}

// omittedTotal is the whole size of the output when some of it was left
// out of the events, else 0.
func (b *streamBound) omittedTotal() int64 {
	if b.cut {
		return b.total
	}
	return 0
}

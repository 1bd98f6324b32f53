package llm

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/internal/cputime"
)

// BenchmarkSSERead is the SSE reader's cost per byte received, for one
// large event delivered in reads of a fixed size: the cost must stay
// linear in the bytes however small the reads (`make bench-sse` judges
// it). cpu-ns/byte is the process's CPU time per byte, which a busy
// machine disturbs far less than ns/byte. Names are SSERead/<event size>/<read size>; one op is one event,
// read from a source that repeats it forever and returns at most <read
// size> bytes per Read. The event is a single data line (a large JSON
// value, as a tool call's arguments arrive) followed by the blank line,
// <event size> bytes in all, so the 1 MiB event is at MaxEventSize.
func BenchmarkSSERead(b *testing.B) {
	for _, size := range benchEventSizes {
		event := benchEvent(size.n)
		b.Run(size.name, func(b *testing.B) {
			for _, read := range benchReadSizes {
				b.Run(read.name, func(b *testing.B) {
					r := newSSEReader(&repeatReader{event: event, chunk: read.n})
					b.SetBytes(int64(len(event)))
					b.ReportAllocs()
					b.ResetTimer()
					cpu0, cpuOK := cputime.Process()
					for i := 0; i < b.N; i++ {
						d, err := r.Next()
						if err != nil {
							b.Fatal(err)
						}
						if len(d) != len(event)-8 {
							b.Fatalf("event of %d bytes, want %d", len(d), len(event)-8)
						}
					}
					reportPerByte(b, cpu0, cpuOK, len(event))
				})
			}
		})
	}
}

// BenchmarkSSESource is the floor under BenchmarkSSERead: the same source
// drained in the same reads into a buffer, with no SSE reader. Whatever
// the reader does, a byte delivered by a 1-byte read costs at least this
// row's 1B column.
func BenchmarkSSESource(b *testing.B) {
	event := benchEvent(64 << 10)
	b.Run("64KiB", func(b *testing.B) {
		for _, read := range benchReadSizes {
			b.Run(read.name, func(b *testing.B) {
				var r io.Reader = &repeatReader{event: event, chunk: read.n}
				buf := make([]byte, len(event))
				b.SetBytes(int64(len(event)))
				b.ReportAllocs()
				b.ResetTimer()
				cpu0, cpuOK := cputime.Process()
				for i := 0; i < b.N; i++ {
					for got := 0; got < len(buf); {
						n, _ := r.Read(buf[got:])
						got += n
					}
				}
				reportPerByte(b, cpu0, cpuOK, len(event))
			})
		}
	})
}

var benchEventSizes = []struct {
	name string
	n    int
}{{"4KiB", 4 << 10}, {"64KiB", 64 << 10}, {"1MiB", 1 << 20}}

var benchReadSizes = []struct {
	name string
	n    int
}{{"1B", 1}, {"7B", 7}, {"4KiB", 4 << 10}}

// reportPerByte adds ns/byte and, where the platform tells, cpu-ns/byte:
// the process's CPU time per byte since cpu0.
func reportPerByte(b *testing.B, cpu0 time.Duration, cpuOK bool, eventSize int) {
	bytes := float64(b.N) * float64(eventSize)
	if cpu1, ok := cputime.Process(); ok && cpuOK {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/bytes, "cpu-ns/byte")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/bytes, "ns/byte")
}

// benchEvent is "data: " + a JSON string + "\n\n", n bytes long.
func benchEvent(n int) []byte {
	body := `{"arguments":"` + strings.Repeat("lorem ipsum dolor sit amet, ", n/28+1)
	body = body[:n-8-2] + `"}`
	return []byte("data: " + body + "\n\n")
}

// repeatReader returns event over and over, at most chunk bytes per Read,
// doing as little as a source can so the reader's cost shows.
type repeatReader struct {
	event []byte
	pos   int
	chunk int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	rest := r.event[r.pos:]
	if len(rest) > r.chunk {
		rest = rest[:r.chunk]
	}
	n := copy(p, rest)
	r.pos += n
	if r.pos == len(r.event) {
		r.pos = 0
	}
	return n, nil
}

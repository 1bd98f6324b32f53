package chat

import (
	"bytes"
	"github.com/quire-sh/quire/engine/llm"
	"io"
	"strings"
	"testing"
)

// BenchmarkStreamDecode is the client's cost per streamed token: SSE
// framing, JSON decoding and assembly of one content chunk.
func BenchmarkStreamDecode(b *testing.B) {
	const chunk = `data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"token "},"finish_reason":null}]}` + "\n\n"
	stream := []byte(strings.Repeat(chunk, 1000))
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += 1000 {
		r := llm.NewEventReader(bytes.NewReader(stream))
		var a assembler
		for {
			d, err := r.Next()
			if err == io.EOF {
				break
			}
			if _, err := a.add(d); err != nil {
				b.Fatal(err)
			}
		}
	}
}

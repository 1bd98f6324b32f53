package anthropic

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/llm"
)

// BenchmarkStreamDecode is the client's cost per streamed token: SSE
// framing, JSON decoding and assembly of one text_delta.
func BenchmarkStreamDecode(b *testing.B) {
	const event = "event: content_block_delta\n" +
		`data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"token "}}` + "\n\n"
	start := `data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}` + "\n\n"
	stream := []byte(start + strings.Repeat(event, 1000))
	b.SetBytes(int64(len(event)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += 1000 {
		r := llm.NewEventReader(bytes.NewReader(stream))
		d := newDecoder("m")
		for {
			data, err := r.Next()
			if err == io.EOF {
				break
			}
			if _, _, err := d.Event(data); err != nil {
				b.Fatal(err)
			}
		}
	}
}

package responses

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/llm"
)

// BenchmarkStreamDecode is the client's cost per streamed token: SSE
// framing, JSON decoding and assembly of one output_text delta, framed
// as the API frames it (an event line, a sequence number, the item id).
func BenchmarkStreamDecode(b *testing.B) {
	const event = "event: response.output_text.delta\n" +
		`data: {"type":"response.output_text.delta","sequence_number":42,"item_id":"msg_0123456789abcdef","output_index":1,"content_index":0,"delta":"token ","logprobs":[]}` + "\n\n"
	stream := []byte(strings.Repeat(event, 1000))
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

package chat

import (
	"encoding/json"
	"reflect"
	"testing"
)

// usualChunks are chunks as servers stream them, each of which must take
// the fast path.
var usualChunks = []string{
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"m","system_fingerprint":"fp_1","choices":[{"index":0,"delta":{"content":"Hello, \"world\" \u00e9\n"},"logprobs":null,"finish_reason":null}],"usage":null}`,
	`{"choices":[{"index":0,"delta":{"reasoning_content":"hm"},"finish_reason":null}]}`,
	`{"choices":[{"index":0,"delta":{"reasoning":"hm","content":null}}]}`,
	`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
	`{"choices":[{"index":0,"delta":{"refusal":"no"},"finish_reason":"content_filter"}],"service_tier":"default"}`,
	` { "choices" : [ { "delta" : { "content" : "x" } } ] , "created" : -1.5e+3 } `,
	`{"choices":[],"error":null}`,
	`{"choices":null}`,
	`{}`,
}

// unusualChunks are valid chunks the fast path leaves to encoding/json.
var unusualChunks = []string{
	`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"n","arguments":""}}]}}]}`,
	`{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2}}`,
	`{"choices":[{"delta":{"content":[{"type":"text","text":"a"}]}}]}`,
	`{"choices":[{"delta":{"content":"a"}},{"delta":{"content":"b"}}]}`,
	`{"Choices":[{"delta":{"content":"a"}}]}`,
	`{"ch\u006fices":[{"delta":{"content":"a"}}]}`,
	`{"choices":[{"delta":{"content":"a","content":"b"}}]}`,
	`{"choices":[{"delta":{"content":"a"}}],"x_groq":{"usage":{"total_tokens":3}}}`,
	`{"choices":[{"delta":{"content":"a"}}],"error":{"message":"m"}}`,
	`{"id":{"nested":true},"choices":[]}`,
	`null`,
}

func TestDecodeUsualTakesTheCommonShapes(t *testing.T) {
	for _, s := range usualChunks {
		var c chunk
		if !c.decodeUsual([]byte(s)) {
			t.Errorf("fast path refused %s", s)
		}
		agrees(t, []byte(s))
	}
	for _, s := range unusualChunks {
		var c chunk
		if c.decodeUsual([]byte(s)) {
			t.Errorf("fast path took %s", s)
		}
		if !json.Valid([]byte(s)) {
			t.Fatalf("case is not JSON: %s", s)
		}
	}
	// Invalid JSON is never taken.
	for _, s := range []string{
		`{"choices":[]`, `{"choices":[]}x`, `{"id":01}`, `{"id":1.}`, `{"id":-}`, `{"id":1e}`,
		`{"id":"a` + "\x01" + `"}`, `{"id":"\x"}`, `{"id":"\u12g4"}`, `{"id":nul}`, `{"id":1,}`,
		`{,"id":1}`, `{"choices":[{}],}`, `{"choices":[{"delta":{"content":"a"}]}`, `{'id':1}`,
	} {
		var c chunk
		if c.decodeUsual([]byte(s)) {
			t.Errorf("fast path took invalid %s", s)
		}
	}
}

// agrees fails when the fast path takes data and decodes it other than
// encoding/json does.
func agrees(t *testing.T, data []byte) {
	t.Helper()
	var fast chunk
	if !fast.decodeUsual(data) {
		return
	}
	var ref chunk
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatalf("fast path took what encoding/json refuses (%v): %q", err, data)
	}
	if !reflect.DeepEqual(fast, ref) {
		t.Fatalf("fast path read %q as\n%#v\nencoding/json as\n%#v", data, fast, ref)
	}
}

// FuzzDecodeUsual holds the fast path to encoding/json on arbitrary
// input: whatever it takes, encoding/json accepts and decodes the same.
func FuzzDecodeUsual(f *testing.F) {
	for _, s := range append(append([]string{}, usualChunks...), unusualChunks...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { agrees(t, data) })
}

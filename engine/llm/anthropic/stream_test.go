package anthropic

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/llm"
)

// sse renders events as a text/event-stream body, each with its event
// name, as the API sends them.
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		var head struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal([]byte(e), &head)
		b.WriteString("event: " + head.Type + "\ndata: " + e + "\n\n")
	}
	return b.String()
}

type decoded struct {
	resp              llm.Response
	shown, shownThink string
	err               error
}

// decode reads body through the transport's SSE reader, delivered in two
// reads split at cut, the way the transport drives a decoder.
func decode(model, body string, cut int) decoded {
	r := llm.NewEventReader(io.MultiReader(strings.NewReader(body[:cut]), strings.NewReader(body[cut:])))
	d := newDecoder(model)
	var out decoded
	show := func(x llm.Delta) {
		out.shown += x.Text
		out.shownThink += x.Reasoning
	}
	for {
		data, err := r.Next()
		if err == io.EOF {
			x, err := d.End()
			show(x)
			out.err = err
			break
		}
		if err != nil {
			out.err = err
			break
		}
		x, done, err := d.Event(data)
		show(x)
		if err != nil {
			out.err = err
			break
		}
		if done {
			x, err := d.End()
			show(x)
			out.err = err
			break
		}
	}
	out.resp = d.Response()
	return out
}

func saved(model, block string) llm.ReasoningState {
	data, _ := json.Marshal(savedThinking{Model: model, Block: json.RawMessage(block)})
	return llm.ReasoningState{Protocol: Protocol, Data: data}
}

// A thinking model's turn: thinking with its signature, a redacted block,
// text and two parallel calls.
var twoCalls = sse(
	`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-x","stop_reason":null,"usage":{"input_tokens":20,"cache_creation_input_tokens":1500,"cache_read_input_tokens":9000,"output_tokens":1}}}`,
	`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Both files "}}`,
	`{"type":"ping"}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"matter."}}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAh"}}`,
	`{"type":"content_block_stop","index":0}`,
	`{"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":"EmwKAhgBEgy3va"}}`,
	`{"type":"content_block_stop","index":1}`,
	`{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`,
	`{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Reading 世界"}}`,
	`{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":" now."}}`,
	`{"type":"content_block_stop","index":2}`,
	`{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_a","name":"read_file","input":{}}}`,
	`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":""}}`,
	`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"a"}}`,
	`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":".go\"}"}}`,
	`{"type":"content_block_stop","index":3}`,
	`{"type":"content_block_start","index":4,"content_block":{"type":"tool_use","id":"toolu_b","name":"read_file","input":{}}}`,
	`{"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"b.go\"}"}}`,
	`{"type":"content_block_stop","index":4}`,
	`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":310}}`,
	`{"type":"message_stop"}`,
)

func TestDecoderAtEveryByteBoundary(t *testing.T) {
	tests := []struct {
		name string
		body string
		want llm.Response
		kind llm.Kind
	}{
		{
			name: "thinking, text and two parallel calls",
			body: twoCalls,
			want: llm.Response{
				Text: "Reading 世界 now.", Reasoning: "Both files matter.",
				State: []llm.ReasoningState{
					saved("claude-x", `{"signature":"EqQBCgIYAh","thinking":"Both files matter.","type":"thinking"}`),
					saved("claude-x", `{"data":"EmwKAhgBEgy3va","type":"redacted_thinking"}`),
				},
				ToolCalls: []llm.ToolCall{
					{ID: "toolu_a", Name: "read_file", Arguments: `{"path": "a.go"}`},
					{ID: "toolu_b", Name: "read_file", Arguments: `{"path": "b.go"}`},
				},
				FinishReason: llm.FinishToolCalls,
				Usage:        &llm.Usage{PromptTokens: 10520, CompletionTokens: 310, TotalTokens: 10830, CacheReadTokens: 9000, CacheWriteTokens: 1500},
			},
		},
		{
			name: "truncated at max_tokens",
			body: sse(
				`{"type":"message_start","message":{"usage":{"input_tokens":10,"output_tokens":1}}}`,
				`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Half an ans"}}`,
				`{"type":"content_block_stop","index":0}`,
				`{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":5}}`,
				`{"type":"message_stop"}`,
			),
			want: llm.Response{Text: "Half an ans", FinishReason: llm.FinishLength, Usage: &llm.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}},
		},
		{
			name: "overloaded mid-stream",
			body: sse(
				`{"type":"message_start","message":{"usage":{"input_tokens":10,"output_tokens":1}}}`,
				`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Par"}}`,
				`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			),
			want: llm.Response{Text: "Par", Usage: &llm.Usage{PromptTokens: 10, CompletionTokens: 1, TotalTokens: 11}},
			kind: llm.KindServer,
		},
		{
			name: "cut before message_stop",
			body: sse(
				`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Hmm"}}`,
			),
			want: llm.Response{Reasoning: "Hmm"},
			kind: llm.KindStream,
		},
		{
			name: "a prompt too long",
			body: sse(`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`),
			kind: llm.KindContextOverflow,
		},
	}
	for _, tt := range tests {
		for cut := 0; cut <= len(tt.body); cut++ {
			got := decode("claude-x", tt.body, cut)
			if llm.KindOf(got.err) != tt.kind {
				t.Fatalf("%s, cut at %d: error %v, want kind %q", tt.name, cut, got.err, tt.kind)
			}
			if !reflect.DeepEqual(got.resp, tt.want) {
				t.Fatalf("%s, cut at %d:\n got %+v\nwant %+v", tt.name, cut, got.resp, tt.want)
			}
			if got.shown != tt.want.Text || got.shownThink != tt.want.Reasoning {
				t.Fatalf("%s, cut at %d: shown %q / %q", tt.name, cut, got.shown, got.shownThink)
			}
		}
	}
}

func TestOverloadedIsRetryable(t *testing.T) {
	got := decode("m", sse(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), 0)
	var e *llm.Error
	if !errors.As(got.err, &e) || !e.Retryable() || e.Status != 529 {
		t.Fatalf("err %#v", got.err)
	}
	if e := classify(400, nil, []byte(`{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API."}}`)); e.Kind != llm.KindQuota {
		t.Fatalf("credit balance: %s", e.Kind)
	}
}

func TestWholeMessage(t *testing.T) {
	d := newDecoder("claude-x")
	body := `{"type":"message","content":[` +
		`{"type":"thinking","thinking":"Plan.","signature":"sig"},` +
		`{"type":"text","text":"Done."},` +
		`{"type":"tool_use","id":"toolu_1","name":"ls","input":{"dir":"."}}],` +
		`"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":4}}`
	x, err := d.Whole([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	r := d.Response()
	if x.Text != "Done." || x.Reasoning != "Plan." || r.FinishReason != llm.FinishToolCalls || len(r.ToolCalls) != 1 || r.ToolCalls[0].Arguments != `{"dir":"."}` || len(r.State) != 1 || r.Usage.TotalTokens != 7 {
		t.Fatalf("delta %+v response %+v", x, r)
	}
}

// Any stream, cut anywhere, decodes the same and never panics.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte(twoCalls), 17)
	f.Add([]byte(sse(`{"type":"error","error":null}`)), 1)
	f.Add([]byte("data: {\"type\":\"content_block_delta\",\"index\":-1,\"delta\":{\"type\":\"text_delta\"}}\n\n"), 0)
	f.Fuzz(func(t *testing.T, body []byte, cut int) {
		if cut < 0 {
			cut = -cut
		}
		cut %= len(body) + 1
		whole := decode("m", string(body), 0)
		split := decode("m", string(body), cut)
		if (whole.err == nil) != (split.err == nil) || !reflect.DeepEqual(whole.resp, split.resp) {
			t.Fatalf("whole %+v (%v), split at %d %+v (%v)", whole.resp, whole.err, cut, split.resp, split.err)
		}
		if whole.shown != whole.resp.Text || whole.shownThink != whole.resp.Reasoning {
			t.Fatalf("shown %q/%q, response %q/%q", whole.shown, whole.shownThink, whole.resp.Text, whole.resp.Reasoning)
		}
	})
}

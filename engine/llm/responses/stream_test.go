package responses

import (
	"bytes"
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

// decoded is what a stream decodes to.
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

const (
	reasoningAdded = `{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}}`
	reasoningDone  = `{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Read both files."},{"type":"summary_text","text":"Then compare."}],"encrypted_content":"gAAAA-secret"}}`
	completedCalls = `{"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":1200,"input_tokens_details":{"cached_tokens":1024},"output_tokens":300,"output_tokens_details":{"reasoning_tokens":200},"total_tokens":1500}}}`
)

// A reasoning model's turn: a summary in two parts, a short text and two
// parallel calls whose argument fragments interleave.
var twoCalls = sse(
	`{"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}`,
	reasoningAdded,
	`{"type":"response.reasoning_summary_part.added","output_index":0,"summary_index":0}`,
	`{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":0,"delta":"Read both "}`,
	`{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":0,"delta":"files."}`,
	`{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":1,"delta":"Then compare."}`,
	reasoningDone,
	`{"type":"response.output_item.added","output_index":1,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}`,
	`{"type":"response.output_text.delta","output_index":1,"content_index":0,"delta":"Reading 世界"}`,
	`{"type":"response.output_text.delta","output_index":1,"content_index":0,"delta":" now."}`,
	`{"type":"response.output_item.done","output_index":1,"item":{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Reading 世界 now."}]}}`,
	`{"type":"response.output_item.added","output_index":2,"item":{"type":"function_call","id":"fc_1","call_id":"call_a","name":"read_file","arguments":""}}`,
	`{"type":"response.output_item.added","output_index":3,"item":{"type":"function_call","id":"fc_2","call_id":"call_b","name":"read_file","arguments":""}}`,
	`{"type":"response.function_call_arguments.delta","output_index":3,"delta":"{\"path\":"}`,
	`{"type":"response.function_call_arguments.delta","output_index":2,"delta":"{\"path\":"}`,
	`{"type":"response.function_call_arguments.delta","output_index":2,"delta":"\"a.go\"}"}`,
	`{"type":"response.function_call_arguments.delta","output_index":3,"delta":"\"b.go\"}"}`,
	`{"type":"response.function_call_arguments.done","output_index":2,"arguments":"{\"path\":\"a.go\"}"}`,
	`{"type":"response.output_item.done","output_index":2,"item":{"type":"function_call","id":"fc_1","call_id":"call_a","name":"read_file","arguments":"{\"path\":\"a.go\"}"}}`,
	`{"type":"response.output_item.done","output_index":3,"item":{"type":"function_call","id":"fc_2","call_id":"call_b","name":"read_file","arguments":"{\"path\":\"b.go\"}"}}`,
	completedCalls,
)

func TestDecoderAtEveryByteBoundary(t *testing.T) {
	state, _ := json.Marshal(savedReasoning{Model: "gpt-x", Item: json.RawMessage(`{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Read both files."},{"type":"summary_text","text":"Then compare."}],"encrypted_content":"gAAAA-secret"}`)})
	tests := []struct {
		name string
		body string
		want llm.Response
		kind llm.Kind
	}{
		{
			name: "reasoning, text and two parallel calls",
			body: twoCalls,
			want: llm.Response{
				Text: "Reading 世界 now.", Reasoning: "Read both files.\n\nThen compare.",
				State: []llm.ReasoningState{{Protocol: Protocol, Data: state}},
				ToolCalls: []llm.ToolCall{
					{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.go"}`},
					{ID: "call_b", Name: "read_file", Arguments: `{"path":"b.go"}`},
				},
				FinishReason: llm.FinishToolCalls,
				Usage:        &llm.Usage{PromptTokens: 1200, CompletionTokens: 300, TotalTokens: 1500, CacheReadTokens: 1024, ReasoningTokens: 200},
			},
		},
		{
			name: "truncated at the output limit",
			body: sse(
				`{"type":"response.output_text.delta","output_index":0,"delta":"Half an ans"}`,
				`{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15}}}`,
			),
			want: llm.Response{Text: "Half an ans", FinishReason: llm.FinishLength, Usage: &llm.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}},
		},
		{
			name: "failed mid-stream, rate limited",
			body: sse(
				`{"type":"response.output_text.delta","output_index":0,"delta":"Par"}`,
				`{"type":"response.failed","response":{"status":"failed","error":{"code":"rate_limit_exceeded","message":"Rate limit reached. Please try again in 2s."}}}`,
			),
			want: llm.Response{Text: "Par"},
			kind: llm.KindRateLimited,
		},
		{
			name: "an error event, context too long",
			body: sse(`{"type":"error","code":"context_length_exceeded","message":"Your input exceeds the context window of this model.","param":"input"}`),
			kind: llm.KindContextOverflow,
		},
		{
			name: "cut before it completed",
			body: sse(`{"type":"response.output_text.delta","output_index":0,"delta":"Hello"}`),
			want: llm.Response{Text: "Hello"},
			kind: llm.KindStream,
		},
		{
			name: "text only in the finished item",
			body: sse(
				`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","content":[{"type":"output_text","text":"Whole."}]}}`,
				`{"type":"response.completed","response":{"status":"completed"}}`,
			),
			want: llm.Response{Text: "Whole.", FinishReason: llm.FinishStop},
		},
	}
	for _, tt := range tests {
		for cut := 0; cut <= len(tt.body); cut++ {
			got := decode("gpt-x", tt.body, cut)
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

func TestRetryHintFromStreamError(t *testing.T) {
	got := decode("m", sse(`{"type":"response.failed","response":{"status":"failed","error":{"code":"rate_limit_exceeded","message":"Please try again in 1.5s."}}}`), 0)
	var e *llm.Error
	if !errors.As(got.err, &e) || !e.Retryable() || e.RetryAfter == 0 {
		t.Fatalf("err %#v", got.err)
	}
}

func TestMalformedEvent(t *testing.T) {
	got := decode("m", "data: {\"type\":\"response.output_text.delta\",\n\n", 0)
	if llm.KindOf(got.err) != llm.KindStream {
		t.Fatalf("err %v", got.err)
	}
}

func TestWholeAnswer(t *testing.T) {
	d := newDecoder("gpt-x")
	body := `{"id":"resp_1","status":"completed","output":[` +
		`{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Think."}],"encrypted_content":"enc"},` +
		`{"type":"message","content":[{"type":"output_text","text":"Done."}]},` +
		`{"type":"function_call","call_id":"c1","name":"ls","arguments":"{}"}],` +
		`"usage":{"input_tokens":3,"output_tokens":4,"total_tokens":7}}`
	x, err := d.Whole([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	r := d.Response()
	if x.Text != "Done." || x.Reasoning != "Think." || r.FinishReason != llm.FinishToolCalls || len(r.ToolCalls) != 1 || len(r.State) != 1 || r.Usage.TotalTokens != 7 {
		t.Fatalf("delta %+v response %+v", x, r)
	}
}

// Any stream, cut anywhere, decodes the same and never panics.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte(twoCalls), 17)
	f.Add([]byte(sse(`{"type":"error","code":3,"message":null}`)), 1)
	f.Add([]byte("data: {\"type\":\"response.output_item.done\",\"item\":{\"type\":\"reasoning\",\"summary\":7}}\n\n"), 0)
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
		if whole.shown != whole.resp.Text || !bytes.Equal([]byte(whole.shownThink), []byte(whole.resp.Reasoning)) {
			t.Fatalf("shown %q/%q, response %q/%q", whole.shown, whole.shownThink, whole.resp.Text, whole.resp.Reasoning)
		}
	})
}

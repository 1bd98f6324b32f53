package chat

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/llm"
)

// rawServer answers every request with the given data lines as SSE
// events, and counts the requests; it records the last body.
func rawServer(t *testing.T, events ...string) (*httptest.Server, *atomic.Int64, *atomic.Value) {
	t.Helper()
	var n atomic.Int64
	var last atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		b, _ := io.ReadAll(r.Body)
		last.Store(b)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range events {
			io.WriteString(w, "data: "+e+"\n\n")
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n, &last
}

func rawClient(url string) *Client {
	return New(Config{BaseURL: url, TransportConfig: llm.TransportConfig{
		Retry: llm.RetryPolicy{MaxRetries: 3, Initial: time.Millisecond, Max: time.Millisecond},
	}})
}

// streamAll runs one call and returns what was streamed beside the
// response.
func streamAll(t *testing.T, c *Client) (resp llm.Response, text, reasoning string, err error) {
	t.Helper()
	var tb, rb strings.Builder
	resp, err = c.Stream(context.Background(), simpleRequest(), llm.Handler{
		Text:      func(s string) { tb.WriteString(s) },
		Reasoning: func(s string) { rb.WriteString(s) },
	})
	return resp, tb.String(), rb.String(), err
}

func delta(d string) string {
	return `{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + d + `,"finish_reason":null}]}`
}

const stopChunk = `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`

// Content sent as a list of typed parts, as Mistral's reasoning models
// and others do: text and refusal parts are the answer, thinking and
// reasoning parts (with their text nested in parts or not) the
// reasoning, and parts with nothing to show in a terminal are skipped.
func TestContentParts(t *testing.T) {
	tests := []struct {
		name            string
		deltas          []string
		text, reasoning string
	}{
		{"mistral thinking then text", []string{
			`{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"Let me "}]}]}`,
			`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"think."}]}]}`,
			`{"content":[{"type":"text","text":"The answer"}]}`,
			`{"content":" is 4."}`,
		}, "The answer is 4.", "Let me think."},
		{"thinking as a plain string", []string{`{"content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"ok"}]}`}, "ok", "hm"},
		{"reasoning part", []string{`{"content":[{"type":"reasoning","text":"why"},{"type":"text","text":"so"}]}`}, "so", "why"},
		{"a single part object", []string{`{"content":{"type":"text","text":"one"}}`}, "one", ""},
		{"image and audio parts are skipped", []string{
			`{"content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}},{"type":"text","text":"see above"}]}`,
			`{"content":[{"type":"input_audio","input_audio":{"data":"AAAA"}}]}`,
		}, "see above", ""},
		{"refusal part is shown", []string{`{"content":[{"type":"refusal","refusal":"I can't help with that."}]}`}, "I can't help with that.", ""},
		{"refusal field is shown", []string{`{"content":null,"refusal":"No."}`}, "No.", ""},
		{"reference parts carry nothing", []string{`{"content":[{"type":"reference","reference_ids":[1,2]},{"type":"text","text":"[1]"}]}`}, "[1]", ""},
		{"a part of an odd shape costs only itself", []string{`{"content":[{"type":"text","text":{"value":"odd"}},{"type":"text","text":"fine"}]}`}, "fine", ""},
		{"empty list and null", []string{`{"content":[]}`, `{"content":null}`, `{"content":"x"}`}, "x", ""},
		{"reasoning_text and summary_text parts", []string{`{"content":[{"type":"reasoning_text","text":"a"},{"type":"summary_text","text":"b"},{"type":"text","text":"c"}]}`}, "c", "ab"},
		{"reasoning_content as a list of parts", []string{`{"reasoning_content":[{"type":"text","text":"R1"}]}`, `{"reasoning_content":[{"type":"text","text":"R2"}],"content":"x"}`}, "x", "R1R2"},
		{"reasoning as a list of parts", []string{`{"reasoning":[{"type":"text","text":"R"}],"content":"y"}`}, "y", "R"},
		{"reasoning_content as an object", []string{`{"reasoning_content":{"text":"O"},"content":"z"}`}, "z", "O"},
		{"inline think tags inside a text part", []string{`{"content":[{"type":"text","text":"<think>hidden</think>shown"}]}`}, "shown", "hidden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var evs []string
			for _, d := range tt.deltas {
				evs = append(evs, delta(d))
			}
			srv, n, _ := rawServer(t, append(evs, stopChunk, "[DONE]")...)
			resp, text, reasoning, err := streamAll(t, rawClient(srv.URL))
			if err != nil {
				t.Fatalf("error %v after %d requests", err, n.Load())
			}
			if resp.Text != tt.text || text != tt.text {
				t.Errorf("text %q, streamed %q, want %q", resp.Text, text, tt.text)
			}
			if resp.Reasoning != tt.reasoning || reasoning != tt.reasoning {
				t.Errorf("reasoning %q, streamed %q, want %q", resp.Reasoning, reasoning, tt.reasoning)
			}
			if n.Load() != 1 {
				t.Errorf("%d requests", n.Load())
			}
		})
	}
}

func TestUsageVariants(t *testing.T) {
	tests := []struct {
		name   string
		events []string
		want   llm.Usage
	}{
		{"last chunk with empty choices", []string{delta(`{"content":"a"}`), stopChunk,
			`{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}`},
			llm.Usage{PromptTokens: 10, CompletionTokens: 3, TotalTokens: 13}},
		{"usage on the finishing chunk", []string{delta(`{"content":"a"}`),
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":4,"completion_tokens":1}}`},
			llm.Usage{PromptTokens: 4, CompletionTokens: 1, TotalTokens: 5}},
		{"groq x_groq", []string{delta(`{"content":"a"}`),
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"x_groq":{"id":"req_1","usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}}`},
			llm.Usage{PromptTokens: 7, CompletionTokens: 2, TotalTokens: 9}},
		{"top level wins over x_groq", []string{delta(`{"content":"a"}`), stopChunk,
			`{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2},"x_groq":{"usage":{"prompt_tokens":99,"completion_tokens":99,"total_tokens":198}}}`},
			llm.Usage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: 2}},
		{"details and floats", []string{delta(`{"content":"a"}`), stopChunk,
			`{"choices":[],"usage":{"prompt_tokens":100.0,"completion_tokens":50,"total_tokens":150,"prompt_tokens_details":{"cached_tokens":80},"completion_tokens_details":{"reasoning_tokens":30}}}`},
			llm.Usage{PromptTokens: 100, CompletionTokens: 50, TotalTokens: 150, CacheReadTokens: 80, ReasoningTokens: 30}},
		{"deepseek cache hits", []string{delta(`{"content":"a"}`), stopChunk,
			`{"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":5,"total_tokens":105,"prompt_cache_hit_tokens":64,"prompt_cache_miss_tokens":36}}`},
			llm.Usage{PromptTokens: 100, CompletionTokens: 5, TotalTokens: 105, CacheReadTokens: 64}},
		{"usage of an odd shape is ignored", []string{delta(`{"content":"a"}`), stopChunk, `{"choices":[],"usage":"n/a"}`},
			llm.Usage{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _, _ := rawServer(t, append(tt.events, "[DONE]")...)
			resp, _, _, err := streamAll(t, rawClient(srv.URL))
			if err != nil {
				t.Fatal(err)
			}
			var got llm.Usage
			if resp.Usage != nil {
				got = *resp.Usage
			}
			if got != tt.want {
				t.Errorf("usage %+v, want %+v", got, tt.want)
			}
		})
	}
}

// An error a server sends inside its 200 stream: reported as what it is
// (no HTTP status it never had), its usage kept, retried only when
// another attempt could help.
func TestErrorsInsideTheStream(t *testing.T) {
	tests := []struct {
		name     string
		event    string
		kind     llm.Kind
		requests int64
		says     string
	}{
		{"with usage on the same chunk", `{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":0,"total_tokens":9},"error":{"message":"Upstream overloaded","code":503}}`,
			llm.KindStream, 4, "Upstream overloaded [code 503]"},
		{"without a code", `{"error":{"message":"Internal error"}}`, llm.KindStream, 4, "during the answer: Internal error"},
		{"as a bare string", `{"error":"backend went away"}`, llm.KindStream, 4, "backend went away"},
		{"string code", `{"error":{"message":"Provider returned error","code":"server_error"}}`, llm.KindStream, 4, "[code server_error]"},
		{"context overflow", `{"error":{"message":"prompt is too long: 210000 tokens > 200000 maximum","type":"invalid_request_error"}}`, llm.KindContextOverflow, 1, "prompt is too long"},
		{"the request's fault", `{"error":{"message":"tools[0]: invalid schema","code":400}}`, llm.KindInvalidRequest, 1, "invalid schema"},
		{"finish reason error", `{"choices":[{"index":0,"delta":{},"finish_reason":"error"}]}`, llm.KindStream, 4, `finish reason "error"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, n, _ := rawServer(t, tt.event)
			resp, _, _, err := streamAll(t, rawClient(srv.URL))
			if llm.KindOf(err) != tt.kind || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("error %v (kind %s), want kind %s saying %q", err, llm.KindOf(err), tt.kind, tt.says)
			}
			if strings.Contains(err.Error(), "HTTP") {
				t.Errorf("claims an HTTP status: %v", err)
			}
			if n.Load() != tt.requests {
				t.Errorf("%d requests, want %d", n.Load(), tt.requests)
			}
			if strings.Contains(tt.name, "usage") && (resp.Usage == nil || resp.Usage.PromptTokens != 9) {
				t.Errorf("usage on the error chunk was dropped: %+v", resp.Usage)
			}
		})
	}
}

func TestFinishReasons(t *testing.T) {
	tests := []struct{ server, want string }{
		{"length", llm.FinishLength}, {"max_tokens", llm.FinishLength}, {"stop", llm.FinishStop},
		{"end_turn", llm.FinishStop}, {"tool_calls", llm.FinishToolCalls}, {"content_filter", llm.FinishContentFilter},
		{"something_new", "something_new"},
	}
	for _, tt := range tests {
		srv, _, _ := rawServer(t, delta(`{"content":"partial"}`), `{"choices":[{"index":0,"delta":{},"finish_reason":"`+tt.server+`"}]}`, "[DONE]")
		resp, _, _, err := streamAll(t, rawClient(srv.URL))
		if err != nil || resp.FinishReason != tt.want || resp.Text != "partial" {
			t.Errorf("%s: finish %q text %q err %v, want %q", tt.server, resp.FinishReason, resp.Text, err, tt.want)
		}
	}
	// Cut while writing a tool call: the partial call is returned with
	// the reason, for the engine to refuse.
	srv, _, _ := rawServer(t, delta(`{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"write_file","arguments":"{\"path\":\"a\",\"content\":\"lo"}}]}`),
		`{"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}`, "[DONE]")
	resp, _, _, err := streamAll(t, rawClient(srv.URL))
	if err != nil || resp.FinishReason != llm.FinishLength || len(resp.ToolCalls) != 1 || json.Valid([]byte(resp.ToolCalls[0].Arguments)) {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

func TestLenientToolCallFragments(t *testing.T) {
	srv, _, _ := rawServer(t,
		delta(`{"tool_calls":[{"index":"0","id":"a","type":"function","function":{"name":"grep","arguments":{"pattern":"x"}}}]}`),
		delta(`{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"glob","arguments":null}}]}`),
		delta(`{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]}`),
		`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, "[DONE]")
	resp, _, _, err := streamAll(t, rawClient(srv.URL))
	if err != nil || len(resp.ToolCalls) != 2 || resp.ToolCalls[0].Arguments != `{"pattern":"x"}` || resp.ToolCalls[1].Arguments != "{}" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

func TestWholeAnswerWithContentParts(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"hm"}]},{"type":"text","text":"Whole."}],`+
			`"tool_calls":[{"type":"function","function":{"name":"a","arguments":"{}"}},{"type":"function","function":{"name":"b","arguments":"{}"}}]},"finish_reason":"length"}],`+
			`"x_groq":{"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}}`)
	}))
	defer srv.Close()
	resp, _, _, err := streamAll(t, rawClient(srv.URL))
	if err != nil || resp.Text != "Whole." || resp.Reasoning != "hm" || resp.FinishReason != llm.FinishLength || resp.Usage == nil || resp.Usage.TotalTokens != 7 {
		t.Fatalf("resp %+v err %v", resp, err)
	}
	// Two calls without ids or indexes stay two calls.
	if len(resp.ToolCalls) != 2 || resp.ToolCalls[0].Name != "a" || resp.ToolCalls[1].Name != "b" {
		t.Fatalf("calls %+v", resp.ToolCalls)
	}
}

// FuzzChunk feeds arbitrary events to the decoder: it never panics, and
// what it hands out to be shown is exactly what the response keeps.
func FuzzChunk(f *testing.F) {
	for _, s := range []string{
		delta(`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"a"}]},{"type":"text","text":"b"}]}`),
		delta(`{"content":"<think>x</think>y","reasoning":{"text":"r"},"refusal":"no"}`),
		delta(`{"tool_calls":[{"index":"1","id":"c","function":{"name":"n","arguments":{"k":1}}}]}`),
		`{"choices":[],"usage":{"prompt_tokens":1.5},"x_groq":{"usage":{"total_tokens":3}},"error":{"code":429,"message":"try again in 2s"}}`,
		`{"choices":[{"delta":{"content":{"type":"refusal","refusal":"r"}},"finish_reason":"length"}]}`,
		`[DONE]`, `{"error":"x"}`, `null`, `{}`,
	} {
		f.Add(s, `{"content":[{"type":"text","text":"more"}]}`)
	}
	f.Fuzz(func(t *testing.T, first, second string) {
		var a assembler
		var text, reasoning strings.Builder
		for _, ev := range []string{first, delta(second), second} {
			d, done, _ := a.Event([]byte(ev))
			text.WriteString(d.Text)
			reasoning.WriteString(d.Reasoning)
			if done {
				break
			}
		}
		rest := a.flush()
		text.WriteString(rest.Text)
		reasoning.WriteString(rest.Reasoning)
		r := a.Response()
		if r.Text != text.String() || r.Reasoning != reasoning.String() {
			t.Fatalf("shown %q / %q, kept %q / %q", text.String(), reasoning.String(), r.Text, r.Reasoning)
		}
	})
}

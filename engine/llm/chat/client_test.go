package chat

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/testserver"
)

// waits records backoff waits instead of sitting them out.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	return ctx.Err()
}

func (w *waits) get() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

func start(t *testing.T, script testserver.Script) *testserver.Server {
	t.Helper()
	srv, err := testserver.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func client(srv *testserver.Server, w *waits, mod func(*Config)) *Client {
	cfg := Config{BaseURL: srv.URL(), APIKey: "k", TransportConfig: llm.TransportConfig{Rand: func() float64 { return 0 }}}
	if w != nil {
		cfg.Sleep = w.sleep
	}
	if mod != nil {
		mod(&cfg)
	}
	return New(cfg)
}

func simpleRequest() llm.Request {
	return llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}
}

func TestStreamTextReasoningUsage(t *testing.T) {
	for _, field := range []string{"reasoning_content", "reasoning"} {
		t.Run(field, func(t *testing.T) {
			srv := start(t, testserver.Script{Responses: []testserver.Response{{
				Reasoning: []string{"think", "ing"}, ReasoningField: field,
				Text:  testserver.Chunks("Hello, 世界!", 2),
				Usage: &testserver.Usage{PromptTokens: 12, CompletionTokens: 5},
			}}})
			var text, reasoning strings.Builder
			resp, err := client(srv, nil, nil).Stream(context.Background(), simpleRequest(), llm.Handler{
				Text:      func(s string) { text.WriteString(s) },
				Reasoning: func(s string) { reasoning.WriteString(s) },
			})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != "Hello, 世界!" || text.String() != resp.Text {
				t.Errorf("text %q, streamed %q", resp.Text, text.String())
			}
			if resp.Reasoning != "thinking" || reasoning.String() != "thinking" {
				t.Errorf("reasoning %q, streamed %q", resp.Reasoning, reasoning.String())
			}
			if resp.Usage == nil || resp.Usage.PromptTokens != 12 || resp.Usage.CompletionTokens != 5 || resp.Usage.TotalTokens != 17 {
				t.Errorf("usage %+v", resp.Usage)
			}
			if resp.FinishReason != "stop" || resp.Attempts != 1 {
				t.Errorf("finish %q attempts %d", resp.FinishReason, resp.Attempts)
			}
		})
	}
}

func TestRequestBody(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{testserver.Text("ok")}})
	req := simpleRequest()
	req.Tools = []llm.ToolSpec{{Name: "read_file", Description: "read", Schema: json.RawMessage(`{"type":"object"}`)}}
	if _, err := client(srv, nil, nil).Stream(context.Background(), req, llm.Handler{}); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	if !got.Stream || !got.IncludeUsage || got.Model != "m" || len(got.Tools) != 1 || got.Tools[0].Function.Name != "read_file" {
		t.Errorf("request %+v", got)
	}
	if got.Header.Get("Authorization") != "Bearer k" {
		t.Errorf("authorization %q", got.Header.Get("Authorization"))
	}
}

func TestToolCallsAssembledFromSplitDeltas(t *testing.T) {
	args1 := `{"path":"a/b.go","limit":10}`
	args2 := `{"command":"go test ./... -run 'X|Y'"}`
	srv := start(t, testserver.Script{Responses: []testserver.Response{{
		Text: []string{"Let me look."},
		ToolCalls: []testserver.ToolCall{
			{ID: "c1", Name: "read_file", Arguments: args1, Split: 7},
			{ID: "c2", Name: "shell", Arguments: args2, Split: 11},
		},
	}}})
	resp, err := client(srv, nil, nil).Stream(context.Background(), simpleRequest(), llm.Handler{})
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: args1}, {ID: "c2", Name: "shell", Arguments: args2}}
	if len(resp.ToolCalls) != 2 || resp.ToolCalls[0] != want[0] || resp.ToolCalls[1] != want[1] {
		t.Fatalf("calls %+v, want %+v", resp.ToolCalls, want)
	}
	if resp.FinishReason != "tool_calls" || resp.Text != "Let me look." {
		t.Errorf("finish %q text %q", resp.FinishReason, resp.Text)
	}
}

func TestAssemblerWithoutIndex(t *testing.T) {
	var a assembler
	for _, c := range []string{
		`{"choices":[{"delta":{"tool_calls":[{"id":"x","type":"function","function":{"name":"grep","arguments":"{\"pat"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"tern\":\"a\"}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"id":"y","type":"function","function":{"name":"glob","arguments":"{}"}}]}}]}`,
	} {
		if _, err := a.add([]byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	r := a.Response()
	if len(r.ToolCalls) != 2 || r.ToolCalls[0].Arguments != `{"pattern":"a"}` || r.ToolCalls[1].Name != "glob" {
		t.Fatalf("%+v", r.ToolCalls)
	}
}

func TestRetries(t *testing.T) {
	ok := testserver.Text("fine")
	tests := []struct {
		name      string
		responses []testserver.Response
		wantErr   llm.Kind
		wantCalls int
		wantWaits []time.Duration
	}{
		{"503 twice then ok", []testserver.Response{testserver.Fail(503, "busy"), testserver.Fail(503, "busy"), ok},
			"", 3, []time.Duration{time.Second, 2 * time.Second}},
		{"503 four times", []testserver.Response{testserver.Fail(503, "a"), testserver.Fail(503, "b"), testserver.Fail(503, "c"), testserver.Fail(503, "d"), ok},
			llm.KindServer, 4, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}},
		{"500 then ok", []testserver.Response{testserver.Fail(500, "oops"), ok}, "", 2, []time.Duration{time.Second}},
		{"429 try again hint", []testserver.Response{testserver.Fail(429, "Rate limit reached. Please try again in 29.159s."), ok},
			"", 2, []time.Duration{30159 * time.Millisecond}},
		{"429 without hint", []testserver.Response{testserver.Fail(429, "slow down"), testserver.Fail(429, "slow down"), ok},
			"", 3, []time.Duration{30 * time.Second, 30 * time.Second}},
		{"429 Retry-After header", []testserver.Response{{Status: 429, Error: "slow down", RetryAfter: "5"}, ok},
			"", 2, []time.Duration{6 * time.Second}},
		{"429 long hint is capped", []testserver.Response{testserver.Fail(429, "try again in 90s"), ok},
			"", 2, []time.Duration{60 * time.Second}},
		{"401 never retried", []testserver.Response{testserver.Fail(401, "bad key"), ok}, llm.KindAuth, 1, nil},
		{"403 never retried", []testserver.Response{testserver.Fail(403, "Forbidden"), ok}, llm.KindAuth, 1, nil},
		{"403 quota", []testserver.Response{{Status: 403, Error: "You exceeded your quota", Code: "insufficient_quota"}, ok}, llm.KindQuota, 1, nil},
		{"404 never retried", []testserver.Response{testserver.Fail(404, "no such model"), ok}, llm.KindModelNotFound, 1, nil},
		{"400 never retried", []testserver.Response{testserver.Fail(400, "unknown parameter foo"), ok}, llm.KindInvalidRequest, 1, nil},
		{"400 context overflow", []testserver.Response{{Status: 400, Error: "This model's maximum context length is 8192 tokens", Code: "context_length_exceeded"}, ok},
			llm.KindContextOverflow, 1, nil},
		{"malformed event then ok", []testserver.Response{{Text: []string{"x"}, Fault: testserver.FaultMalformed}, ok}, "", 2, []time.Duration{time.Second}},
		{"cut before any text then ok", []testserver.Response{{Text: []string{"x"}, Fault: testserver.FaultCut, FaultAfter: 1}, ok}, "", 2, []time.Duration{time.Second}},
		{"no finish then ok", []testserver.Response{{Fault: testserver.FaultNoFinish}, ok}, "", 2, []time.Duration{time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, testserver.Script{Responses: tt.responses})
			w := &waits{}
			var retries int
			resp, err := client(srv, w, nil).Stream(context.Background(), simpleRequest(), llm.Handler{
				Retry: func(int, time.Duration, *llm.Error) { retries++ },
			})
			if llm.KindOf(err) != tt.wantErr {
				t.Fatalf("error %v (kind %q), want kind %q", err, llm.KindOf(err), tt.wantErr)
			}
			if err == nil && resp.Text != "fine" {
				t.Errorf("text %q", resp.Text)
			}
			if n := len(srv.Requests()); n != tt.wantCalls {
				t.Errorf("%d requests, want %d", n, tt.wantCalls)
			}
			got := w.get()
			if len(got) != len(tt.wantWaits) || retries != len(tt.wantWaits) {
				t.Fatalf("waits %v (%d retries told), want %v", got, retries, tt.wantWaits)
			}
			for i := range got {
				if got[i] != tt.wantWaits[i] {
					t.Errorf("wait %d = %v, want %v", i, got[i], tt.wantWaits[i])
				}
			}
		})
	}
}

func TestNoRetryAfterTextWasShown(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{
		{Text: []string{"partial ", "answer"}, Fault: testserver.FaultCut, FaultAfter: 2},
		testserver.Text("second"),
	}})
	w := &waits{}
	var shown strings.Builder
	resp, err := client(srv, w, nil).Stream(context.Background(), simpleRequest(), llm.Handler{Text: func(s string) { shown.WriteString(s) }})
	if llm.KindOf(err) != llm.KindStream {
		t.Fatalf("error %v, want a stream error", err)
	}
	if len(srv.Requests()) != 1 || len(w.get()) != 0 {
		t.Errorf("retried after text was shown: %d requests", len(srv.Requests()))
	}
	if shown.String() != "partial " || resp.Text != "partial " {
		t.Errorf("shown %q, partial response %q", shown.String(), resp.Text)
	}
}

func TestTimeouts(t *testing.T) {
	tests := []struct {
		name string
		resp testserver.Response
		want string
	}{
		{"slow first token", testserver.Response{Text: []string{"late"}, FirstDelay: testserver.Duration(time.Minute)}, "accepted the request but sent nothing for 100ms"},
		{"hang mid-stream", testserver.Response{Text: []string{"a", "b"}, Fault: testserver.FaultHang, FaultAfter: 1}, "stalled: no event for 100ms"},
		{"hang before anything", testserver.Response{Fault: testserver.FaultHang}, "accepted the request but sent nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, testserver.Script{Responses: []testserver.Response{tt.resp}})
			c := client(srv, nil, func(c *Config) {
				c.Timeouts = llm.Timeouts{FirstToken: 100 * time.Millisecond, Idle: 100 * time.Millisecond}
				c.Retry = llm.RetryPolicy{MaxRetries: -1}
			})
			begin := time.Now()
			_, err := c.Stream(context.Background(), simpleRequest(), llm.Handler{})
			if llm.KindOf(err) != llm.KindTimeout || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want a timeout saying %q", err, tt.want)
			}
			if d := time.Since(begin); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestTimeoutIsRetried(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{
		{Text: []string{"late"}, FirstDelay: testserver.Duration(time.Minute)},
		testserver.Text("fine"),
	}})
	w := &waits{}
	c := client(srv, w, func(c *Config) { c.Timeouts = llm.Timeouts{FirstToken: 300 * time.Millisecond} })
	resp, err := c.Stream(context.Background(), simpleRequest(), llm.Handler{})
	if err != nil || resp.Text != "fine" || resp.Attempts != 2 {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

func TestCallLimit(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{{Text: []string{"a", "b", "c", "d"}, Pace: testserver.Duration(40 * time.Millisecond)}}})
	c := client(srv, nil, func(c *Config) {
		c.Timeouts = llm.Timeouts{Call: 60 * time.Millisecond}
		c.Retry = llm.RetryPolicy{MaxRetries: -1}
	})
	_, err := c.Stream(context.Background(), simpleRequest(), llm.Handler{})
	if llm.KindOf(err) != llm.KindTimeout || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("error %v", err)
	}
}

func TestCancelClosesStream(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{{Text: []string{"a"}, Fault: testserver.FaultHang, FaultAfter: 2}}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := client(srv, nil, nil).Stream(ctx, simpleRequest(), llm.Handler{Text: func(string) { cancel() }})
		done <- err
	}()
	select {
	case err := <-done:
		if llm.KindOf(err) != llm.KindCancelled || !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want cancelled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancel did not reach the stream")
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{testserver.Fail(503, "busy"), testserver.Text("x")}})
	ctx, cancel := context.WithCancel(context.Background())
	c := client(srv, nil, func(c *Config) { c.Retry = llm.RetryPolicy{MaxRetries: 3, Initial: time.Hour} })
	_, err := c.Stream(ctx, simpleRequest(), llm.Handler{Retry: func(int, time.Duration, *llm.Error) { cancel() }})
	if llm.KindOf(err) != llm.KindCancelled {
		t.Fatalf("error %v", err)
	}
}

func TestErrorInsideStream(t *testing.T) {
	var a assembler
	_, err := a.add([]byte(`{"error":{"message":"maximum context length exceeded","code":"context_length_exceeded"}}`))
	if !llm.IsContextOverflow(err) {
		t.Fatalf("error %v, want context overflow", err)
	}
}

func TestNetworkErrorRetried(t *testing.T) {
	w := &waits{}
	// Nothing listens on port 1 of localhost: connection refused.
	c := New(Config{BaseURL: "http://127.0.0.1:1/v1", TransportConfig: llm.TransportConfig{Sleep: w.sleep, Rand: func() float64 { return 0 }}})
	_, err := c.Stream(context.Background(), simpleRequest(), llm.Handler{})
	if llm.KindOf(err) != llm.KindNetwork || len(w.get()) != 3 {
		t.Fatalf("error %v after waits %v", err, w.get())
	}
}

func TestNonStreamingAnswerIsAccepted(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"<think>hm</think>Whole.","tool_calls":[{"id":"c1","type":"function","function":{"name":"grep","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var shown string
	resp, err := New(Config{BaseURL: srv.URL + "/v1"}).Stream(context.Background(), simpleRequest(), llm.Handler{Text: func(s string) { shown += s }})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Whole." || shown != "Whole." || resp.Reasoning != "hm" || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != "grep" || resp.Usage.TotalTokens != 7 {
		t.Fatalf("%+v", resp)
	}
}

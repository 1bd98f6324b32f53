package responses

import (
	"context"
	"encoding/json"
	"errors"
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

func start(t *testing.T, script testserver.Script) *testserver.Server {
	t.Helper()
	srv, err := testserver.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func client(srv *testserver.Server, w *waits) *Client {
	cfg := Config{BaseURL: srv.URL(), APIKey: "k", Reasoning: true, TransportConfig: llm.TransportConfig{Rand: func() float64 { return 0 }}}
	if w != nil {
		cfg.Sleep = w.sleep
	}
	return New(cfg)
}

func prompt(text string) llm.Request {
	return llm.Request{Model: "gpt-x", System: "Be brief.", Messages: []llm.Message{{Role: llm.RoleUser, Content: text}},
		Tools: []llm.ToolSpec{{Name: "read_file", Schema: json.RawMessage(`{"type":"object"}`)}}}
}

// A two-tool turn with reasoning: the reasoning item's encrypted content
// goes back with the results, and the server (which stores nothing and
// checks what it sealed) accepts the second request.
func TestTwoToolTurnWithReasoning(t *testing.T) {
	srv := start(t, testserver.Script{APIKey: "k", Responses: []testserver.Response{
		{Reasoning: []string{"Read ", "both."}, Text: []string{"Reading."}, ToolCalls: []testserver.ToolCall{
			{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.go"}`, Split: 3},
			{ID: "call_b", Name: "read_file", Arguments: `{"path":"b.go"}`},
		}, Usage: &testserver.Usage{PromptTokens: 1200, CompletionTokens: 80, CacheReadTokens: 1024, ReasoningTokens: 40}},
		{Reasoning: []string{"Same."}, Text: []string{"They match."}},
	}})
	c := client(srv, nil)
	req := prompt("compare a.go and b.go")
	var think strings.Builder
	resp, err := c.Stream(context.Background(), req, llm.Handler{Reasoning: func(s string) { think.WriteString(s) }})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Reasoning != "Read both." || think.String() != resp.Reasoning || len(resp.ToolCalls) != 2 || resp.FinishReason != llm.FinishToolCalls || len(resp.State) != 1 {
		t.Fatalf("first answer %+v", resp)
	}
	if u := resp.Usage; u.PromptTokens != 1200 || u.CacheReadTokens != 1024 || u.ReasoningTokens != 40 {
		t.Fatalf("usage %+v", u)
	}
	req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, Content: resp.Text, State: resp.State, Calls: resp.ToolCalls},
		llm.Message{Role: llm.RoleTool, CallID: "call_a", Content: "package a"},
		llm.Message{Role: llm.RoleTool, CallID: "call_b", Content: "package b"})
	resp, err = c.Stream(context.Background(), req, llm.Handler{})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "They match." || resp.FinishReason != llm.FinishStop {
		t.Fatalf("second answer %+v", resp)
	}
	second := srv.Requests()[1]
	msgs := second.Messages
	if len(msgs) != 5 || msgs[0].Role != "system" || msgs[2].ReasoningContent != "Read both." || len(msgs[2].ToolCalls) != 2 || msgs[4].ToolCallID != "call_b" {
		t.Fatalf("the server saw %+v", msgs)
	}
	for _, want := range []string{`"store":false`, `"include":["reasoning.encrypted_content"]`, `"summary":"auto"`} {
		if !strings.Contains(string(second.Body), want) {
			t.Errorf("body lacks %s: %s", want, second.Body)
		}
	}

	// Content the server did not seal is refused.
	var saved savedReasoning
	_ = json.Unmarshal(req.Messages[1].State[0].Data, &saved)
	saved.Item = json.RawMessage(`{"type":"reasoning","summary":[],"encrypted_content":"enc_forged.x"}`)
	req.Messages[1].State[0].Data, _ = json.Marshal(saved)
	if _, err := c.Stream(context.Background(), req, llm.Handler{}); llm.KindOf(err) != llm.KindInvalidRequest {
		t.Fatalf("forged reasoning: %v", err)
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
		{"429 with Retry-After then ok", []testserver.Response{{Status: 429, Error: "Rate limit reached", RetryAfter: "4"}, ok}, "", 2, []time.Duration{5 * time.Second}},
		{"503 then ok", []testserver.Response{testserver.Fail(503, "busy"), ok}, "", 2, []time.Duration{time.Second}},
		{"failed in the stream before any text", []testserver.Response{{Fault: testserver.FaultError, FaultAfter: 1, Error: "The server had an error"}, ok}, "", 2, []time.Duration{time.Second}},
		{"rate limited in the stream", []testserver.Response{{Fault: testserver.FaultError, FaultAfter: 1, Code: "rate_limit_exceeded", Error: "Please try again in 3s."}, ok}, "", 2, []time.Duration{4 * time.Second}},
		{"cut before any text", []testserver.Response{{Text: []string{"x"}, Fault: testserver.FaultCut, FaultAfter: 1}, ok}, "", 2, []time.Duration{time.Second}},
		{"no completion", []testserver.Response{{Fault: testserver.FaultNoFinish}, ok}, "", 2, []time.Duration{time.Second}},
		{"the same malformed event twice is the server's answer", []testserver.Response{{Fault: testserver.FaultMalformed}, {Fault: testserver.FaultMalformed}, ok}, llm.KindStream, 2, []time.Duration{time.Second}},
		{"401 never retried", []testserver.Response{{Status: 401, Error: "Incorrect API key provided"}, ok}, llm.KindAuth, 1, nil},
		{"unknown model", []testserver.Response{{Status: 404, Error: "The model `gpt-nope` does not exist", Code: "model_not_found"}, ok}, llm.KindModelNotFound, 1, nil},
		{"context too long", []testserver.Response{{Status: 400, Error: "Your input exceeds the context window of this model.", Code: "context_length_exceeded"}, ok}, llm.KindContextOverflow, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, testserver.Script{Responses: tt.responses})
			w := &waits{}
			resp, err := client(srv, w).Stream(context.Background(), prompt("hi"), llm.Handler{})
			if llm.KindOf(err) != tt.wantErr {
				t.Fatalf("error %v (kind %q), want kind %q", err, llm.KindOf(err), tt.wantErr)
			}
			if err == nil && resp.Text != "fine" {
				t.Errorf("text %q", resp.Text)
			}
			if n := len(srv.Requests()); n != tt.wantCalls {
				t.Errorf("%d requests, want %d", n, tt.wantCalls)
			}
			if got := w.d; len(got) != len(tt.wantWaits) || (len(got) > 0 && got[0] != tt.wantWaits[0]) {
				t.Errorf("waits %v, want %v", got, tt.wantWaits)
			}
		})
	}
}

func TestErrorAfterTextIsNotRetried(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{
		{Text: []string{"partial ", "answer"}, Fault: testserver.FaultError, FaultAfter: 5},
		testserver.Text("second"),
	}})
	resp, err := client(srv, &waits{}).Stream(context.Background(), prompt("hi"), llm.Handler{Text: func(string) {}})
	if llm.KindOf(err) != llm.KindServer || resp.Text != "partial answer" || len(srv.Requests()) != 1 {
		t.Fatalf("err %v, text %q, %d requests", err, resp.Text, len(srv.Requests()))
	}
}

func TestTruncation(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{{Text: []string{"Half"}, FinishReason: "length"}}})
	resp, err := client(srv, nil).Stream(context.Background(), prompt("hi"), llm.Handler{})
	if err != nil || resp.FinishReason != llm.FinishLength || resp.Text != "Half" {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
}

func TestCancelClosesStream(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{{Text: []string{"a"}, Fault: testserver.FaultHang, FaultAfter: 4}}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := client(srv, nil).Stream(ctx, prompt("hi"), llm.Handler{Text: func(string) { cancel() }})
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

// Pointed at a chat-completions-only server (no /responses route), the
// client says the endpoint is wrong after one request.
func TestChatOnlyEndpoint(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{testserver.Text("x")}})
	c := New(Config{BaseURL: srv.Root() + "/v2", APIKey: "k", TransportConfig: llm.TransportConfig{Sleep: (&waits{}).sleep}})
	_, err := c.Stream(context.Background(), prompt("hi"), llm.Handler{})
	if llm.KindOf(err) != llm.KindEndpoint {
		t.Fatalf("error %v (kind %q)", err, llm.KindOf(err))
	}
}

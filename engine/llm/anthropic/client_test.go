package anthropic

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
	cfg := Config{BaseURL: srv.Root(), APIKey: "k", MaxTokens: 16000, ThinkingBudget: 4096,
		TransportConfig: llm.TransportConfig{Rand: func() float64 { return 0 }}}
	if w != nil {
		cfg.Sleep = w.sleep
	}
	return New(cfg)
}

func prompt(text string) llm.Request {
	return llm.Request{Model: "claude-x", System: "Be brief.", Messages: []llm.Message{{Role: llm.RoleUser, Content: text}},
		Tools: []llm.ToolSpec{{Name: "read_file", Schema: json.RawMessage(`{"type":"object"}`)}}}
}

// A two-tool turn with thinking: the calls run, their results and the
// signed thinking go back, and the server (which checks signatures and
// the tool_use/tool_result pairing) accepts the second request.
func TestTwoToolTurnWithThinking(t *testing.T) {
	srv := start(t, testserver.Script{APIKey: "k", Responses: []testserver.Response{
		{Reasoning: []string{"Read ", "both."}, Text: []string{"Reading."}, ToolCalls: []testserver.ToolCall{
			{ID: "toolu_a", Name: "read_file", Arguments: `{"path":"a.go"}`, Split: 3},
			{ID: "toolu_b", Name: "read_file", Arguments: `{"path":"b.go"}`},
		}, Usage: &testserver.Usage{PromptTokens: 1200, CompletionTokens: 80, CacheReadTokens: 1000, CacheWriteTokens: 150}},
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
	if u := resp.Usage; u.PromptTokens != 1200 || u.CacheReadTokens != 1000 || u.CacheWriteTokens != 150 || u.CompletionTokens != 80 {
		t.Fatalf("usage %+v", u)
	}
	req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, Content: resp.Text, Reasoning: resp.Reasoning, State: resp.State, Calls: resp.ToolCalls},
		llm.Message{Role: llm.RoleTool, CallID: "toolu_a", Content: "package a"},
		llm.Message{Role: llm.RoleTool, CallID: "toolu_b", Content: "no such file", IsError: true})
	resp, err = c.Stream(context.Background(), req, llm.Handler{})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "They match." || resp.FinishReason != llm.FinishStop {
		t.Fatalf("second answer %+v", resp)
	}
	second := srv.Requests()[1]
	if second.Header.Get("anthropic-version") != APIVersion || second.Header.Get("x-api-key") != "k" {
		t.Fatalf("headers %v", second.Header)
	}
	msgs := second.Messages
	if len(msgs) != 5 || msgs[0].Role != "system" || msgs[2].ReasoningContent != "Read both." || msgs[3].ToolCallID != "toolu_a" || msgs[4].Content != "no such file" {
		t.Fatalf("the server saw %+v", msgs)
	}
	if !strings.Contains(string(second.Body), `"is_error":true`) {
		t.Errorf("is_error not sent: %s", second.Body)
	}

	// Altered thinking is refused, as the real API refuses it.
	var saved savedThinking
	_ = json.Unmarshal(req.Messages[1].State[0].Data, &saved)
	saved.Block = json.RawMessage(strings.Replace(string(saved.Block), "Read both.", "Read one.", 1))
	req.Messages[1].State[0].Data, _ = json.Marshal(saved)
	if _, err := c.Stream(context.Background(), req, llm.Handler{}); llm.KindOf(err) != llm.KindInvalidRequest || !strings.Contains(err.Error(), "signature") {
		t.Fatalf("altered thinking: %v", err)
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
		{"the same malformed event twice is the server's answer", []testserver.Response{{Fault: testserver.FaultMalformed}, {Fault: testserver.FaultMalformed}, ok}, llm.KindStream, 2, []time.Duration{time.Second}},
		{"529 with Retry-After then ok", []testserver.Response{{Status: 529, Error: "Overloaded", RetryAfter: "2"}, ok}, "", 2, []time.Duration{3 * time.Second}},
		{"429 with Retry-After then ok", []testserver.Response{{Status: 429, Error: "Number of request tokens has exceeded your per-minute rate limit", RetryAfter: "7"}, ok}, "", 2, []time.Duration{8 * time.Second}},
		{"overloaded in the stream before any text", []testserver.Response{{Fault: testserver.FaultError, FaultAfter: 2}, ok}, "", 2, []time.Duration{time.Second}},
		{"cut before any text", []testserver.Response{{Text: []string{"x"}, Fault: testserver.FaultCut, FaultAfter: 2}, ok}, "", 2, []time.Duration{time.Second}},
		{"malformed then ok", []testserver.Response{{Text: []string{"x"}, Fault: testserver.FaultMalformed, FaultAfter: 1}, ok}, "", 2, []time.Duration{time.Second}},
		{"401 never retried", []testserver.Response{{Status: 401, Error: "invalid x-api-key"}, ok}, llm.KindAuth, 1, nil},
		{"unknown model", []testserver.Response{{Status: 404, Error: "model: claude-nope"}, ok}, llm.KindModelNotFound, 1, nil},
		{"prompt too long", []testserver.Response{{Status: 400, Error: "prompt is too long: 201000 tokens > 200000 maximum"}, ok}, llm.KindContextOverflow, 1, nil},
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

// Once text was shown, an error in the stream ends the call with what
// was received: a retry would show a second answer.
func TestErrorAfterTextIsNotRetried(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{
		{Text: []string{"partial ", "answer"}, Fault: testserver.FaultError, FaultAfter: 5, Code: "api_error", Error: "Internal server error"},
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

// Pointed at a server that speaks only OpenAI's protocols, the client
// says the endpoint is wrong after one request.
func TestOtherProtocolsEndpoint(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{testserver.Text("x")}})
	c := New(Config{BaseURL: srv.URL() + "/chat", APIKey: "k", TransportConfig: llm.TransportConfig{Sleep: (&waits{}).sleep}})
	_, err := c.Stream(context.Background(), prompt("hi"), llm.Handler{})
	if llm.KindOf(err) != llm.KindEndpoint {
		t.Fatalf("error %v (kind %q)", err, llm.KindOf(err))
	}
}

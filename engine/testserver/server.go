package testserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Request is one request the server received, in chat completions' terms
// whatever protocol it came in: the system prompt is the first message,
// an assistant message's reasoning (thinking, or a reasoning summary it
// was sent back with) is its ReasoningContent, and tool results are tool
// messages. Body holds the request as sent.
type Request struct {
	// Protocol is the route it came to: "openai" (chat completions),
	// "responses" or "anthropic".
	Protocol string
	Model    string
	Messages []Message
	Tools    []Tool
	// Stream and IncludeUsage echo the request's stream settings.
	Stream       bool
	IncludeUsage bool
	MaxTokens    int
	Header       http.Header
	Body         []byte // the raw JSON body
}

// LastMessage returns the request's last message, or a zero message.
func (r Request) LastMessage() Message {
	if len(r.Messages) == 0 {
		return Message{}
	}
	return r.Messages[len(r.Messages)-1]
}

// Server is a running scripted server.
type Server struct {
	script Script
	ln     net.Listener
	srv    *http.Server
	done   chan struct{}
	once   sync.Once

	mu       sync.Mutex
	requests []Request
	served   int // requests past the key check: the script's index
}

// Start serves script on 127.0.0.1 at a free port.
func Start(script Script) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start test server: %w", err)
	}
	s := &Server{script: script, ln: ln, done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.serve(chatWire{}))
	mux.HandleFunc("POST /v1/responses", s.serve(responsesWire{}))
	mux.HandleFunc("POST /v1/messages", s.serve(anthropicWire{}))
	mux.HandleFunc("GET /v1/models", s.models)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// URL is the base URL to use as OPENAI_BASE_URL (it ends in /v1), for
// chat completions and the Responses API.
func (s *Server) URL() string { return s.Root() + "/v1" }

// Root is the server's address without a path: the base URL of an
// Anthropic-type provider, which appends /v1/messages.
func (s *Server) Root() string { return "http://" + s.ln.Addr().String() }

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Close stops the server and releases every hanging response.
func (s *Server) Close() error {
	s.once.Do(func() { close(s.done) })
	return s.srv.Close()
}

func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"object":"list","data":[{"id":"test-model","object":"model","owned_by":"quire"}]}`)
}

// wire is one protocol's side of the server: how requests read, how
// errors and answers are written.
type wire interface {
	protocol() string
	// parse reads a request body, refusing what the real API refuses.
	parse(body []byte, h http.Header) (Request, *refusal)
	authorised(h http.Header, key string) bool
	writeError(w http.ResponseWriter, status int, msg, code, retryAfter string)
	// events renders resp as the stream's events.
	events(model string, resp Response) []string
	// malformed is an event whose data is not JSON; failed is an error
	// event inside the stream; done closes a stream ("" for none).
	malformed() string
	failed(resp Response) string
	done() string
}

// refusal is a request the real API would refuse.
type refusal struct {
	status    int
	msg, code string
}

// serve answers one protocol's requests from the script.
func (s *Server) serve(wr wire) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			wr.writeError(w, http.StatusBadRequest, "read body: "+err.Error(), "", "")
			return
		}
		req, bad := wr.parse(body, r.Header)
		req.Protocol, req.Header, req.Body = wr.protocol(), r.Header.Clone(), body
		authorised := s.script.APIKey == "" || wr.authorised(r.Header, s.script.APIKey)
		s.mu.Lock()
		s.requests = append(s.requests, req)
		n := s.served
		if authorised && bad == nil {
			s.served++
		}
		s.mu.Unlock()
		if !authorised {
			wr.writeError(w, http.StatusUnauthorized, "Incorrect API key provided.", "invalid_api_key", "")
			return
		}
		if bad != nil {
			wr.writeError(w, bad.status, bad.msg, bad.code, "")
			return
		}
		var resp Response
		switch {
		case s.script.Respond != nil:
			resp = s.script.Respond(n, req)
		case n < len(s.script.Responses):
			resp = s.script.Responses[n]
		default:
			wr.writeError(w, http.StatusBadRequest, fmt.Sprintf("the test script has no response for request %d", n+1), "script_exhausted", "")
			return
		}
		if resp.Status != 0 && resp.Status != http.StatusOK {
			wr.writeError(w, resp.Status, resp.Error, resp.Code, resp.RetryAfter)
			return
		}
		s.stream(w, r, wr, req.Model, resp)
	}
}

// chatWire is OpenAI chat completions.
type chatWire struct{}

func (chatWire) protocol() string { return "openai" }

func (chatWire) parse(body []byte, _ http.Header) (Request, *refusal) {
	var creq chatRequest
	if err := json.Unmarshal(body, &creq); err != nil {
		return Request{}, &refusal{http.StatusBadRequest, "the body is not a chat completion request: " + err.Error(), ""}
	}
	req := Request{
		Model: creq.Model, Messages: creq.Messages, Tools: creq.Tools,
		Stream: creq.Stream, MaxTokens: max(creq.MaxCompletionTokens, creq.MaxTokens),
	}
	if creq.StreamOptions != nil {
		req.IncludeUsage = creq.StreamOptions.IncludeUsage
	}
	return req, nil
}

func (chatWire) authorised(h http.Header, key string) bool {
	return h.Get("Authorization") == "Bearer "+key
}

func (chatWire) writeError(w http.ResponseWriter, status int, msg, code, retryAfter string) {
	writeError(w, status, msg, code, retryAfter)
}

func (chatWire) events(model string, resp Response) []string { return chunks(model, resp) }

func (chatWire) malformed() string {
	return "data: {\"choices\": [{\"delta\": {\"content\": \"oops\"\n\n"
}

func (chatWire) failed(resp Response) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"message": resp.Error, "code": resp.Code}}) // strings always marshal
	return "data: " + string(b) + "\n\n"
}

func (chatWire) done() string { return "data: [DONE]\n\n" }

func writeError(w http.ResponseWriter, status int, msg, code, retryAfter string) {
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	e := map[string]any{"message": msg, "type": http.StatusText(status)}
	if code != "" {
		e["code"] = code
	}
	json.NewEncoder(w).Encode(map[string]any{"error": e})
}

// stream plays resp as server-sent events.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, wr wire, model string, resp Response) {
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if flusher != nil {
		flusher.Flush()
	}
	events := wr.events(model, resp)
	sent := 0
	for i, ev := range events {
		wait := time.Duration(resp.Pace)
		if i == 0 {
			wait = time.Duration(resp.FirstDelay)
		}
		if !s.pause(r, wait) {
			return
		}
		if resp.Fault != "" && sent == resp.FaultAfter {
			s.fault(w, r, wr, resp)
			return
		}
		if _, err := io.WriteString(w, ev); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		sent++
	}
	if resp.Fault != "" {
		s.fault(w, r, wr, resp)
		return
	}
	io.WriteString(w, wr.done())
}

// pause waits d, reporting false when the client or the server went away.
func (s *Server) pause(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.done:
	}
	return false
}

func (s *Server) fault(w http.ResponseWriter, r *http.Request, wr wire, resp Response) {
	flush := func() {
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
	}
	switch resp.Fault {
	case FaultMalformed:
		io.WriteString(w, wr.malformed())
		flush()
	case FaultError:
		io.WriteString(w, wr.failed(resp))
		flush()
	case FaultCut:
		flush()
		// Aborting the handler closes the connection without the final
		// chunk, which a client sees as an unexpected EOF.
		panic(http.ErrAbortHandler)
	case FaultHang:
		flush()
		select {
		case <-r.Context().Done():
		case <-s.done:
		}
	case FaultNoFinish:
		flush()
	}
}

// chunks renders resp as the SSE events a streaming server would send.
func chunks(model string, resp Response) []string {
	var out []string
	add := func(choice map[string]any, usage any) {
		c := map[string]any{
			"id": "chatcmpl-test", "object": "chat.completion.chunk",
			"created": 0, "model": model, "choices": []any{},
		}
		if choice != nil {
			c["choices"] = []any{choice}
		}
		if usage != nil {
			c["usage"] = usage
		}
		b, err := json.Marshal(c)
		if err != nil {
			panic(err) // only strings and numbers: cannot fail
		}
		out = append(out, "data: "+string(b)+"\n\n")
	}
	delta := func(d map[string]any) map[string]any {
		return map[string]any{"index": 0, "delta": d, "finish_reason": nil}
	}
	field := resp.ReasoningField
	if field == "" {
		field = "reasoning_content"
	}
	add(delta(map[string]any{"role": "assistant", "content": ""}), nil)
	for _, r := range resp.Reasoning {
		add(delta(map[string]any{field: r}), nil)
	}
	for _, t := range resp.Text {
		add(delta(map[string]any{"content": t}), nil)
	}
	for i, tc := range resp.ToolCalls {
		pieces := splitN(tc.Arguments, tc.Split)
		for j, p := range pieces {
			call := map[string]any{"index": i, "function": map[string]any{"arguments": p}}
			if j == 0 {
				call["id"] = tc.ID
				call["type"] = "function"
				call["function"].(map[string]any)["name"] = tc.Name
			}
			add(delta(map[string]any{"tool_calls": []any{call}}), nil)
		}
	}
	if resp.Fault == FaultNoFinish || resp.Fault == FaultError {
		return out
	}
	finish := resp.FinishReason
	if finish == "" {
		finish = "stop"
		if len(resp.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	add(map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}, nil)
	if u := resp.Usage; u != nil {
		add(nil, map[string]any{
			"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens,
			"total_tokens": u.PromptTokens + u.CompletionTokens,
		})
	}
	return out
}

// splitN cuts s into n pieces of nearly equal size, never inside a
// character; n < 1 means 1.
func splitN(s string, n int) []string {
	if n <= 1 || len(s) == 0 {
		return []string{s}
	}
	size := (len(s) + n - 1) / n
	return Chunks(s, size)
}

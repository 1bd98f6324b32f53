package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Timeouts bound one request. The zero value of a field means its default.
type Timeouts struct {
	// Connect bounds dialling and the TLS handshake (default 10 s).
	Connect time.Duration
	// FirstToken bounds the wait from sending the request to the first
	// event of the stream (default 180 s): a server may queue the request
	// or think for a long while before it starts.
	FirstToken time.Duration
	// Idle bounds the gap between two events of a stream (default 90 s).
	Idle time.Duration
	// Call bounds one request from start to end (default 1200 s).
	Call time.Duration
}

// DefaultTimeouts returns the defaults named on each Timeouts field.
func DefaultTimeouts() Timeouts {
	return Timeouts{Connect: 10 * time.Second, FirstToken: 180 * time.Second, Idle: 90 * time.Second, Call: 1200 * time.Second}
}

func (t Timeouts) withDefaults() Timeouts {
	d := DefaultTimeouts()
	if t.Connect <= 0 {
		t.Connect = d.Connect
	}
	if t.FirstToken <= 0 {
		t.FirstToken = d.FirstToken
	}
	if t.Idle <= 0 {
		t.Idle = d.Idle
	}
	if t.Call <= 0 {
		t.Call = d.Call
	}
	return t
}

// Config configures a Client.
type Config struct {
	// BaseURL is the API root including its version path, e.g.
	// "https://api.openai.com/v1"; "/chat/completions" is appended.
	BaseURL string
	// APIKey is sent as a bearer token when not empty.
	APIKey   string
	Timeouts Timeouts
	Retry    RetryPolicy
	// HTTPClient replaces the default client (whose dialer honours
	// Timeouts.Connect). It must not set an overall Timeout: streams are
	// long.
	HTTPClient *http.Client
	// Sleep replaces the backoff wait; tests use it to record waits
	// instead of sitting them out.
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand returns a number in [0, 1) for jitter; nil uses math/rand.
	Rand func() float64
}

// Client sends chat completion requests. It is safe for concurrent use.
type Client struct {
	url      string
	key      string
	timeouts Timeouts
	retry    RetryPolicy
	http     *http.Client
	sleep    func(ctx context.Context, d time.Duration) error
	rand     func() float64
}

// New returns a client for cfg.
func New(cfg Config) *Client {
	c := &Client{
		url:      strings.TrimRight(cfg.BaseURL, "/") + "/chat/completions",
		key:      cfg.APIKey,
		timeouts: cfg.Timeouts.withDefaults(),
		retry:    cfg.Retry.withDefaults(),
		http:     cfg.HTTPClient,
		sleep:    cfg.Sleep,
		rand:     cfg.Rand,
	}
	if c.http == nil {
		dialer := &net.Dialer{Timeout: c.timeouts.Connect, KeepAlive: 30 * time.Second}
		c.http = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         dialer.DialContext,
			TLSHandshakeTimeout: c.timeouts.Connect,
			ForceAttemptHTTP2:   true,
			MaxIdleConns:        10,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	if c.sleep == nil {
		c.sleep = sleepCtx
	}
	if c.rand == nil {
		c.rand = rand.Float64
	}
	return c
}

// Request is one chat completion call.
type Request struct {
	Model    string
	Messages []openai.ChatCompletionMessage
	Tools    []openai.Tool
	// MaxTokens caps the answer; 0 leaves it to the server.
	MaxTokens int
	// Temperature is sent when not zero.
	Temperature float32
}

// Handler receives a call's progress. Every field may be nil. The
// callbacks run on the caller's goroutine, in stream order.
type Handler struct {
	Text      func(delta string)
	Reasoning func(delta string)
	// Retry is told before each backoff wait.
	Retry func(attempt int, wait time.Duration, err *Error)
}

// ToolCall is one assembled tool call of an answer.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string // as the model wrote them; not necessarily valid JSON
}

// Usage is the token accounting a server reported.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	TotalTokens      int
}

// Response is one complete answer.
type Response struct {
	Text      string
	Reasoning string
	ToolCalls []ToolCall
	// FinishReason is the server's: "stop", "tool_calls", "length",
	// "content_filter", or "" when it sent none.
	FinishReason string
	// Usage is nil when the server did not report it.
	Usage    *Usage
	Attempts int
}

// Body returns the JSON request body for req, as sent.
func Body(req Request) ([]byte, error) {
	r := openai.ChatCompletionRequest{
		Model:         req.Model,
		Messages:      req.Messages,
		Tools:         req.Tools,
		MaxTokens:     req.MaxTokens,
		Temperature:   req.Temperature,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	return json.Marshal(r)
}

// Stream makes one logical call, retrying as the policy allows while
// nothing has been handed to h yet. On failure it returns what was
// received so far together with an *Error.
func (c *Client) Stream(ctx context.Context, req Request, h Handler) (Response, error) {
	body, err := Body(req)
	if err != nil {
		return Response{}, fmt.Errorf("encode the request: %w", err)
	}
	for attempt := 0; ; attempt++ {
		resp, delivered, err := c.attempt(ctx, body, h)
		resp.Attempts = attempt + 1
		if err == nil {
			return resp, nil
		}
		e := asError(err)
		e.Attempts = attempt + 1
		if ctx.Err() != nil {
			return resp, &Error{Kind: KindCancelled, Err: ctx.Err(), Attempts: attempt + 1}
		}
		if !e.Retryable() || delivered || attempt >= c.retry.MaxRetries {
			return resp, e
		}
		wait := c.retry.wait(attempt, e, c.rand)
		if h.Retry != nil {
			h.Retry(attempt+1, wait, e)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return resp, &Error{Kind: KindCancelled, Err: err, Attempts: attempt + 1}
		}
	}
}

func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Kind: KindNetwork, Err: err}
}

// Deadline causes, so a cancelled context tells which clock ran out.
var (
	errFirstToken = errors.New("no answer within the first-token timeout")
	errIdle       = errors.New("the stream stalled longer than the idle timeout")
	errCallLimit  = errors.New("the call exceeded its time limit")
)

// attempt sends one request and reads its stream. delivered reports
// whether any text or reasoning reached h, after which a retry would show
// the user a second answer.
func (c *Client) attempt(ctx context.Context, body []byte, h Handler) (resp Response, delivered bool, err error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	callTimer := time.AfterFunc(c.timeouts.Call, func() { cancel(errCallLimit) })
	defer callTimer.Stop()
	var started atomic.Bool
	watchdog := time.AfterFunc(c.timeouts.FirstToken, func() {
		if started.Load() {
			cancel(errIdle)
		} else {
			cancel(errFirstToken)
		}
	})
	defer watchdog.Stop()

	hreq, err := http.NewRequestWithContext(actx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return resp, false, &Error{Kind: KindInvalidRequest, Detail: "bad base URL: " + err.Error(), Err: err}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	if c.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.key)
	}
	hresp, err := c.http.Do(hreq)
	if err != nil {
		return resp, false, c.transportError(actx, err)
	}
	defer hresp.Body.Close()
	if hresp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(hresp.Body, 64<<10))
		return resp, false, classify(hresp.StatusCode, hresp.Header, b)
	}

	if ct := hresp.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/json") {
		// The server ignored "stream": take the whole answer at once.
		return c.whole(hresp.Body, h)
	}
	var asm assembler
	sse := newSSEReader(hresp.Body)
	for {
		data, err := sse.Next()
		if err != nil {
			if err == io.EOF {
				if asm.finish != "" {
					break // some servers omit [DONE]
				}
				return asm.response(), delivered, &Error{Kind: KindStream, Detail: "the stream ended before the answer was complete"}
			}
			if errors.Is(err, ErrEventTooLarge) {
				return asm.response(), delivered, &Error{Kind: KindStream, Err: err}
			}
			return asm.response(), delivered, c.transportError(actx, err)
		}
		started.Store(true)
		watchdog.Reset(c.timeouts.Idle)
		if string(bytes.TrimSpace(data)) == "[DONE]" {
			break
		}
		d, err := asm.add(data)
		if err != nil {
			return asm.response(), delivered, err
		}
		delivered = deliver(h, d) || delivered
	}
	deliver(h, asm.flush())
	return asm.response(), delivered, nil
}

// deliver hands a delta to h, reporting whether anything was shown.
func deliver(h Handler, d delta) bool {
	shown := false
	if d.reasoning != "" && h.Reasoning != nil {
		h.Reasoning(d.reasoning)
		shown = true
	}
	if d.text != "" && h.Text != nil {
		h.Text(d.text)
		shown = true
	}
	return shown
}

// transportError classifies a failure to send or read: one of our own
// deadlines, the caller's cancel, or the network.
func (c *Client) transportError(actx context.Context, err error) *Error {
	switch cause := context.Cause(actx); {
	case errors.Is(cause, errFirstToken):
		return &Error{Kind: KindTimeout, Detail: fmt.Sprintf("no answer within %s", c.timeouts.FirstToken), Err: cause}
	case errors.Is(cause, errIdle):
		return &Error{Kind: KindTimeout, Detail: fmt.Sprintf("the stream stalled for %s", c.timeouts.Idle), Err: cause}
	case errors.Is(cause, errCallLimit):
		return &Error{Kind: KindTimeout, Detail: fmt.Sprintf("the call took longer than %s", c.timeouts.Call), Err: cause}
	case cause != nil:
		return &Error{Kind: KindCancelled, Err: cause}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Kind: KindStream, Detail: "the connection closed in the middle of the answer", Err: err}
	}
	return &Error{Kind: KindNetwork, Err: err}
}

// whole reads a non-streamed chat completion, handing its text to h in
// one piece.
func (c *Client) whole(body io.Reader, h Handler) (Response, bool, error) {
	b, err := io.ReadAll(io.LimitReader(body, 64<<20))
	if err != nil {
		return Response{}, false, &Error{Kind: KindStream, Err: err}
	}
	var r struct {
		Choices []struct {
			Message struct {
				Content          string            `json:"content"`
				ReasoningContent string            `json:"reasoning_content"`
				Reasoning        json.RawMessage   `json:"reasoning"`
				ToolCalls        []openai.ToolCall `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage *openai.Usage `json:"usage"`
	}
	if err := json.Unmarshal(b, &r); err != nil || len(r.Choices) == 0 {
		return Response{}, false, &Error{Kind: KindStream, Detail: "the server sent a response that is not a chat completion: " + clip(string(b), 80), Err: err}
	}
	var asm assembler
	ch := r.Choices[0]
	text, inline := asm.think.feed(ch.Message.Content)
	d := delta{text: text, reasoning: ch.Message.ReasoningContent + reasoningText(ch.Message.Reasoning) + inline}
	asm.text, asm.reasoning = []byte(d.text), []byte(d.reasoning)
	for _, tc := range ch.Message.ToolCalls {
		tc.Index = nil
		asm.addCall(tc)
	}
	asm.finish = ch.FinishReason
	if u := r.Usage; u != nil {
		asm.usage = &Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	}
	delivered := deliver(h, d)
	deliver(h, asm.flush())
	return asm.response(), delivered, nil
}

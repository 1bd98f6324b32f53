package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
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

// TransportConfig configures what every protocol shares: deadlines,
// retries and the HTTP client.
type TransportConfig struct {
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

// Transport sends one protocol's requests and reads their event streams:
// the retry loop, the deadlines and the HTTP client are the same for
// every protocol. It is safe for concurrent use.
type Transport struct {
	timeouts Timeouts
	retry    RetryPolicy
	http     *http.Client
	sleep    func(ctx context.Context, d time.Duration) error
	rand     func() float64
}

// NewTransport returns a transport for cfg.
func NewTransport(cfg TransportConfig) *Transport {
	t := &Transport{
		timeouts: cfg.Timeouts.withDefaults(),
		retry:    cfg.Retry.withDefaults(),
		http:     cfg.HTTPClient,
		sleep:    cfg.Sleep,
		rand:     cfg.Rand,
	}
	if t.http == nil {
		dialer := &net.Dialer{Timeout: t.timeouts.Connect, KeepAlive: 30 * time.Second}
		t.http = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         dialer.DialContext,
			TLSHandshakeTimeout: t.timeouts.Connect,
			ForceAttemptHTTP2:   true,
			MaxIdleConns:        10,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	if t.sleep == nil {
		t.sleep = SleepContext
	}
	if t.rand == nil {
		t.rand = rand.Float64
	}
	return t
}

// Exchange is one protocol's half of a call: where the request goes, what
// it says, and how to read the answer.
type Exchange struct {
	URL    string
	Header http.Header
	Body   []byte
	// NewDecoder returns a decoder for one attempt's answer.
	NewDecoder func() Decoder
	// Classify turns a refused request (any status but 200) into an
	// *Error; nil uses Classify.
	Classify func(status int, header http.Header, body []byte) *Error
}

// Delta is what one event adds that the user can see.
type Delta struct {
	Text      string
	Reasoning string
}

// Decoder reads one protocol's answer. A fresh decoder reads each attempt.
type Decoder interface {
	// Event reads the data of one server-sent event. done reports that
	// the answer is complete (no further event is read).
	Event(data []byte) (d Delta, done bool, err error)
	// End is called when the stream ends without an event that said done.
	// It returns what was held back, or an *Error when the answer is
	// incomplete.
	End() (Delta, error)
	// Whole reads an answer that was not streamed (a server that ignored
	// the request to stream answered with one JSON document).
	Whole(body []byte) (Delta, error)
	// Response is the answer read so far.
	Response() Response
}

// Stream makes one logical call, retrying as the policy allows while
// nothing has been handed to h yet. On failure it returns what was
// received so far together with an *Error.
func (t *Transport) Stream(ctx context.Context, ex Exchange, h Handler) (Response, error) {
	if ex.Classify == nil {
		ex.Classify = Classify
	}
	for attempt := 0; ; attempt++ {
		resp, delivered, err := t.attempt(ctx, ex, h)
		resp.Attempts = attempt + 1
		if err == nil {
			return resp, nil
		}
		e := asError(err)
		e.Attempts = attempt + 1
		if ctx.Err() != nil {
			return resp, &Error{Kind: KindCancelled, Err: ctx.Err(), Attempts: attempt + 1}
		}
		if !e.Retryable() || delivered || attempt >= t.retry.MaxRetries {
			return resp, e
		}
		wait := t.retry.wait(attempt, e, t.rand)
		if h.Retry != nil {
			h.Retry(attempt+1, wait, e)
		}
		if err := t.sleep(ctx, wait); err != nil {
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
func (t *Transport) attempt(ctx context.Context, ex Exchange, h Handler) (resp Response, delivered bool, err error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	callTimer := time.AfterFunc(t.timeouts.Call, func() { cancel(errCallLimit) })
	defer callTimer.Stop()
	var started atomic.Bool
	watchdog := time.AfterFunc(t.timeouts.FirstToken, func() {
		if started.Load() {
			cancel(errIdle)
		} else {
			cancel(errFirstToken)
		}
	})
	defer watchdog.Stop()

	hreq, err := http.NewRequestWithContext(actx, http.MethodPost, ex.URL, bytes.NewReader(ex.Body))
	if err != nil {
		return resp, false, &Error{Kind: KindInvalidRequest, Detail: "bad base URL: " + err.Error(), Err: err}
	}
	for k, vs := range ex.Header {
		hreq.Header[k] = vs
	}
	if hreq.Header.Get("Content-Type") == "" {
		hreq.Header.Set("Content-Type", "application/json")
	}
	if hreq.Header.Get("Accept") == "" {
		hreq.Header.Set("Accept", "text/event-stream")
	}
	hresp, err := t.http.Do(hreq)
	if err != nil {
		return resp, false, t.transportError(actx, err)
	}
	defer hresp.Body.Close()
	if hresp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(hresp.Body, 64<<10))
		return resp, false, ex.Classify(hresp.StatusCode, hresp.Header, b)
	}

	dec := ex.NewDecoder()
	ct := hresp.Header.Get("Content-Type")
	if strings.HasPrefix(ct, "text/html") {
		// A web page (a proxy's login, a UI at the API's address) is never
		// an answer: retrying would only fetch it again.
		b, _ := io.ReadAll(io.LimitReader(hresp.Body, 200))
		return dec.Response(), false, &Error{Kind: KindEndpoint, Status: hresp.StatusCode,
			Detail: "it answered with a web page (" + Clip(strings.Join(strings.Fields(string(b)), " "), 60) + ")"}
	}
	if strings.HasPrefix(ct, "application/json") {
		// The server ignored "stream": take the whole answer at once.
		b, err := io.ReadAll(io.LimitReader(hresp.Body, 64<<20))
		if err != nil {
			return dec.Response(), false, &Error{Kind: KindStream, Err: err}
		}
		d, err := dec.Whole(b)
		if err != nil {
			return dec.Response(), false, err
		}
		return dec.Response(), deliver(h, d), nil
	}
	sse := newSSEReader(hresp.Body)
	for {
		data, err := sse.Next()
		if err != nil {
			if err == io.EOF {
				d, err := dec.End()
				delivered = deliver(h, d) || delivered
				return dec.Response(), delivered, err
			}
			if errors.Is(err, ErrEventTooLarge) {
				return dec.Response(), delivered, &Error{Kind: KindStream, Err: err}
			}
			return dec.Response(), delivered, t.transportError(actx, err)
		}
		started.Store(true)
		watchdog.Reset(t.timeouts.Idle)
		d, done, err := dec.Event(data)
		delivered = deliver(h, d) || delivered
		if err != nil {
			return dec.Response(), delivered, err
		}
		if done {
			d, err := dec.End()
			delivered = deliver(h, d) || delivered
			return dec.Response(), delivered, err
		}
	}
}

// deliver hands a delta to h, reporting whether anything was shown.
func deliver(h Handler, d Delta) bool {
	shown := false
	if d.Reasoning != "" && h.Reasoning != nil {
		h.Reasoning(d.Reasoning)
		shown = true
	}
	if d.Text != "" && h.Text != nil {
		h.Text(d.Text)
		shown = true
	}
	return shown
}

// transportError classifies a failure to send or read: one of our own
// deadlines, the caller's cancel, or the network.
func (t *Transport) transportError(actx context.Context, err error) *Error {
	switch cause := context.Cause(actx); {
	case errors.Is(cause, errFirstToken):
		return &Error{Kind: KindTimeout, Detail: fmt.Sprintf("no answer within %s", t.timeouts.FirstToken), Err: cause}
	case errors.Is(cause, errIdle):
		return &Error{Kind: KindTimeout, Detail: fmt.Sprintf("the stream stalled for %s", t.timeouts.Idle), Err: cause}
	case errors.Is(cause, errCallLimit):
		return &Error{Kind: KindTimeout, Detail: fmt.Sprintf("the call took longer than %s", t.timeouts.Call), Err: cause}
	case cause != nil:
		return &Error{Kind: KindCancelled, Err: cause}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Kind: KindStream, Detail: "the connection closed in the middle of the answer", Err: err}
	}
	return &Error{Kind: KindNetwork, Err: err}
}

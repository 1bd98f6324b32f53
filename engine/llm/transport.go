package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Timeouts bound one request (one attempt of a call). The zero value of a
// field means its default.
//
// Only events count as progress: the stream's comment lines (": keep-alive")
// and the bytes of an unfinished event reset no deadline, so a server that
// drips keep-alives, or sends headers and then nothing, is given up on when
// FirstToken runs out, and one that stops mid-answer when Idle does.
type Timeouts struct {
	// Connect bounds dialling and the TLS handshake (default 10 s).
	Connect time.Duration
	// FirstToken bounds the wait from sending the request to the first
	// event, response headers included (default 180 s). It is generous on
	// purpose: a reasoning model may think for minutes before its first
	// event on protocols that do not stream the thinking, and a local
	// server may load the model before it answers at all. An event that
	// comes early (a bare role chunk) does not shorten it.
	FirstToken time.Duration
	// Idle bounds the gap between two events once the first has come
	// (default 90 s): a model that is generating sends a token every few
	// hundred milliseconds, and a minute and a half of silence mid-answer
	// means the server or the connection is gone.
	Idle time.Duration
	// Call bounds one attempt from start to end (default 1200 s), however
	// it keeps the other clocks happy: twenty minutes is far beyond the
	// longest answer a model writes at streaming speed.
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
	// Hints say what the user can do about an error of a kind, in the
	// words of the configured provider and program: {KindAuth: "check
	// DEEPSEEK_API_KEY"}. They end the error's message in parentheses.
	Hints map[Kind]string
	// Coalesce is the least time between two deliveries of streamed text
	// or reasoning: after one, the stream is not read again until it has
	// passed, and whatever arrived meanwhile is delivered together. A
	// screen that draws at most once per interval shows the same; the
	// process wakes once per interval instead of once per event. Zero
	// delivers every event as it arrives.
	Coalesce time.Duration
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
	hints    map[Kind]string
	coalesce time.Duration
}

// NewTransport returns a transport for cfg.
func NewTransport(cfg TransportConfig) *Transport {
	t := &Transport{
		timeouts: cfg.Timeouts.withDefaults(),
		retry:    cfg.Retry.withDefaults(),
		http:     cfg.HTTPClient,
		sleep:    cfg.Sleep,
		rand:     cfg.Rand,
		hints:    cfg.Hints,
		coalesce: cfg.Coalesce,
	}
	if t.http == nil {
		dialer := &net.Dialer{Timeout: t.timeouts.Connect, KeepAlive: 30 * time.Second}
		t.http = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         dialQuiet(dialer),
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
//
// Beyond the policy, two failures are retried at most once, because
// another attempt would only repeat them: a client-side deadline (an
// unresponsive server wastes the whole deadline on every attempt; one
// retry covers a connection that landed on a stuck backend), and a
// malformed event (one retry covers an event cut in transit; the same
// event twice is the server's answer). An attempt that used up the Call
// deadline is not retried at all.
func (t *Transport) Stream(ctx context.Context, ex Exchange, h Handler) (Response, error) {
	if ex.Classify == nil {
		ex.Classify = Classify
	}
	var seen failures
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
		if e.Hint == "" {
			e.Hint = t.hints[e.Kind]
		}
		if !e.Retryable() || delivered || attempt >= t.retry.MaxRetries || seen.repeated(e) {
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

// failures remembers what the attempts of one call ran into.
type failures struct {
	timeouts  int
	malformed map[string]bool
}

// repeated records e and reports a failure that another attempt would only
// repeat (see Stream): a second client-side deadline, a malformed event
// met before, or an attempt that used the whole Call deadline.
func (f *failures) repeated(e *Error) bool {
	switch {
	case errors.Is(e.Err, errCallLimit):
		return true
	case e.Kind == KindTimeout:
		f.timeouts++
		return f.timeouts > 1
	case e.malformed != "":
		if f.malformed[e.malformed] {
			e.Detail = Clip("the server sent the same malformed event again: "+e.malformed, 200)
			return true
		}
		if f.malformed == nil {
			f.malformed = map[string]bool{}
		}
		f.malformed[e.malformed] = true
	}
	return false
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
	errFirstToken = errors.New("no event within the first-token timeout")
	errIdle       = errors.New("the stream stalled longer than the idle timeout")
	errCallLimit  = errors.New("the call exceeded its time limit")
)

// progress is how far an attempt got, for saying which deadline ran out
// and where. The watchdog's goroutine and the reader's share it.
type progress struct {
	headers atomic.Bool  // the response headers arrived
	bytes   atomic.Int64 // body bytes read: keep-alive comments count here only
	events  atomic.Int64 // complete events read
	// lastEvent is when the last complete event was read, as time since
	// the attempt started.
	lastEvent atomic.Int64
}

// countingReader counts the body bytes that reach the SSE reader.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// attempt sends one request and reads its stream. delivered reports
// whether any text or reasoning reached h, after which a retry would show
// the user a second answer.
func (t *Transport) attempt(ctx context.Context, ex Exchange, h Handler) (resp Response, delivered bool, err error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var prog progress
	callTimer := time.AfterFunc(t.timeouts.Call, func() { cancel(errCallLimit) })
	defer callTimer.Stop()
	start := time.Now()
	// The watchdog is armed once and checks, when it fires, how long ago
	// the last event came (prog.lastEvent), re-arming itself for what is
	// left: resetting a timer on every event would cost a timer update per
	// chunk, and leave the runtime a stale entry to wake up for.
	// Armed only once the variable is set, which the func reads: Reset
	// orders that write before the func runs; a timer started by
	// AfterFunc itself would not.
	var watchdog *time.Timer
	watchdog = time.AfterFunc(time.Duration(math.MaxInt64), func() {
		if prog.events.Load() == 0 {
			cancel(errFirstToken)
			return
		}
		// Until the first-token deadline has passed, an early event (a
		// bare role chunk) does not shorten the wait for the answer.
		deadline := max(t.timeouts.FirstToken, time.Duration(prog.lastEvent.Load())+t.timeouts.Idle)
		if left := deadline - time.Since(start); left > 0 {
			watchdog.Reset(left)
			return
		}
		cancel(errIdle)
	})
	watchdog.Reset(t.timeouts.FirstToken)
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
		return resp, false, t.transportError(actx, err, &prog)
	}
	defer hresp.Body.Close()
	prog.headers.Store(true)
	if hresp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(hresp.Body, 64<<10))
		return resp, false, ex.Classify(hresp.StatusCode, hresp.Header, b)
	}

	body := countingReader{r: hresp.Body, n: &prog.bytes}
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
		b, err := io.ReadAll(io.LimitReader(body, 64<<20))
		if err != nil {
			return dec.Response(), false, t.transportError(actx, err, &prog)
		}
		d, err := dec.Whole(b)
		if err != nil {
			return dec.Response(), false, err
		}
		return dec.Response(), deliver(h, d), nil
	}
	sse := newSSEReader(body)
	var hold holdOff
	defer func() {
		if hold != nil {
			hold.release()
		}
	}()
	// The text of the events one read brought is handed over together,
	// just before the stream is read again (or when it ends), so a burst
	// of small events is one delivery; with coalescing, the next read
	// then waits out the interval.
	var held heldDelta
	flush := func() bool {
		shown := deliver(h, held.take())
		delivered = shown || delivered
		return shown
	}
	sse.beforeRead = func() error {
		if flush() && t.coalesce > 0 {
			if hold == nil {
				hold = newHoldOff(actx)
			}
			return hold.wait(actx, t.coalesce)
		}
		return nil
	}
	for {
		data, err := sse.Next()
		if err != nil {
			flush()
			if err == io.EOF {
				d, err := dec.End()
				delivered = deliver(h, d) || delivered
				return dec.Response(), delivered, err
			}
			if errors.Is(err, ErrEventTooLarge) {
				return dec.Response(), delivered, &Error{Kind: KindStream, Err: err}
			}
			return dec.Response(), delivered, t.transportError(actx, err, &prog)
		}
		prog.lastEvent.Store(int64(time.Since(start)))
		prog.events.Add(1)
		d, done, err := dec.Event(data)
		if held.add(d) {
			flush()
			held.add(d)
		}
		if err != nil || done {
			flush()
		}
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

// heldDelta is decoded text not yet handed over.
type heldDelta struct {
	text, reasoning strings.Builder
}

// add appends d, unless that would reorder it (reasoning after text
// already held, which deliver would hand over first): then it reports
// true and holds nothing of d, and the caller delivers what is held
// before adding d again.
func (h *heldDelta) add(d Delta) (reorders bool) {
	if d.Reasoning != "" && h.text.Len() > 0 {
		return true
	}
	h.reasoning.WriteString(d.Reasoning)
	h.text.WriteString(d.Text)
	return false
}

// take returns what is held and empties it.
func (h *heldDelta) take() Delta {
	d := Delta{Text: h.text.String(), Reasoning: h.reasoning.String()}
	h.text.Reset()
	h.reasoning.Reset()
	return d
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
// deadlines (saying how far the server got), the caller's cancel, or the
// network.
func (t *Transport) transportError(actx context.Context, err error, p *progress) *Error {
	switch cause := context.Cause(actx); {
	case errors.Is(cause, errFirstToken):
		var detail string
		switch {
		case !p.headers.Load():
			detail = fmt.Sprintf("the server did not answer within %s (no response headers)", t.timeouts.FirstToken)
		case p.bytes.Load() > 0:
			detail = fmt.Sprintf("the server sent only keep-alive comments for %s and no event", t.timeouts.FirstToken)
		default:
			detail = fmt.Sprintf("the server accepted the request but sent nothing for %s", t.timeouts.FirstToken)
		}
		return &Error{Kind: KindTimeout, Detail: detail, Err: cause}
	case errors.Is(cause, errIdle):
		return &Error{Kind: KindTimeout, Detail: fmt.Sprintf("the stream stalled: no event for %s (keep-alive comments do not count)", t.timeouts.Idle), Err: cause}
	case errors.Is(cause, errCallLimit):
		return &Error{Kind: KindTimeout, Detail: fmt.Sprintf("the answer took longer than %s, the limit for one request", t.timeouts.Call), Err: cause}
	case cause != nil:
		return &Error{Kind: KindCancelled, Err: cause}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Kind: KindStream, Detail: "the connection closed in the middle of the answer", Err: err}
	}
	return &Error{Kind: KindNetwork, Err: err}
}

package llm

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// textDecoder reads a toy protocol: each event's data is text, "[DONE]"
// ends the answer, "bad" is an event it cannot read.
type textDecoder struct {
	text strings.Builder
	done bool
}

func (d *textDecoder) Event(data []byte) (Delta, bool, error) {
	switch s := string(data); s {
	case "[DONE]":
		d.done = true
		return Delta{}, true, nil
	case "bad", "worse":
		return Delta{}, false, Malformed("the server sent a malformed event", data, errors.New("not text"))
	case "":
		return Delta{}, false, nil // an event that shows nothing
	default:
		d.text.WriteString(s)
		return Delta{Text: s}, false, nil
	}
}

func (d *textDecoder) End() (Delta, error) {
	if d.done {
		return Delta{}, nil
	}
	return Delta{}, &Error{Kind: KindStream, Detail: "the stream ended before the answer was complete"}
}
func (d *textDecoder) Whole(b []byte) (Delta, error) { return Delta{Text: string(b)}, nil }
func (d *textDecoder) Response() Response            { return Response{Text: d.text.String()} }

// scripted serves attempt n with handlers[n] (the last one repeats) and
// counts the attempts.
func scripted(t *testing.T, handlers ...func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		handlers[min(i, len(handlers)-1)](w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// events streams the given SSE text, flushing after each piece and
// pausing pace between pieces; it ends when the client goes away.
func events(pace time.Duration, pieces ...string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		for _, p := range pieces {
			if _, err := io.WriteString(w, p); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			if SleepContext(r.Context(), pace) != nil {
				return
			}
		}
	}
}

// drip writes piece every pace until the client goes away.
func drip(pace time.Duration, first, piece string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		io.WriteString(w, first)
		w.(http.Flusher).Flush()
		for {
			if SleepContext(r.Context(), pace) != nil {
				return
			}
			if _, err := io.WriteString(w, piece); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}
}

func testTransport(timeouts Timeouts, retries int) (*Transport, *[]time.Duration) {
	var mu sync.Mutex
	var waits []time.Duration
	return NewTransport(TransportConfig{
		Timeouts: timeouts,
		Retry:    RetryPolicy{MaxRetries: retries, Initial: time.Millisecond, Max: time.Millisecond},
		Sleep: func(ctx context.Context, d time.Duration) error {
			mu.Lock()
			waits = append(waits, d)
			mu.Unlock()
			return ctx.Err()
		},
		Hints: map[Kind]string{KindAuth: "check TOY_API_KEY"},
	}), &waits
}

func exchange(url string) Exchange {
	return Exchange{URL: url, NewDecoder: func() Decoder { return &textDecoder{} }}
}

// Every way a server can fail to answer ends in bounded time, with a
// message that says which it was; keep-alive comments never count as
// progress.
func TestDeadlinesSayWhatTheServerDid(t *testing.T) {
	neverHeaders := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	tests := []struct {
		name    string
		handler func(w http.ResponseWriter, r *http.Request)
		want    string
	}{
		{"no response headers", neverHeaders, "did not answer within 600ms (no response headers)"},
		{"headers and nothing else", events(time.Hour, ""), "accepted the request but sent nothing for 600ms"},
		{"only keep-alive comments", drip(20*time.Millisecond, ": keep-alive\n\n", ": keep-alive\n\n"), "sent only keep-alive comments for 600ms and no event"},
		{"an event that never ends", drip(20*time.Millisecond, "data: a", "a"), "sent only keep-alive comments"},
		{"comments after the first event", drip(20*time.Millisecond, "data: hello\n\n", ": keep-alive\n\n"), "stalled: no event for 300ms (keep-alive comments do not count)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, n := scripted(t, tt.handler)
			// Deadlines long enough for a loaded machine to send headers
			// in time, short enough for a test.
			tr, _ := testTransport(Timeouts{FirstToken: 600 * time.Millisecond, Idle: 300 * time.Millisecond, Call: 10 * time.Second}, 3)
			begin := time.Now()
			_, err := tr.Stream(context.Background(), exchange(srv.URL), Handler{})
			if KindOf(err) != KindTimeout || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want a timeout saying %q", err, tt.want)
			}
			// The first attempt had shown nothing, so it was retried, but a
			// deadline is retried once only.
			if got := n.Load(); got != 2 {
				t.Errorf("%d attempts, want 2", got)
			}
			if d := time.Since(begin); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestDripOfEmptyEventsEndsAtTheCallLimit(t *testing.T) {
	srv, n := scripted(t, drip(10*time.Millisecond, "data: \n\n", "data: \n\n"))
	tr, _ := testTransport(Timeouts{FirstToken: 200 * time.Millisecond, Idle: 200 * time.Millisecond, Call: 500 * time.Millisecond}, 3)
	_, err := tr.Stream(context.Background(), exchange(srv.URL), Handler{})
	if KindOf(err) != KindTimeout || !strings.Contains(err.Error(), "longer than 500ms, the limit for one request") {
		t.Fatalf("error %v", err)
	}
	if n.Load() != 1 {
		t.Errorf("an attempt that used the whole call limit was retried: %d attempts", n.Load())
	}
}

// A bare early event (a role chunk) does not shorten the wait for the
// answer to the idle deadline: a reasoning model may think for longer.
func TestEarlyEventKeepsTheFirstTokenGrace(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: \n\n")
		w.(http.Flusher).Flush()
		time.Sleep(250 * time.Millisecond) // > Idle, < FirstToken
		io.WriteString(w, "data: thought long\n\ndata: [DONE]\n\n")
	})
	tr, _ := testTransport(Timeouts{FirstToken: 2 * time.Second, Idle: 100 * time.Millisecond}, -1)
	resp, err := tr.Stream(context.Background(), exchange(srv.URL), Handler{})
	if err != nil || resp.Text != "thought long" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

func TestSameMalformedEventIsNotRetriedAgain(t *testing.T) {
	srv, n := scripted(t, events(0, "data: bad\n\n"))
	tr, waits := testTransport(Timeouts{}, 3)
	_, err := tr.Stream(context.Background(), exchange(srv.URL), Handler{})
	if KindOf(err) != KindStream || !strings.Contains(err.Error(), "same malformed event again: bad") {
		t.Fatalf("error %v", err)
	}
	if n.Load() != 2 || len(*waits) != 1 {
		t.Errorf("%d attempts, %d waits; want 2 and 1", n.Load(), len(*waits))
	}

	// Different malformed events look like damage in transit: retried as
	// the policy allows.
	srv, n = scripted(t, events(0, "data: bad\n\n"), events(0, "data: worse\n\n"), events(0, "data: ok\n\ndata: [DONE]\n\n"))
	tr, _ = testTransport(Timeouts{}, 3)
	if resp, err := tr.Stream(context.Background(), exchange(srv.URL), Handler{}); err != nil || resp.Text != "ok" || n.Load() != 3 {
		t.Fatalf("resp %+v err %v after %d attempts", resp, err, n.Load())
	}
}

func TestHintsComeFromTheConfig(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(401)
		io.WriteString(w, `{"error":{"message":"bad key"}}`)
	})
	tr, _ := testTransport(Timeouts{}, 3)
	_, err := tr.Stream(context.Background(), exchange(srv.URL), Handler{})
	if KindOf(err) != KindAuth || !strings.HasSuffix(err.Error(), "bad key (check TOY_API_KEY)") {
		t.Fatalf("error %v", err)
	}
}

// A server that accepts connections and never reads or writes: the
// dial succeeds, the request is never answered.
func TestSilentListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	tr, _ := testTransport(Timeouts{FirstToken: 300 * time.Millisecond}, -1)
	_, err = tr.Stream(context.Background(), exchange("http://"+ln.Addr().String()), Handler{})
	if KindOf(err) != KindTimeout || !strings.Contains(err.Error(), "no response headers") {
		t.Fatalf("error %v", err)
	}
}

// Deadlines are retried once per call, even with other failures between.
func TestSecondDeadlineEndsTheCall(t *testing.T) {
	fail := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) }
	srv, n := scripted(t, events(time.Hour, ""), fail, events(time.Hour, ""), events(0, "data: ok\n\ndata: [DONE]\n\n"))
	tr, _ := testTransport(Timeouts{FirstToken: 300 * time.Millisecond}, 5)
	_, err := tr.Stream(context.Background(), exchange(srv.URL), Handler{})
	if KindOf(err) != KindTimeout || n.Load() != 3 {
		t.Fatalf("error %v after %d attempts, want a timeout after 3", err, n.Load())
	}
}

// nullDecoder accepts any event and reads nothing.
type nullDecoder struct{}

func (nullDecoder) Event([]byte) (Delta, bool, error) { return Delta{}, true, nil }
func (nullDecoder) End() (Delta, error)               { return Delta{}, nil }
func (nullDecoder) Whole([]byte) (Delta, error)       { return Delta{}, nil }
func (nullDecoder) Response() Response                { return Response{} }

// A server that answers with a web page is not retried and says so.
func TestWebPageIsAnEndpointError(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><body><h1>Welcome to the gateway</h1></body></html>")
	}))
	defer srv.Close()
	tr := NewTransport(TransportConfig{Sleep: func(context.Context, time.Duration) error { return nil }})
	_, err := tr.Stream(context.Background(), Exchange{URL: srv.URL, NewDecoder: func() Decoder { return nullDecoder{} }}, Handler{})
	if KindOf(err) != KindEndpoint || hits != 1 {
		t.Fatalf("err %v (kind %s) after %d requests", err, KindOf(err), hits)
	}
	if !strings.Contains(err.Error(), "web page") {
		t.Errorf("message: %q", err)
	}
}

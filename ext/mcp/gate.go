package mcp

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// streamGate is the HTTP transport of a server's client. It adds the
// configured headers to every request, and it holds back reconnects of
// the server's event stream (the GET that carries server-initiated
// messages) by the backoff of spec §2.2, whatever the SDK's own retry
// policy does: a stream that keeps dying at once cannot make quire
// reconnect in a tight loop.
type streamGate struct {
	base    http.RoundTripper
	headers http.Header
	bo      *backoff
	// warn is told, at most once an hour, that reconnects are held back.
	warn func(wait time.Duration)

	// now and sleep are the clock, replaced by tests.
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error

	mu      sync.Mutex
	streams int // event streams opened so far
}

func (g *streamGate) RoundTrip(req *http.Request) (*http.Response, error) {
	now, sleep := g.now, g.sleep
	if now == nil {
		now = time.Now
	}
	if sleep == nil {
		sleep = sleepCtx
	}
	if len(g.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range g.headers {
			req.Header[k] = v
		}
	}
	stream := req.Method == http.MethodGet && strings.Contains(req.Header.Get("Accept"), "text/event-stream")
	if !stream {
		return g.base.RoundTrip(req)
	}
	g.mu.Lock()
	first := g.streams == 0
	g.streams++
	g.mu.Unlock()
	if !first {
		wait, warn := g.bo.plan(now())
		if warn && g.warn != nil {
			g.warn(wait)
		}
		if wait > 0 {
			if err := sleep(req.Context(), wait); err != nil {
				return nil, err
			}
		}
	}
	resp, err := g.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusOK {
		g.bo.connected(now())
		resp.Body = &streamBody{ReadCloser: resp.Body, died: func() { g.bo.died(now()) }}
	}
	return resp, nil
}

// streamBody records when an event stream ended: the first read error or
// the close, whichever comes first.
type streamBody struct {
	io.ReadCloser
	once sync.Once
	died func()
}

func (b *streamBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.once.Do(b.died)
	}
	return n, err
}

func (b *streamBody) Close() error {
	b.once.Do(b.died)
	return b.ReadCloser.Close()
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

package e2e

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"

	"github.com/quire-sh/quire/engine/testserver"
)

// server is the scripted model behind a pass-through proxy that notes
// when the answer's stream ended, so the harness can time the last frame
// from it.
type server struct {
	model *testserver.Server
	ln    net.Listener
	http  *http.Server

	mu      sync.Mutex
	streams int       // streamed answers finished
	end     time.Time // when the last one's final byte went out
	ended   chan struct{}
}

// startServer serves answer as one streamed response per request, in
// chunks of chunk bytes pace apart.
func startServer(answer string, chunk int, pace time.Duration) (*server, error) {
	resp := testserver.Response{Text: testserver.Chunks(answer, chunk), Pace: testserver.Duration(pace)}
	model, err := testserver.Start(testserver.Script{
		Respond: func(int, testserver.Request) testserver.Response { return resp },
	})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		model.Close()
		return nil, fmt.Errorf("start the timing proxy: %w", err)
	}
	s := &server{model: model, ln: ln, ended: make(chan struct{}, 16)}
	target, _ := url.Parse(model.URL())
	target.Path = ""
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1
	proxy.ModifyResponse = func(r *http.Response) error {
		if r.Header.Get("Content-Type") == "text/event-stream" {
			r.Body = &timedBody{ReadCloser: r.Body, s: s}
		}
		return nil
	}
	s.http = &http.Server{Handler: proxy, ReadHeaderTimeout: 10 * time.Second}
	go s.http.Serve(ln)
	return s, nil
}

// URL is the OpenAI-compatible base URL (ending in /v1).
func (s *server) URL() string { return "http://" + s.ln.Addr().String() + "/v1" }

// Requests is how many chat requests the model received.
func (s *server) Requests() int { return len(s.model.Requests()) }

// waitEnd waits for a streamed answer to finish and returns when its last
// byte was sent.
func (s *server) waitEnd(timeout time.Duration) (time.Time, error) {
	select {
	case <-s.ended:
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.end, nil
	case <-time.After(timeout):
		if s.Requests() == 0 {
			return time.Time{}, fmt.Errorf("the prompt was typed, but no request reached the model within %v", timeout)
		}
		return time.Time{}, fmt.Errorf("the answer did not finish streaming within %v (requests received: %d)", timeout, s.Requests())
	}
}

func (s *server) close() {
	s.http.Close()
	s.model.Close()
}

// timedBody notes when the stream's last byte passed and signals its end.
type timedBody struct {
	io.ReadCloser
	s    *server
	last time.Time
	done bool
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.last = time.Now()
	}
	if err != nil && !b.done {
		b.done = true
		b.s.mu.Lock()
		b.s.streams++
		b.s.end = b.last
		b.s.mu.Unlock()
		b.s.ended <- struct{}{}
	}
	return n, err
}

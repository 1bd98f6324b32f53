package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
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
	turned  bool     // the user's turn has come
	calls   []string // every request the proxy passed on, with its answer's status
}

// firstTurn says whether no turn came before this one: later requests
// offering tools (qwen-code's memory extraction after the answer) are
// asides too.
func (s *server) firstTurn() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := !s.turned
	s.turned = true
	return first
}

func (s *server) note(call string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, call)
}

// startServer serves answer as one streamed response per request, in
// chunks of chunk bytes pace apart.
func startServer(answer string, chunk int, pace time.Duration) (*server, error) {
	resp := testserver.Response{Text: testserver.Chunks(answer, chunk), Pace: testserver.Duration(pace)}
	aside := testserver.Response{Text: []string{"Reading a large log file"}}
	model, err := testserver.Start(testserver.Script{
		Respond: func(_ int, r testserver.Request) testserver.Response {
			if r.Header.Get(turnHeader) == "" {
				return aside
			}
			return resp
		},
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
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Header.Del(turnHeader)
			if isTurn(r.Out) && s.firstTurn() {
				r.Out.Header.Set(turnHeader, "1")
			}
		},
		FlushInterval: -1,
	}
	proxy.ModifyResponse = func(r *http.Response) error {
		s.note(fmt.Sprintf("%s %s: %s", r.Request.Method, r.Request.URL.Path, r.Status))
		if r.Request.Header.Get(turnHeader) != "" && r.Header.Get("Content-Type") == "text/event-stream" {
			r.Body = &timedBody{ReadCloser: r.Body, s: s}
		}
		return nil
	}
	s.http = &http.Server{Handler: proxy, ReadHeaderTimeout: 10 * time.Second}
	go s.http.Serve(ln)
	return s, nil
}

// turnHeader marks, between the proxy and the model, the request that is
// the user's turn.
const turnHeader = "X-E2E-Turn"

// isTurn says whether r is the user's turn rather than a request on the
// side (a title for the session, a summary of the prompt): it offers the
// model tools, as every agent's turn does and their side requests do
// not. Only the turn is answered with the workload's answer and timed;
// the others get a line at once, so that they neither compete with it
// nor end the measurement early (nor, coming after it, add to it). It leaves r's body to be read again.
func isTurn(r *http.Request) bool {
	if r.Body == nil {
		return false
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	var req struct {
		Tools []json.RawMessage `json:"tools"`
	}
	return json.Unmarshal(body, &req) == nil && len(req.Tools) > 0
}

// URL is the OpenAI-compatible base URL (ending in /v1).
func (s *server) URL() string { return "http://" + s.ln.Addr().String() + "/v1" }

// Requests is how many chat requests the model received.
func (s *server) Requests() int { return len(s.model.Requests()) }

// Seen says what the model received, one request a line, for a failed
// run's report: each request the proxy passed on, then what the model
// read from those it answered.
func (s *server) Seen() string {
	var b strings.Builder
	s.mu.Lock()
	for _, c := range s.calls {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	s.mu.Unlock()
	for i, r := range s.model.Requests() {
		fmt.Fprintf(&b, "  %d. %s model %q, stream %v, %d tools, %d messages, last %.60q\n",
			i+1, r.Protocol, r.Model, r.Stream, len(r.Tools), len(r.Messages), r.LastMessage().Content)
	}
	if b.Len() == 0 {
		return "  (nothing)\n"
	}
	return b.String()
}

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

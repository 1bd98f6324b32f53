package mcp

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	var b backoff
	t0 := time.Unix(1000, 0)
	now := t0
	// Each connection dies 100 ms after it was made.
	die := func() (time.Duration, bool) {
		b.connected(now)
		now = now.Add(100 * time.Millisecond)
		return b.plan(now)
	}
	want := []time.Duration{0, 0, 500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second}
	warned := 0
	for i, w := range want {
		got, warn := die()
		if warn {
			warned++
		}
		if got != w {
			t.Errorf("rapid death %d: wait %s, want %s", i+1, got, w)
		}
	}
	if warned != 1 {
		t.Errorf("warned %d times within an hour", warned)
	}
	// A connection that lived 2 s resets the count.
	b.connected(now)
	now = now.Add(stableAfter)
	if got, _ := b.plan(now); got != 0 {
		t.Errorf("after a stable connection: %s", got)
	}
	// Its lifetime is measured to its death, not to the reconnect.
	b.connected(now)
	b.died(now.Add(time.Second))
	now = now.Add(time.Hour)
	b.plan(now)
	b.connected(now)
	b.died(now.Add(time.Second))
	b.plan(now.Add(time.Hour))
	b.connected(now)
	b.died(now.Add(time.Second))
	got, warn := b.plan(now.Add(2 * time.Hour))
	if got != 500*time.Millisecond || !warn {
		t.Errorf("deaths measured to the reconnect: wait %s, warn %v", got, warn)
	}
}

// fakeStreams answers every event-stream GET with a stream that ends at
// once, and records when each GET was made.
type fakeStreams struct {
	now  *time.Time
	gets []time.Time
}

func (f *fakeStreams) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet {
		f.gets = append(f.gets, *f.now)
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
}

// The gate holds back reconnects of a stream that keeps dying, however
// fast the SDK asks, and adds the configured headers.
func TestStreamGate(t *testing.T) {
	now := time.Unix(0, 0)
	base := &fakeStreams{now: &now}
	var slept []time.Duration
	var warnings int
	g := &streamGate{base: base, headers: http.Header{"Authorization": {"Bearer x"}}, bo: &backoff{},
		warn:  func(time.Duration) { warnings++ },
		now:   func() time.Time { return now },
		sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); now = now.Add(d); return nil },
	}
	for i := 0; i < 6; i++ {
		req, _ := http.NewRequest(http.MethodGet, "http://x/mcp", nil)
		req.Header.Set("Accept", "text/event-stream")
		resp, err := g.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
		now = now.Add(time.Millisecond)
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}
	if len(slept) != len(want) {
		t.Fatalf("slept %v, want %v", slept, want)
	}
	for i := range want {
		if slept[i] != want[i] {
			t.Fatalf("slept %v, want %v", slept, want)
		}
	}
	if warnings != 1 {
		t.Errorf("%d warnings", warnings)
	}
	// A POST is never held back and carries the headers.
	var seen http.Header
	g.base = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen = r.Header
		return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(""))}, nil
	})
	req, _ := http.NewRequest(http.MethodPost, "http://x/mcp", nil)
	g.RoundTrip(req)
	if seen.Get("Authorization") != "Bearer x" || req.Header.Get("Authorization") != "" {
		t.Errorf("headers: sent %v, caller's request changed: %v", seen, req.Header)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

package llm

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countReads wraps every response body so its Read calls are counted: a
// read of a stream that has nothing waiting is a wake-up of the process.
type countReads struct {
	base  http.RoundTripper
	reads *atomic.Int64
}

func (c countReads) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	if err == nil {
		resp.Body = countedBody{resp.Body, c.reads}
	}
	return resp, err
}

type countedBody struct {
	io.ReadCloser
	reads *atomic.Int64
}

func (b countedBody) Read(p []byte) (int, error) {
	b.reads.Add(1)
	return b.ReadCloser.Read(p)
}

func coalescingTransport(d time.Duration, reads *atomic.Int64) *Transport {
	return NewTransport(TransportConfig{
		Coalesce:   d,
		HTTPClient: &http.Client{Transport: countReads{http.DefaultTransport, reads}},
	})
}

// With Coalesce, events that arrive while the transport holds off are
// read together when it ends: a stream of 40 events 2 ms apart is read in
// a handful of reads instead of one per event, and every piece still
// reaches the handler once, in order.
func TestCoalesceReadsWhatArrivedMeanwhileInOneGo(t *testing.T) {
	var pieces, want []string
	for i := range 40 {
		pieces = append(pieces, fmt.Sprintf("data: p%d \n\n", i))
		want = append(want, fmt.Sprintf("p%d ", i))
	}
	pieces = append(pieces, "data: [DONE]\n\n")
	srv, _ := scripted(t, events(2*time.Millisecond, pieces...))
	var reads atomic.Int64
	var got []string
	resp, err := coalescingTransport(40*time.Millisecond, &reads).Stream(context.Background(), exchange(srv.URL),
		Handler{Text: func(s string) { got = append(got, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "") != strings.Join(want, "") || resp.Text != strings.Join(want, "") {
		t.Fatalf("delivered %q, response %q, want %q", got, resp.Text, want)
	}
	// About 80 ms of stream in 40 ms holds: three or four reads that
	// find events, and the one that finds the end. A slow machine only
	// reads less often.
	if n := reads.Load(); n > 10 {
		t.Fatalf("%d reads for 41 events: the transport did not hold off between deliveries", n)
	}
}

// A cancel ends the hold at once, however long it is.
func TestCoalesceHoldEndsWithTheCancel(t *testing.T) {
	srv, _ := scripted(t, drip(5*time.Millisecond, "data: first\n\n", "data: more\n\n"))
	var reads atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := coalescingTransport(time.Hour, &reads).Stream(ctx, exchange(srv.URL),
			Handler{Text: func(string) { time.AfterFunc(20*time.Millisecond, cancel) }})
		done <- err
	}()
	select {
	case err := <-done:
		if KindOf(err) != KindCancelled {
			t.Fatalf("err %v, want a cancellation", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the cancel did not end the hold")
	}
}

package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A quiet connection reads what the peer sent, waits for what it has not
// sent yet, honours a read deadline and Close, and ends at the peer's
// close, as the connection it wraps does.
func TestQuietConnReadsLikeTheConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	c, err := dialQuiet(&net.Dialer{})(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, ok := c.(*quietConn); !ok {
		t.Fatalf("dialQuiet gave a %T", c)
	}
	peer := <-accepted
	defer peer.Close()

	// Nothing sent yet: the read waits for the bytes.
	go func() {
		time.Sleep(20 * time.Millisecond)
		peer.Write([]byte("hello"))
	}()
	buf := make([]byte, 16)
	n, err := c.Read(buf)
	if err != nil || string(buf[:n]) != "hello" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}

	// After a read that found bytes the low-water mark is up, so packets
	// wake nobody; a read that then waits lowers it and wakes for a
	// single byte.
	if got := lowat(t, c.(*quietConn)); got != quietLowat {
		t.Errorf("SO_RCVLOWAT after a read = %d, want %d", got, quietLowat)
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		peer.Write([]byte("x"))
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		n, err = c.Read(buf)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a read waiting behind the raised mark did not wake for one byte")
	}
	if err != nil || string(buf[:n]) != "x" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}

	// A deadline ends a read that waits.
	c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	_, err = c.Read(buf)
	var ne net.Error
	if !errors.Is(err, os.ErrDeadlineExceeded) || !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("Read past the deadline = %v; want a timeout", err)
	}
	c.SetReadDeadline(time.Time{})

	// The peer's close is the end of the stream.
	peer.Write([]byte("bye"))
	peer.Close()
	var got []byte
	for {
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Read = %v; want io.EOF", err)
		}
	}
	if string(got) != "bye" {
		t.Fatalf("read %q before the end, want %q", got, "bye")
	}
}

// Close ends a read that waits, with the error a closed connection gives.
func TestQuietConnCloseEndsAWaitingRead(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			defer c.Close()
			time.Sleep(time.Second)
		}
	}()
	c, err := dialQuiet(&net.Dialer{})(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 8))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	c.Close()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Read after Close = %v; want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the waiting read")
	}
}

// lowat is the socket's SO_RCVLOWAT.
func lowat(t *testing.T, c *quietConn) int {
	t.Helper()
	var v int
	var err error
	if cerr := c.rc.Control(func(fd uintptr) { v, err = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVLOWAT) }); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Under TLS and HTTP/2, as the real providers serve, a stream that
// pauses between its events arrives whole through quiet connections: the
// raised low-water mark never keeps a read that waits from waking.
func TestQuietConnCarriesATLSHTTP2Stream(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 20 {
			fmt.Fprintf(w, "data: piece %d\n\n", i)
			w.(http.Flusher).Flush()
			time.Sleep(3 * time.Millisecond)
		}
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	base := srv.Client().Transport.(*http.Transport)
	client := &http.Client{Transport: &http.Transport{
		DialContext:       dialQuiet(&net.Dialer{}),
		TLSClientConfig:   base.TLSClientConfig.Clone(),
		ForceAttemptHTTP2: true,
	}}
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.ProtoMajor != 2 {
		t.Fatalf("served over %s, want HTTP/2", resp.Proto)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(body), "data: piece "); n != 20 {
		t.Fatalf("read %d of 20 events:\n%s", n, body)
	}
}

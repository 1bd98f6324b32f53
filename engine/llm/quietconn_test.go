package llm

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
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

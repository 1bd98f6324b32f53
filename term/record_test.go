package term

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a recording target the test can read while the
// terminal writes to it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A recording holds, in asciicast v2, everything the terminal was sent:
// the output events concatenated are exactly the bytes the pty received,
// and a resize is an "r" event.
func TestRecordingIsWhatTheTerminalReceived(t *testing.T) {
	p := openPTY(t)
	var rec lockedBuffer
	term := openTerminal(t, p, Options{AltScreen: true, Record: &rec})
	if _, err := term.Writer().Write([]byte("\x1b[?2026hframe one\x1b[?2026l")); err != nil {
		t.Fatal(err)
	}
	if !term.WaitDrained(5 * time.Second) {
		t.Fatal("frame not written")
	}
	if term.LastWrite() <= 0 {
		t.Errorf("LastWrite = %v after a frame was written", term.LastWrite())
	}
	p.setSize(t, 100, 30)
	if err := syscall.Kill(os.Getpid(), syscall.SIGWINCH); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(rec.String(), `"r", "100x30"`); {
		if time.Now().After(deadline) {
			t.Fatalf("no resize event in the recording:\n%s", rec.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := term.Close(); err != nil {
		t.Fatal(err)
	}

	sc := bufio.NewScanner(strings.NewReader(rec.String()))
	if !sc.Scan() {
		t.Fatal("empty recording")
	}
	var head castHeader
	if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
		t.Fatalf("header %q: %v", sc.Text(), err)
	}
	if head.Version != 2 || head.Width != 80 || head.Height != 24 || head.Env["TERM"] != "xterm-256color" {
		t.Fatalf("header %+v", head)
	}
	var out strings.Builder
	last := 0.0
	for sc.Scan() {
		var ev [3]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("event %q: %v", sc.Text(), err)
		}
		at, _ := ev[0].(float64)
		if at < last {
			t.Fatalf("time went back: %q", sc.Text())
		}
		last = at
		if ev[1] == "o" {
			out.WriteString(ev[2].(string))
		}
	}
	// The pty's reader may still be catching up with the last write.
	for deadline := time.Now().Add(5 * time.Second); p.output() != out.String(); {
		if time.Now().After(deadline) {
			t.Fatalf("the recording's output\n%q\ndiffers from what the pty received\n%q", out.String(), p.output())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "frame one") {
		t.Fatalf("the frame is not in the recording: %q", out.String())
	}
}

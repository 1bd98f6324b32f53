package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
	"github.com/quire-sh/quire/engine/testserver"
)

const fakeKey = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"

// captureStderr runs f with os.Stderr going to a pipe and returns what
// it wrote.
func captureStderr(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = old }()
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	f()
	w.Close()
	return <-done
}

func TestFailureReportsAreRedacted(t *testing.T) {
	t.Setenv("HOME", "/home/alice")
	out := captureStderr(t, func() {
		if code := fail(stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}, errors.New("POST https://api.example.com/v1?key="+fakeKey+" from /home/alice/proj: refused")); code != 1 {
			t.Errorf("fail returned %d", code)
		}
	})
	if out != "quire: POST https://api.example.com/v1?key=[REDACTED] from ~/proj: refused\n" {
		t.Errorf("fail printed %q", out)
	}
	var code int
	out = captureStderr(t, func() {
		func() {
			defer reportPanic(&code)
			panic("bad state near Authorization: Bearer " + fakeKey)
		}()
	})
	if code != 2 || strings.Contains(out, fakeKey) || !strings.HasPrefix(out, "quire: internal error: bad state near Authorization: Bearer [REDACTED]\n") {
		t.Errorf("panic report (exit %d): %q", code, out)
	}
}

// Binaries: quire exec's error lines and replay --print are redacted; an
// API error echoing the key does not reach stderr with it.
func TestSharedOutputIsRedacted(t *testing.T) {
	bin := buildQuire(t)
	srv, err := testserver.Start(testserver.Script{Responses: []testserver.Response{
		testserver.Fail(401, "Incorrect API key provided: "+fakeKey+". You can find your API key at https://platform.example.com."),
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env := []string{"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=" + fakeKey, "QUIRE_MODEL=test-model"}
	_, errOut, code, _ := runQuire(t, bin, env, "exec", "hi")
	if code != 1 || strings.Contains(errOut, fakeKey) || !strings.Contains(errOut, "sk-[REDACTED]") {
		t.Errorf("exec: exit %d, stderr %q", code, errOut)
	}

	file := filepath.Join(t.TempDir(), "t.jsonl")
	events := []event.Event{
		{V: 1, Seq: 1, Time: time.Unix(1, 0), Kind: event.SessionStarted, Session: &event.SessionInfo{ID: "x", Cwd: "/p", Model: "m"}},
		{V: 1, Seq: 2, Time: time.Unix(2, 0), Kind: event.UserMessage, Turn: 1, Text: "use " + fakeKey},
		{V: 1, Seq: 3, Time: time.Unix(3, 0), Kind: event.AssistantMessage, Turn: 1, Text: "password=hunter2 noted"},
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.Encode(store.Header{Format: store.TranscriptFormat, Schema: event.SchemaVersion, Session: "x", Events: len(events)})
	for _, e := range events {
		enc.Encode(e)
	}
	os.WriteFile(file, buf.Bytes(), 0o644)
	out, errOut, code, _ := runQuire(t, bin, nil, "replay", "--print", "--color", "never", file)
	if code != 0 || strings.Contains(out, fakeKey) || strings.Contains(out, "hunter2") || !strings.Contains(out, "sk-[REDACTED]") {
		t.Errorf("replay --print: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

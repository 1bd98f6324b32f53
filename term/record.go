package term

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
)

// A recording is every byte quire writes to the terminal, with its time,
// in asciicast v2 (the format asciinema plays): a JSON header line, then
// one JSON array per write, [seconds, "o", text], and [seconds, "r",
// "WxH"] when the window changes size. It is what a bug report needs to
// show exactly what the terminal was sent, and it replays in any player.
// What a program that quire hands the terminal to writes ($EDITOR) is not
// quire's and is not recorded.
//
// With Options.RecordRedact, each write's text is redacted before it is
// recorded. A write is one frame's changes, so a secret drawn whole in one
// frame (a tool's output, a file, a pasted prompt) is caught; one drawn in
// pieces across frames (a key the model streams token by token, a key
// typed character by character) reaches the recording in pieces the rules
// may not recognise.

// recorder writes a recording. Writes come from the writer goroutine and
// from restores, so it locks.
type recorder struct {
	mu     sync.Mutex
	w      io.Writer
	start  time.Time
	err    error               // the first write error; later events are dropped
	redact func(string) string // applied to output text; nil: none
}

// castHeader is asciicast v2's first line.
type castHeader struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp"`
	Env       map[string]string `json:"env,omitempty"`
}

func newRecorder(w io.Writer, width, height int, env func(string) string, now time.Time) (*recorder, error) {
	r := &recorder{w: w, start: now}
	h := castHeader{Version: 2, Width: width, Height: height, Timestamp: now.Unix(), Env: map[string]string{}}
	for _, k := range []string{"TERM", "SHELL"} {
		if v := env(k); v != "" {
			h.Env[k] = v
		}
	}
	line, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(append(line, '\n')); err != nil {
		return nil, fmt.Errorf("writing the recording: %w", err)
	}
	return r, nil
}

// event appends one event of the given kind ("o" output, "r" resize).
func (r *recorder) event(kind, data string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	if kind == "o" && r.redact != nil {
		data = r.redact(data)
	}
	// json.Marshal keeps the text exact, escape bytes included (invalid
	// UTF-8, which quire never writes, would become U+FFFD).
	text, _ := json.Marshal(data)
	line := fmt.Appendf(nil, "[%.6f, %q, %s]\n", time.Since(r.start).Seconds(), kind, text)
	_, r.err = r.w.Write(line)
}

func (r *recorder) resize(width, height int) { r.event("r", fmt.Sprintf("%dx%d", width, height)) }

// recordingTty is a tty whose every write is also recorded.
type recordingTty struct {
	tcell.Tty
	rec *recorder
}

func (t *recordingTty) Write(p []byte) (int, error) {
	n, err := t.Tty.Write(p)
	if n > 0 {
		t.rec.event("o", string(p[:n]))
	}
	return n, err
}

package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/quire-sh/quire/config"
	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/store"
)

// LoadRecording reads what to replay: the path of an exported JSONL
// transcript, or else a stored session's id (or a unique prefix of it).
func LoadRecording(source string) ([]event.Event, error) {
	if fi, err := os.Stat(source); err == nil && !fi.IsDir() {
		f, err := os.Open(source)
		if err != nil {
			return nil, fmt.Errorf("opening %s: %w", source, err)
		}
		defer f.Close()
		br := bufio.NewReader(f)
		if isTerminalRecording(br) {
			return nil, fmt.Errorf("%s is a recording of the terminal (--record), not a transcript: play it with `asciinema play %s`", source, source)
		}
		_, events, err := store.ReadTranscript(br)
		if err != nil {
			return nil, fmt.Errorf("%s is not a readable quire transcript: %w", source, err)
		}
		return events, nil
	}
	st, err := store.Open(config.StateDir(os.Getenv), store.Options{})
	if err != nil {
		return nil, err
	}
	id, err := st.Resolve(source)
	if err != nil {
		return nil, fmt.Errorf("%q is neither a transcript file nor a stored session: %w", source, err)
	}
	r, err := st.OpenReader(id)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.ReadAll()
}

// isTerminalRecording reports whether r starts with an asciicast v2
// header, what --record writes, without consuming it.
func isTerminalRecording(r *bufio.Reader) bool {
	line, _ := r.Peek(4096)
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	var head struct {
		Version int `json:"version"`
		Width   int `json:"width"`
	}
	return json.Unmarshal(line, &head) == nil && head.Version == 2 && head.Width > 0
}

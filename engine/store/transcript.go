package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/redact"
	bolt "go.etcd.io/bbolt"
)

// TranscriptFormat is the version of the exported JSONL layout (the header
// line and one event per line) this binary writes.
const TranscriptFormat = 1

// maxTranscriptLine bounds one line of a transcript, so a hostile file
// cannot make the reader buffer without limit.
const maxTranscriptLine = 64 << 20

// Header is the first line of a transcript.
type Header struct {
	// Format is TranscriptFormat of the writer; its JSON key marks the line
	// as a quire transcript.
	Format int `json:"quire_transcript"`
	// Schema is event.SchemaVersion of the writer.
	Schema   int       `json:"schema"`
	Session  string    `json:"session"`
	Cwd      string    `json:"cwd,omitempty"`
	Model    string    `json:"model,omitempty"`
	Title    string    `json:"title,omitempty"`
	Created  time.Time `json:"created,omitzero"`
	Exported time.Time `json:"exported"`
	Events   int       `json:"events"`
}

// HeaderFor describes a session in a transcript header.
func HeaderFor(s Summary, events int, exported time.Time) Header {
	return Header{
		Format:   TranscriptFormat,
		Schema:   event.SchemaVersion,
		Session:  s.ID,
		Cwd:      s.Cwd,
		Model:    s.Model,
		Title:    s.Title,
		Created:  s.Created,
		Exported: exported.UTC(),
		Events:   events,
	}
}

// WriteTranscript writes h and then each event as one JSON line. A
// transcript is written to be shared, so secrets in it are redacted
// (package redact, with the user's home directory shown as ~).
func WriteTranscript(w io.Writer, h Header, events []event.Event) error {
	tw := newTranscriptWriter(w)
	if err := tw.header(h); err != nil {
		return err
	}
	for _, e := range events {
		if err := tw.event(e); err != nil {
			return err
		}
	}
	return tw.flush()
}

type transcriptWriter struct {
	bw     *bufio.Writer
	enc    *json.Encoder
	redact func(string) string
}

func newTranscriptWriter(w io.Writer) *transcriptWriter {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &transcriptWriter{bw: bw, enc: enc, redact: redact.ForUser().String}
}

func (t *transcriptWriter) header(h Header) error {
	h.Cwd, h.Title = t.redact(h.Cwd), t.redact(h.Title)
	if err := t.enc.Encode(h); err != nil {
		return fmt.Errorf("write transcript header: %w", err)
	}
	return nil
}

func (t *transcriptWriter) event(e event.Event) error {
	if err := t.enc.Encode(e.MapText(t.redact)); err != nil {
		return fmt.Errorf("write transcript event %d: %w", e.Seq, err)
	}
	return nil
}

func (t *transcriptWriter) flush() error {
	if err := t.bw.Flush(); err != nil {
		return fmt.Errorf("write transcript: %w", err)
	}
	return nil
}

// LineError is a transcript line that could not be read.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// ReadTranscript reads an exported transcript: the header line, then one
// event per line with strictly increasing seqs, each upgraded to the
// current schema. It is all or nothing: any bad line is an error naming
// its line number, and no events are returned with it.
func ReadTranscript(r io.Reader) (Header, []event.Event, error) {
	var h Header
	br := bufio.NewReaderSize(r, 64<<10)
	var events []event.Event
	var last uint64
	for n := 1; ; n++ {
		line, err := readLine(br)
		if errors.Is(err, io.EOF) && line == nil {
			if n == 1 {
				return Header{}, nil, &LineError{Line: 1, Err: errors.New("empty file: not a quire transcript")}
			}
			return h, events, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return Header{}, nil, &LineError{Line: n, Err: err}
		}
		if n == 1 {
			if h, err = parseHeader(line); err != nil {
				return Header{}, nil, &LineError{Line: 1, Err: err}
			}
			continue
		}
		e, err := parseEventLine(line, last)
		if err != nil {
			return Header{}, nil, &LineError{Line: n, Err: err}
		}
		last = e.Seq
		events = append(events, e)
	}
}

// readLine returns one line without its newline; nil at the end.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxTranscriptLine {
			return nil, fmt.Errorf("line longer than %d bytes", maxTranscriptLine)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			if len(line) == 0 {
				return nil, err
			}
			return line, err
		}
		return line[:len(line)-1], nil
	}
}

func parseHeader(line []byte) (Header, error) {
	var h Header
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(line, &probe); err != nil {
		return h, fmt.Errorf("not a quire transcript header: %v", err)
	}
	if _, ok := probe["quire_transcript"]; !ok {
		return h, errors.New("not a quire transcript: the first line has no \"quire_transcript\" version")
	}
	if err := json.Unmarshal(line, &h); err != nil {
		return h, fmt.Errorf("transcript header: %v", err)
	}
	if h.Format < 1 {
		return h, fmt.Errorf("transcript header: format %d is not a version", h.Format)
	}
	if h.Format > TranscriptFormat {
		return h, fmt.Errorf("%w (transcript format v%d; this binary reads up to v%d): upgrade quire to read it", ErrTooNew, h.Format, TranscriptFormat)
	}
	if err := event.CheckVersion(h.Schema); err != nil {
		return h, err
	}
	return h, nil
}

func parseEventLine(line []byte, last uint64) (event.Event, error) {
	var e event.Event
	if len(bytes.TrimSpace(line)) == 0 {
		return e, errors.New("empty line")
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return e, fmt.Errorf("bad event: %v", err)
	}
	if e.Kind == "" {
		return e, errors.New("event has no kind")
	}
	if e.Seq <= last {
		return e, fmt.Errorf("event seq %d does not follow %d", e.Seq, last)
	}
	if err := event.Upgrade(&e); err != nil {
		return e, err
	}
	return e, nil
}

// Export writes session id as a transcript. A session open in another
// process cannot be read (ErrInUse); export it after it ends.
func (s *Store) Export(w io.Writer, id string) error {
	r, err := s.OpenReader(id)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.Export(w, s.opts.Now())
}

// Export writes the session as a transcript, streaming the events.
func (r *Reader) Export(w io.Writer, now time.Time) error { return r.view.export(w, now) }

// Export writes the session as a transcript, after committing what waits:
// how a running session exports itself.
func (w *Writer) Export(out io.Writer, now time.Time) error {
	if err := w.Flush(); err != nil {
		return err
	}
	return w.view.export(out, now)
}

func (v view) export(w io.Writer, now time.Time) error {
	sum, err := v.Summary()
	if err != nil {
		return err
	}
	n, err := v.count()
	if err != nil {
		return err
	}
	tw := newTranscriptWriter(w)
	if err := tw.header(HeaderFor(sum, n, now)); err != nil {
		return err
	}
	if err := v.each(1, 0, tw.event); err != nil {
		return err
	}
	return tw.flush()
}

// count is the number of stored events.
func (v view) count() (int, error) {
	var n int
	err := v.read(func(tx *bolt.Tx) error {
		n = tx.Bucket(bucketEvents).Stats().KeyN
		return nil
	})
	return n, err
}

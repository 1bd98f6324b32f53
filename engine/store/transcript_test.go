package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// TestExportRoundTrip: store → export → read back gives the same events
// and a header describing the session.
func TestExportRoundTrip(t *testing.T) {
	st := newTestStore(t, Options{Now: func() time.Time { return baseTime }})
	w, err := st.Create("rt", "/home/u/p")
	if err != nil {
		t.Fatal(err)
	}
	events := sessionEvents("rt", "/home/u/p", 5)
	recordAll(t, w, events)
	w.Close()
	var buf bytes.Buffer
	if err := st.Export(&buf, "rt"); err != nil {
		t.Fatal(err)
	}
	h, got, err := ReadTranscript(&buf)
	if err != nil {
		t.Fatal(err)
	}
	mustEqualEvents(t, got, events)
	want := Header{Format: TranscriptFormat, Schema: event.SchemaVersion, Session: "rt", Cwd: "/home/u/p", Model: "test-model",
		Title: "prompt 1: fix the \"bug\" ✓", Created: baseTime, Exported: baseTime, Events: len(got)}
	if h != want {
		t.Fatalf("header = %+v\nwant     %+v", h, want)
	}
	// A running session exports itself the same way.
	w, err = st.Append("rt")
	if err != nil {
		t.Fatal(err)
	}
	var live bytes.Buffer
	if err := w.Export(&live, baseTime); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, fromLive, err := ReadTranscript(&live); err != nil {
		t.Fatal(err)
	} else {
		mustEqualEvents(t, fromLive, events)
	}
	// And the reader accepts what WriteTranscript writes.
	buf.Reset()
	if err := WriteTranscript(&buf, want, got); err != nil {
		t.Fatal(err)
	}
	if _, again, err := ReadTranscript(&buf); err != nil {
		t.Fatal(err)
	} else {
		mustEqualEvents(t, again, events)
	}
}

func TestReadTranscriptBadInput(t *testing.T) {
	const head = `{"quire_transcript":1,"schema":1,"session":"s","exported":"2026-11-30T07:00:00Z","events":2}`
	ev := func(seq int) string {
		return `{"v":1,"seq":` + string(rune('0'+seq)) + `,"time":"2026-11-30T07:00:00Z","kind":"notice","text":"x"}`
	}
	for _, tc := range []struct {
		name   string
		input  string
		line   int
		substr string
	}{
		{"empty", "", 1, "empty file"},
		{"not a header", ev(1) + "\n", 1, "not a quire transcript"},
		{"plain text", "hello\n", 1, "not a quire transcript header"},
		{"newer format", `{"quire_transcript":2,"schema":1}` + "\n", 1, "transcript format v2; this binary reads up to v1"},
		{"newer schema", `{"quire_transcript":1,"schema":7}` + "\n", 1, "event schema v7; this binary reads up to v1"},
		{"bad json", head + "\n" + ev(1) + "\n{\"v\":1,\"seq\":2,\n", 3, "bad event"},
		{"truncated last line", head + "\n" + ev(1) + "\n" + ev(2)[:30], 3, "bad event"},
		{"seq goes back", head + "\n" + ev(2) + "\n" + ev(1) + "\n", 3, "seq 1 does not follow 2"},
		{"no kind", head + "\n" + `{"v":1,"seq":1}` + "\n", 2, "no kind"},
		{"empty line", head + "\n\n" + ev(1) + "\n", 2, "empty line"},
		{"event from the future", head + "\n" + `{"v":3,"seq":1,"kind":"x"}` + "\n", 2, "event schema v3"},
		{"trailing garbage", head + "\n" + ev(1) + " x\n", 2, "bad event"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, events, err := ReadTranscript(strings.NewReader(tc.input))
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a LineError", err)
			}
			if le.Line != tc.line || !strings.Contains(err.Error(), tc.substr) {
				t.Fatalf("err = %v, want line %d and %q", err, tc.line, tc.substr)
			}
			if events != nil || h != (Header{}) {
				t.Fatalf("a bad transcript loaded half-way: %d events, header %+v", len(events), h)
			}
		})
	}
	// Good: no trailing newline, and unknown fields ignored.
	h, events, err := ReadTranscript(strings.NewReader(head + "\n" + ev(1) + "\n" + `{"v":1,"seq":3,"kind":"notice","new_field":true}`))
	if err != nil || len(events) != 2 || h.Session != "s" {
		t.Fatalf("good transcript: %v, %d events", err, len(events))
	}
}

func FuzzReadTranscript(f *testing.F) {
	var buf bytes.Buffer
	WriteTranscript(&buf, HeaderFor(Summary{ID: "f", Cwd: "/p"}, 3, baseTime), sessionEvents("f", "/p", 1)[:4])
	f.Add(buf.Bytes())
	f.Add([]byte(`{"quire_transcript":1,"schema":1}` + "\n" + `{"v":1,"seq":1,"kind":"notice"}`))
	f.Add([]byte("{}\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, events, err := ReadTranscript(bytes.NewReader(data))
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) || le.Line < 1 {
				t.Fatalf("error without a line number: %v", err)
			}
			if events != nil || h != (Header{}) {
				t.Fatal("loaded half-way")
			}
			return
		}
		for i := 1; i < len(events); i++ {
			if events[i].Seq <= events[i-1].Seq {
				t.Fatalf("seqs not increasing: %d then %d", events[i-1].Seq, events[i].Seq)
			}
		}
		// What was read writes back and reads again the same.
		var out bytes.Buffer
		if err := WriteTranscript(&out, h, events); err != nil {
			t.Fatal(err)
		}
		h2, again, err := ReadTranscript(&out)
		if err != nil {
			t.Fatalf("rewritten transcript unreadable: %v", err)
		}
		j1, _ := json.Marshal(h)
		j2, _ := json.Marshal(h2)
		if string(j1) != string(j2) || len(again) != len(events) {
			t.Fatal("rewritten transcript differs")
		}
	})
}

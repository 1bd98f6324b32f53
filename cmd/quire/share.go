package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/redact"
)

// What quire prints when something fails, and what `replay --print`
// writes, is often pasted into a bug report: both go through package
// redact's rule set, with the home directory shown as ~.

// redacting redacts every Write on its own, so each must be whole text
// (quire's error lines are written whole).
type redacting struct {
	w io.Writer
	r *redact.Redactor
}

func redactingWriter(w io.Writer) io.Writer { return redacting{w, redact.ForUser()} }

func (r redacting) Write(p []byte) (int, error) {
	s := string(p)
	if _, err := io.WriteString(r.w, r.r.String(s)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// redactEvents returns the events with every text redacted.
func redactEvents(events []event.Event) []event.Event {
	r := redact.ForUser()
	out := make([]event.Event, len(events))
	for i, e := range events {
		out[i] = e.MapText(r.String)
	}
	return out
}

// reportPanic, deferred in main's goroutine, turns a panic into a report
// on stderr with secrets redacted and exit status 2. The terminal has
// been restored by then (term's RestoreOnPanic panics again after it). A
// panic in another goroutine is reported by the Go runtime as it is.
func reportPanic(code *int) {
	p := recover()
	if p == nil {
		return
	}
	r := redact.ForUser()
	fmt.Fprintf(os.Stderr, "quire: internal error: %s\n\n%s", r.String(fmt.Sprint(p)), r.String(string(debug.Stack())))
	*code = 2
}

package term

import (
	"strings"
	"testing"
	"time"
)

// With RecordRedact the recording holds the redacted text; the terminal
// itself still gets every byte.
func TestRecordingIsRedacted(t *testing.T) {
	p := openPTY(t)
	var rec lockedBuffer
	const secret = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
	hide := func(s string) string { return strings.ReplaceAll(s, secret, "[REDACTED]") }
	term := openTerminal(t, p, Options{AltScreen: true, Record: &rec, RecordRedact: hide})
	if _, err := term.Writer().Write([]byte("\x1b[?2026hkey " + secret + "\x1b[?2026l")); err != nil {
		t.Fatal(err)
	}
	if !term.WaitDrained(5 * time.Second) {
		t.Fatal("frame not written")
	}
	p.waitOutput(t, 0, "key "+secret) // the terminal gets the text as written
	if err := term.Close(); err != nil {
		t.Fatal(err)
	}
	if got := rec.String(); strings.Contains(got, secret) || !strings.Contains(got, "key [REDACTED]") {
		t.Errorf("the recording holds:\n%s", got)
	}
}

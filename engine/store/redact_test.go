package store

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
)

// Made-up keys with the shapes of real ones.
const (
	fakeOpenAI = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
	fakeGitHub = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"
	fakeAWS    = "AKIAQ3EXAMPLE7ZZ4TQA"
)

// An export is written to be shared: secrets anywhere in it (prompts,
// tool arguments, outputs, diffs, previews, errors) are redacted and the
// home directory is shown as ~, and what is left is still a transcript.
func TestExportRedactsSecrets(t *testing.T) {
	t.Setenv("HOME", "/home/alice")
	st := newTestStore(t, Options{Now: func() time.Time { return baseTime }})
	cwd := "/home/alice/src/app"
	w, err := st.Create("sec", cwd)
	if err != nil {
		t.Fatal(err)
	}
	call := event.ToolCall{ID: "c1", Name: "shell", ToolKind: "execute", Target: "curl -H 'Authorization: Bearer " + fakeOpenAI + "' x",
		Arguments: json.RawMessage(`{"command": "export GITHUB_TOKEN=` + fakeGitHub + `"}`)}
	var evs []event.Event
	add := func(e event.Event) {
		e.V, e.Seq, e.Time = event.SchemaVersion, uint64(len(evs)+1), baseTime
		evs = append(evs, e)
	}
	add(event.Event{Kind: event.SessionStarted, Session: &event.SessionInfo{ID: "sec", Cwd: cwd, Model: "m"}})
	add(event.Event{Kind: event.UserMessage, Turn: 1, Text: "my key is " + fakeOpenAI + ", use it"})
	add(event.Event{Kind: event.TurnStarted, Turn: 1})
	add(event.Event{Kind: event.AssistantMessage, Turn: 1, Calls: []event.ToolCall{call}})
	add(event.Event{Kind: event.ToolCallRequested, Turn: 1, Call: &call})
	add(event.Event{Kind: event.ApprovalRequested, Turn: 1, Approval: &event.Approval{CallID: "c1", Tool: "shell", Preview: "aws_access_key_id = " + fakeAWS}})
	add(event.Event{Kind: event.ToolOutputDelta, Turn: 1, CallID: "c1", Text: "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"})
	add(event.Event{Kind: event.ToolFinished, Turn: 1, Result: &event.ToolResult{CallID: "c1", Name: "shell", Status: event.ToolOK,
		Output: "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn\n-----END RSA PRIVATE KEY-----\nin /home/alice/.ssh/id_rsa\n" + strings.Repeat("padding ", 2000),
		Diff:   "+password = \"hunter2\"\n"}})
	add(event.Event{Kind: event.TurnEnded, Turn: 1, End: &event.TurnEnd{State: event.TurnFailed, Error: "GET https://api.example.com/v1?key=" + fakeAWS + " failed"}})
	recordAll(t, w, evs)
	w.Close()

	var buf bytes.Buffer
	if err := st.Export(&buf, "sec"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, secret := range []string{fakeOpenAI, fakeGitHub, fakeAWS, "wJalrXUtnFEMI", "MIIEowIBAAKCAQEA", "hunter2", "/home/alice"} {
		if strings.Contains(out, secret) {
			t.Errorf("the export holds %q", secret)
		}
	}
	h, got, err := ReadTranscript(strings.NewReader(out))
	if err != nil {
		t.Fatalf("the redacted export is no longer a transcript: %v", err)
	}
	if h.Cwd != "~/src/app" || got[0].Session.Cwd != "~/src/app" {
		t.Errorf("cwd %q / %q, want ~/src/app", h.Cwd, got[0].Session.Cwd)
	}
	if got[1].Text != "my key is sk-[REDACTED], use it" {
		t.Errorf("prompt %q", got[1].Text)
	}
	var args struct{ Command string }
	if err := json.Unmarshal(got[3].Calls[0].Arguments, &args); err != nil || args.Command != "export GITHUB_TOKEN=[REDACTED]" {
		t.Errorf("arguments %s (%v)", got[3].Calls[0].Arguments, err)
	}
	if !strings.Contains(got[7].Result.Output, "in ~/.ssh/id_rsa") {
		t.Errorf("output %q", got[7].Result.Output[:120])
	}
	// The store itself keeps what happened: redaction is for sharing.
	r, _ := st.OpenReader("sec")
	defer r.Close()
	stored, _ := r.ReadAll()
	mustEqualEvents(t, stored, evs)
}

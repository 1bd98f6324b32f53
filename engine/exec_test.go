package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
)

//lint:ignore ST1008 the test helper returns the outcome in the order the assertions read it
func execWith(t *testing.T, script testserver.Script, opt ExecOptions, mod func(*Config)) (event.TurnState, error, string, string, *testserver.Server) {
	t.Helper()
	srv, err := testserver.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	cfg := baseConfig(t, srv.URL())
	if mod != nil {
		mod(&cfg)
	}
	var out, errOut bytes.Buffer
	opt.Stdout, opt.Stderr = &out, &errOut
	if opt.Prompt == "" {
		opt.Prompt = "do it"
	}
	state, err := Exec(context.Background(), cfg, opt)
	return state, err, out.String(), errOut.String(), srv
}

func TestExecPrintsTheFinalAnswer(t *testing.T) {
	state, err, out, errOut, _ := execWith(t, testserver.Script{Responses: []testserver.Response{
		{Text: []string{"Looking."}, ToolCalls: []testserver.ToolCall{call("c1", "read", "a.go")}},
		testserver.Text("All good."),
	}}, ExecOptions{Progress: true}, nil)
	if err != nil || state != event.TurnCompleted {
		t.Fatalf("state %s err %v", state, err)
	}
	if out != "All good.\n" {
		t.Errorf("stdout %q", out)
	}
	if !strings.Contains(errOut, "→ read a.go") {
		t.Errorf("progress %q", errOut)
	}
}

func TestExecJSONLines(t *testing.T) {
	_, err, out, _, _ := execWith(t, testserver.Script{Responses: []testserver.Response{testserver.Text("hi there")}}, ExecOptions{JSON: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var e event.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if e.V != event.SchemaVersion {
			t.Fatalf("event without version: %q", sc.Text())
		}
		kinds = append(kinds, string(e.Kind))
	}
	got := strings.Join(kinds, " ")
	if !strings.HasPrefix(got, "session_started user_message turn_started assistant_delta") || !strings.HasSuffix(got, "assistant_message turn_ended") {
		t.Fatalf("kinds %s", got)
	}
}

func TestExecDeniesWhatNeedsAsking(t *testing.T) {
	state, err, out, errOut, srv := execWith(t, testserver.Script{Responses: []testserver.Response{
		calls(call("w1", "write", "b.go"), call("r1", "read", "b.go")),
		testserver.Text("I could not write b.go."),
	}}, ExecOptions{}, func(c *Config) { c.Approver = &askWrites{} })
	if err != nil || state != event.TurnCompleted {
		t.Fatalf("state %s err %v", state, err)
	}
	if !strings.Contains(errOut, "denied write b.go") || !strings.Contains(errOut, "--approval auto-edit or yolo") {
		t.Errorf("stderr %q", errOut)
	}
	if out != "I could not write b.go.\n" {
		t.Errorf("stdout %q", out)
	}
	var toolMsgs []string
	for _, m := range srv.Requests()[1].Messages {
		if m.Role == "tool" {
			toolMsgs = append(toolMsgs, m.ToolCallID+": "+m.Content)
		}
	}
	if len(toolMsgs) != 2 || !strings.Contains(toolMsgs[0], "running unattended") || !strings.Contains(toolMsgs[1], "read b.go ok") {
		t.Fatalf("tool messages %q", toolMsgs)
	}
}

func TestExecCancel(t *testing.T) {
	srv, _ := testserver.Start(testserver.Script{Responses: []testserver.Response{{Fault: testserver.FaultHang}}})
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	var out, errOut bytes.Buffer
	state, err := Exec(ctx, baseConfig(t, srv.URL()), ExecOptions{Prompt: "x", Stdout: &out, Stderr: &errOut})
	if state != event.TurnCancelled || err != nil {
		t.Fatalf("state %s err %v", state, err)
	}
}

func TestExecFailure(t *testing.T) {
	state, err, out, _, _ := execWith(t, testserver.Script{Responses: []testserver.Response{testserver.Fail(401, "Incorrect API key provided.")}}, ExecOptions{}, nil)
	if state != event.TurnFailed || err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") || out != "" {
		t.Fatalf("state %s err %v out %q", state, err, out)
	}
}

func TestExecRefusesBadConfig(t *testing.T) {
	cfg := baseConfig(t, "")
	cfg.Model = ""
	cfg.Sampler = nil
	_, err := Exec(context.Background(), cfg, ExecOptions{Prompt: "x", Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	if err == nil || !strings.Contains(err.Error(), "QUIRE_MODEL") || !strings.Contains(err.Error(), "Sampler") {
		t.Fatalf("error %v", err)
	}
}

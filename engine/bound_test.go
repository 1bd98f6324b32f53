package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/testserver"
	"github.com/quire-sh/quire/tools"
)

const fiftyMB = 50 << 20

// loud is a tool that streams n bytes (lines of "é" and digits, so cuts
// can fall inside a character) and returns a short result, as the shell
// tool does with its 30 KB head and tail.
func loud(n int) *fakeTool {
	return &fakeTool{name: "loud", kind: tools.KindExecute, run: func(ctx context.Context, call tools.Call, _ map[string]any) tools.Result {
		line := []byte(strings.Repeat("é", 40) + " 0123456789\n")
		sent := 0
		for sent < n {
			chunk := line
			if n-sent < len(chunk) {
				chunk = chunk[:n-sent]
			}
			// Odd split points, so characters straddle chunks.
			for len(chunk) > 0 {
				k := min(len(chunk), 33)
				call.Output(chunk[:k])
				chunk = chunk[k:]
				sent += k
			}
		}
		return tools.Result{Output: "what the model saw"}
	}}
}

func TestStreamBound(t *testing.T) {
	var got []string
	b := &streamBound{emit: func(s string) { got = append(got, s) }}
	c := &utf8Carry{emit: b.write}
	line := []byte(strings.Repeat("é", 40) + " 0123456789\n")
	var total int
	for total < fiftyMB {
		c.write(line)
		total += len(line)
	}
	c.flush()
	b.flush()
	var all strings.Builder
	for _, s := range got {
		if !utf8.ValidString(s) {
			t.Fatalf("an event carries broken UTF-8: %q", s[:min(len(s), 40)])
		}
		all.WriteString(s)
	}
	out := all.String()
	if len(out) > streamHead+streamTail+300 {
		t.Errorf("%d bytes passed on for %d written", len(out), total)
	}
	if !strings.HasPrefix(out, string(line)) || !strings.HasSuffix(out, string(line)+string(line)) {
		t.Error("the head or the tail is missing")
	}
	if !strings.Contains(out, fmt.Sprintf("the call printed %d bytes in all", total)) {
		t.Errorf("the total is not reported: %q", out[streamHead-100:streamHead+400])
	}
	if b.omittedTotal() != int64(total) {
		t.Errorf("omittedTotal %d, want %d", b.omittedTotal(), total)
	}
	// Small output passes whole, with no marker.
	got = nil
	small := &streamBound{emit: func(s string) { got = append(got, s) }}
	small.write("hello\n")
	small.flush()
	if strings.Join(got, "") != "hello\n" || small.omittedTotal() != 0 {
		t.Errorf("small output: %q", got)
	}
}

// 50 MB of tool output: the model saw the tool's result, and the store
// and the live stream got a bounded head and tail and the total size.
func TestFiftyMegabytesOfOutputStayBounded(t *testing.T) {
	h := newHarness(t, testserver.Script{Responses: []testserver.Response{
		{ToolCalls: []testserver.ToolCall{{ID: "c1", Name: "loud", Arguments: `{}`}}},
		testserver.Text("done"),
	}}, func(c *Config) { c.Tools = tools.NewRegistry(loud(fiftyMB)) })
	h.s.Submit("make noise")
	h.turnEnd(1)
	stored, streamed := 0, 0
	var finished *event.ToolResult
	for _, e := range h.rec.snapshot() {
		b, _ := json.Marshal(e)
		stored += len(b)
		if e.Kind == event.ToolFinished {
			finished = e.Result
		}
	}
	for _, e := range h.all() {
		if e.Kind == event.ToolOutputDelta {
			streamed += len(e.Text)
		}
	}
	if stored > 1<<20 {
		t.Errorf("the session's events take %d bytes for one call", stored)
	}
	if streamed > streamHead+streamTail+300 {
		t.Errorf("%d bytes of output streamed", streamed)
	}
	if finished == nil || finished.Output != "what the model saw" || finished.StreamedBytes != fiftyMB {
		t.Errorf("ToolFinished: %+v", finished)
	}
	if msg := h.srv.Requests()[1].LastMessage().Content; msg != "what the model saw" {
		t.Errorf("the model was sent %q", msg[:min(len(msg), 80)])
	}
}

func TestExecJSONStaysBounded(t *testing.T) {
	_, err, out, _, _ := execWith(t, testserver.Script{Responses: []testserver.Response{
		{ToolCalls: []testserver.ToolCall{{ID: "c1", Name: "loud", Arguments: `{}`}}},
		testserver.Text("done"),
	}}, ExecOptions{JSON: true}, func(c *Config) {
		c.Tools = tools.NewRegistry(loud(fiftyMB))
		c.Approver = nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > 1<<20 {
		t.Errorf("exec --json printed %d bytes for 50 MB of tool output", len(out))
	}
	if !strings.Contains(out, `"streamed_bytes":52428800`) {
		t.Error("exec --json does not report the output's size")
	}
}

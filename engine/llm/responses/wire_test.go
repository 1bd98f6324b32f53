package responses

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/quire-sh/quire/engine/llm"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// conversation is a session that started on another protocol, went on
// with an earlier model of this one, and is now on gpt-x.
func conversation() llm.Request {
	own, _ := json.Marshal(savedReasoning{Model: "gpt-x", Item: json.RawMessage(`{"type":"reasoning","id":"rs_9","summary":[{"type":"summary_text","text":"Check a.go."}],"encrypted_content":"gAAAA-own"}`)})
	older, _ := json.Marshal(savedReasoning{Model: "gpt-old", Item: json.RawMessage(`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAA-old"}`)})
	return llm.Request{
		Model:  "gpt-x",
		System: "You are quire.",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "Hi"},
			{Role: llm.RoleAssistant, Content: "Hello.", Reasoning: "greet", State: []llm.ReasoningState{{Protocol: "anthropic", Data: json.RawMessage(`{"type":"thinking","thinking":"greet","signature":"s"}`)}}},
			{Role: llm.RoleUser, Content: "Fix a.go"},
			{Role: llm.RoleAssistant, State: []llm.ReasoningState{{Protocol: Protocol, Data: older}}, Calls: []llm.ToolCall{{ID: "toolu_01", Name: "read_file", Arguments: `{"path":"a.go"}`}}},
			{Role: llm.RoleTool, CallID: "toolu_01", Name: "read_file", Content: "package a"},
			{Role: llm.RoleAssistant, Content: "Editing.", State: []llm.ReasoningState{{Protocol: Protocol, Data: own}}, Calls: []llm.ToolCall{
				{ID: "call_1", Name: "edit_file", Arguments: `{"path":"a.go"}`},
				{ID: "call_2", Name: "shell", Arguments: `{"command":"go vet"}`},
			}},
			{Role: llm.RoleTool, CallID: "call_1", Name: "edit_file", Content: "ok"},
			{Role: llm.RoleTool, CallID: "call_2", Name: "shell", Content: ""},
		},
		Tools:     []llm.ToolSpec{{Name: "read_file", Description: "Read a file.", Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}},
		MaxTokens: 4096,
	}
}

// The body sends reasoning back only for items this protocol wrote for
// this model, as the server wrote them, before the text and calls they came
// with; it is stateless and asks for the encrypted content.
func TestRequestBody(t *testing.T) {
	c := New(Config{BaseURL: "http://x/v1", Reasoning: true, ReasoningEffort: "medium"})
	body, err := c.Body(conversation())
	if err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	golden := filepath.Join("testdata", "request.json")
	if *update {
		if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pretty.Bytes(), want) {
		t.Fatalf("body differs from %s (run with -update to accept):\n%s", golden, pretty.Bytes())
	}
}

func TestKeeps(t *testing.T) {
	r := conversation()
	if Keeps("gpt-x", r.Messages[1].State[0]) || Keeps("gpt-x", r.Messages[3].State[0]) || !Keeps("gpt-x", r.Messages[5].State[0]) || Keeps("gpt-y", r.Messages[5].State[0]) {
		t.Fatal("Keeps disagrees with what is sent")
	}
}

// A model without reasoning gets no reasoning parameter and no request
// for encrypted content (which it refuses), but its temperature.
func TestPlainModelBody(t *testing.T) {
	req := llm.Request{Model: "gpt-4o", Messages: []llm.Message{{Role: llm.RoleUser, Content: "Hi"}}, Temperature: 0.5}
	body, _ := New(Config{}).Body(req)
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["reasoning"]; ok || got["include"] != nil || got["temperature"] != 0.5 || got["store"] != false || got["tools"] != nil {
		t.Fatalf("body %s", body)
	}
}

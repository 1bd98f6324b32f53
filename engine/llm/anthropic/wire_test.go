package anthropic

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/quire-sh/quire/engine/llm"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// conversation started on the Responses API, went on with another Claude
// model, and is now on claude-x; a local server wrote the first call id.
func conversation() llm.Request {
	return llm.Request{
		Model:  "claude-x",
		System: "You are quire.",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "Hi"},
			{Role: llm.RoleAssistant, Content: "Hello.", State: []llm.ReasoningState{{Protocol: "responses", Data: json.RawMessage(`{"model":"gpt-x","item":{"type":"reasoning","encrypted_content":"e"}}`)}}},
			{Role: llm.RoleUser, Content: "Fix a.go"},
			{Role: llm.RoleAssistant, State: []llm.ReasoningState{saved("claude-old", `{"type":"thinking","thinking":"old","signature":"s0"}`)},
				Calls: []llm.ToolCall{{ID: "functions.read_file:0", Name: "read_file", Arguments: `{"path":"a.go"}`}}},
			{Role: llm.RoleTool, CallID: "functions.read_file:0", Name: "read_file", Content: "package a"},
			{Role: llm.RoleAssistant, Content: "Editing.", State: []llm.ReasoningState{
				saved("claude-x", `{"type":"thinking","thinking":"Edit, then vet.","signature":"EqQBsig"}`),
				saved("claude-x", `{"type":"redacted_thinking","data":"EmwKAh"}`),
			}, Calls: []llm.ToolCall{
				{ID: "toolu_1", Name: "edit_file", Arguments: `{"path":"a.go"}`},
				{ID: "toolu_2", Name: "shell", Arguments: `{"command": "go vet`},
			}},
			{Role: llm.RoleTool, CallID: "toolu_1", Name: "edit_file", Content: "denied: the user said no", IsError: true},
			{Role: llm.RoleTool, CallID: "toolu_2", Name: "shell", Content: ""},
			{Role: llm.RoleUser, Content: "Continue from where it stopped."},
		},
		Tools: []llm.ToolSpec{
			{Name: "read_file", Description: "Read a file.", Schema: json.RawMessage(`{"type":"object"}`)},
			{Name: "shell", Description: "Run a command.", Schema: json.RawMessage(`{"type":"object"}`)},
		},
		Temperature: 0.3,
	}
}

// Thinking goes back verbatim and first, only to the model that wrote
// it; results of one message form one user message, in call order, with
// is_error; ids are mapped; the cache breakpoints sit on the system
// prompt, the last tool and the last two user messages.
func TestRequestBody(t *testing.T) {
	c := New(Config{BaseURL: "http://x", MaxTokens: 32000, ThinkingBudget: 8192})
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
	if n := bytes.Count(body, []byte(`"cache_control"`)); n != 4 {
		t.Errorf("%d cache breakpoints, want 4", n)
	}
}

func TestToolIDs(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	seen := map[string]string{}
	for _, id := range []string{"toolu_01A", "call_abc-1", "functions.read_file:0", "functions.read_file:1", "", "日本", string(make([]byte, 100))} {
		got := ToolID(id)
		if !valid.MatchString(got) {
			t.Errorf("ToolID(%q) = %q: not accepted", id, got)
		}
		if other, dup := seen[got]; dup {
			t.Errorf("%q and %q both map to %q", id, other, got)
		}
		seen[got] = id
		if ToolID(id) != got {
			t.Errorf("ToolID(%q) is not stable", id)
		}
	}
	if ToolID("toolu_01A") != "toolu_01A" {
		t.Error("a valid id was changed")
	}
}

// Without thinking the temperature is sent; a small cap leaves no room
// for thinking, which is then off.
func TestThinkingOffBody(t *testing.T) {
	req := llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Content: "Hi"}}, Temperature: 0.5, MaxTokens: 1500}
	body, _ := New(Config{ThinkingBudget: 4096}).Body(req)
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["thinking"]; ok || got["temperature"] != 0.5 || got["max_tokens"] != 1500.0 {
		t.Fatalf("body %s", body)
	}
	body, _ = New(Config{}).Body(llm.Request{Model: "m"})
	if !bytes.Contains(body, []byte(`"max_tokens":8192`)) || !bytes.Contains(body, []byte(`"messages":[]`)) {
		t.Fatalf("defaults: %s", body)
	}
}

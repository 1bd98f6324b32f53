package testserver

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func postTo(t *testing.T, url, body string, header map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The servers refuse what the real APIs refuse, so a client bug shows up
// in tests as it would in use.
func TestRefusals(t *testing.T) {
	srv, err := Start(Script{Responses: []Response{Text("ok"), Text("ok"), Text("ok")}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	v := map[string]string{"anthropic-version": "2023-06-01"}
	tests := []struct {
		name, url, body string
		header          map[string]string
		status          int
		says            string
	}{
		{"responses: reasoning by id without store", srv.URL() + "/responses",
			`{"model":"m","store":false,"input":[{"type":"reasoning","id":"rs_1","summary":[]}]}`, nil, 404, "not persisted"},
		{"responses: forged encrypted content", srv.URL() + "/responses",
			`{"model":"m","store":false,"input":[{"type":"reasoning","summary":[],"encrypted_content":"enc_aGk.bad"}]}`, nil, 400, "could not be verified"},
		{"responses: output without its call", srv.URL() + "/responses",
			`{"model":"m","input":[{"type":"function_call_output","call_id":"c9","output":"x"}]}`, nil, 400, "No tool call found"},
		{"anthropic: no version header", srv.Root() + "/v1/messages",
			`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`, nil, 400, "anthropic-version"},
		{"anthropic: no max_tokens", srv.Root() + "/v1/messages",
			`{"model":"m","messages":[{"role":"user","content":"hi"}]}`, v, 400, "max_tokens"},
		{"anthropic: tool_use without its result", srv.Root() + "/v1/messages",
			`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"x","input":{}}]},{"role":"user","content":"go on"}]}`, v, 400, "without `tool_result`"},
		{"anthropic: an id it rejects", srv.Root() + "/v1/messages",
			`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"a.b:0","name":"x","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a.b:0","content":"r"}]}]}`, v, 400, "pattern"},
		{"anthropic: thinking budget above max_tokens", srv.Root() + "/v1/messages",
			`{"model":"m","max_tokens":2000,"thinking":{"type":"enabled","budget_tokens":4000},"messages":[{"role":"user","content":"hi"}]}`, v, 400, "budget_tokens"},
		{"anthropic: forged signature", srv.Root() + "/v1/messages",
			`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"sig_x"},{"type":"text","text":"a"}]},{"role":"user","content":"more"}]}`, v, 400, "Invalid `signature`"},
		{"anthropic: a message of another role", srv.Root() + "/v1/messages",
			`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"tool","content":"x"}]}`, v, 400, "messages.1.role"},
		{"anthropic: system text between turns, as Claude Code sends it", srv.Root() + "/v1/messages",
			`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"system","content":"Available agent types: none"}],"stream":true}`, v, 200, "message_stop"},
		{"anthropic: a valid conversation", srv.Root() + "/v1/messages",
			`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"` + signature("t") + `"},{"type":"tool_use","id":"t1","name":"x","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"r"}]}]}`, v, 200, "message_stop"},
	}
	for _, tt := range tests {
		status, body := postTo(t, tt.url, tt.body, tt.header)
		if status != tt.status || !strings.Contains(body, tt.says) {
			t.Errorf("%s: %d %s", tt.name, status, body)
		}
	}
	// Refused requests do not use up the script.
	if status, _ := postTo(t, srv.URL()+"/responses", `{"model":"m","input":"hi"}`, nil); status != 200 {
		t.Errorf("after refusals: %d", status)
	}
}

// One script plays in each protocol's format, with the same content.
func TestOneScriptThreeProtocols(t *testing.T) {
	resp := Response{Reasoning: []string{"think"}, Text: []string{"He", "llo"}, ToolCalls: []ToolCall{{ID: "c1", Name: "read", Arguments: `{"p":1}`}}, Usage: &Usage{PromptTokens: 9, CompletionTokens: 3}}
	for _, w := range []wire{chatWire{}, responsesWire{}, anthropicWire{}} {
		all := strings.Join(w.events("m", resp), "")
		for _, want := range []string{"think", `"He"`, `"llo"`, `"c1"`, `\"p\":1`} {
			if !strings.Contains(all, want) {
				t.Errorf("%s stream lacks %s:\n%s", w.protocol(), want, all)
			}
		}
	}
}

package testserver

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, srv *Server, body, key string) (*http.Response, []string) {
	t.Helper()
	req, _ := http.NewRequest("POST", srv.URL()+"/chat/completions", strings.NewReader(body))
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var lines []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, "data: ") {
			lines = append(lines, strings.TrimPrefix(l, "data: "))
		}
	}
	return resp, lines
}

const body = `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`

func TestScriptedStream(t *testing.T) {
	srv, err := Start(Script{Responses: []Response{{
		Reasoning: []string{"hm"}, Text: []string{"a", "b"},
		ToolCalls: []ToolCall{{ID: "c1", Name: "read", Arguments: `{"path":"x"}`, Split: 3}},
		Usage:     &Usage{PromptTokens: 3, CompletionTokens: 4},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	resp, lines := post(t, srv, body, "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{`"reasoning_content":"hm"`, `"content":"a"`, `"id":"c1"`, `"finish_reason":"tool_calls"`, `"total_tokens":7`, "[DONE]"} {
		if !strings.Contains(all, want) {
			t.Errorf("stream lacks %s:\n%s", want, all)
		}
	}
	if n := strings.Count(all, `"arguments"`); n != 3 {
		t.Errorf("arguments in %d pieces, want 3", n)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Model != "m" || !reqs[0].Stream || !reqs[0].IncludeUsage || reqs[0].LastMessage().Content != "hi" {
		t.Fatalf("recorded %+v", reqs)
	}
}

func TestErrorsAndExhaustion(t *testing.T) {
	srv, _ := Start(Script{APIKey: "secret", Responses: []Response{{Status: 429, Error: "slow", RetryAfter: "3"}}})
	defer srv.Close()
	if resp, _ := post(t, srv, body, "wrong"); resp.StatusCode != 401 {
		t.Fatalf("bad key: %d", resp.StatusCode)
	}
	// The refused request was recorded but did not use up the script.
	resp, _ := post(t, srv, body, "secret")
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" {
		t.Fatalf("scripted error: %d %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp, _ := post(t, srv, body, "secret"); resp.StatusCode != 400 {
		t.Fatalf("beyond the script: %d", resp.StatusCode)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("%d requests recorded", n)
	}
}

func TestRespondSeesTheRequest(t *testing.T) {
	srv, _ := Start(Script{Respond: func(n int, req Request) Response {
		return Text("you said " + req.LastMessage().Content)
	}})
	defer srv.Close()
	_, lines := post(t, srv, body, "")
	if all := strings.Join(lines, ""); !strings.Contains(all, `"you "`) || !strings.Contains(all, `"hi"`) {
		t.Fatalf("%v", lines)
	}
}

func TestCloseReleasesHangs(t *testing.T) {
	srv, _ := Start(Script{Responses: []Response{{Fault: FaultHang}}})
	done := make(chan struct{})
	go func() {
		req, _ := http.NewRequest("POST", srv.URL()+"/chat/completions", strings.NewReader(body))
		if resp, err := http.DefaultClient.Do(req); err == nil {
			bufio.NewReader(resp.Body).ReadString(0)
			resp.Body.Close()
		}
		close(done)
	}()
	for len(srv.Requests()) == 0 {
		time.Sleep(time.Millisecond)
	}
	srv.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a hanging response outlived Close")
	}
}

func TestParseScript(t *testing.T) {
	s, err := ParseScript([]byte(`{"responses":[
		{"text":["Hel","lo"],"pace":"20ms"},
		{"tool_calls":[{"id":"c1","name":"read","arguments":"{}","split":2}]},
		{"status":429,"error":"slow down","retry_after":"1"},
		{"fault":"cut","fault_after":1,"first_delay":"1s"}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Responses) != 4 || time.Duration(s.Responses[0].Pace) != 20*time.Millisecond || s.Responses[1].ToolCalls[0].Split != 2 ||
		s.Responses[2].RetryAfter != "1" || s.Responses[3].Fault != FaultCut || time.Duration(s.Responses[3].FirstDelay) != time.Second {
		t.Fatalf("parsed %+v", s)
	}
	if _, err := ParseScript([]byte(`{"responses":[{"txt":["typo"]}]}`)); err == nil {
		t.Fatal("an unknown field was accepted")
	}
	if _, err := ParseScript([]byte(`{"responses":[{"pace":20}]}`)); err == nil {
		t.Fatal("a bare number was accepted as a duration")
	}
}

func TestChunksAndWords(t *testing.T) {
	if got := Chunks("héllo", 2); strings.Join(got, "|") != "hé|ll|o" {
		t.Errorf("Chunks: %q", got)
	}
	if got := Words("a bc d"); strings.Join(got, "|") != "a |bc |d" {
		t.Errorf("Words: %q", got)
	}
}

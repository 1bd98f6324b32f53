package llm

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestJitterStaysWithinBounds(t *testing.T) {
	p := DefaultRetryPolicy()
	e := &Error{Kind: KindServer}
	lo := p.wait(1, e, func() float64 { return 0 })
	hi := p.wait(1, e, func() float64 { return 0.999 })
	if lo != 2*time.Second || hi <= lo || hi > 2*time.Second*12/10 {
		t.Fatalf("wait range [%v, %v]", lo, hi)
	}
}

func TestErrorMessages(t *testing.T) {
	e := Classify(401, nil, []byte(`{"error":{"message":"Incorrect API key provided."}}`))
	if got := e.Error(); !strings.Contains(got, "HTTP 401") || !strings.Contains(got, "Incorrect API key") || strings.Contains(got, "(check") {
		t.Errorf("401 message without a hint: %q", got)
	}
	// The hint is the provider's, never a guess of this package.
	e.Hint = "check DEEPSEEK_API_KEY"
	if got := e.Error(); !strings.HasSuffix(got, "Incorrect API key provided. (check DEEPSEEK_API_KEY)") {
		t.Errorf("401 message with a hint: %q", got)
	}
	hinted := Classify(401, nil, []byte(`{"error":{"message":"invalid x-api-key"}}`))
	hinted.Hint = "set ANTHROPIC_API_KEY"
	if got := hinted.Error(); strings.Contains(got, "OPENAI_API_KEY") || !strings.Contains(got, "(set ANTHROPIC_API_KEY)") {
		t.Errorf("hinted 401 message: %q", got)
	}
	long := Classify(400, nil, []byte(strings.Repeat("é", 300)))
	if len(long.Detail) > 204 {
		t.Errorf("detail not clipped: %d bytes", len(long.Detail))
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		status int
		body   string
		want   Kind
	}{
		{401, `{"error":{"message":"bad key"}}`, KindAuth},
		{402, `payment required`, KindQuota},
		{403, `{"error":{"message":"You exceeded your quota","code":"insufficient_quota"}}`, KindQuota},
		{403, `Forbidden`, KindAuth},
		{429, `{"error":{"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}`, KindQuota},
		{429, `{"error":{"message":"Rate limit reached for requests"}}`, KindRateLimited},
		{404, `{"error":{"message":"The model does not exist"}}`, KindModelNotFound},
		{404, `{"error":{"message":"model \"qwen\" not found, try pulling it first"}}`, KindModelNotFound},
		{404, `404 page not found`, KindEndpoint},
		{404, `<html><body>Not Found</body></html>`, KindEndpoint},
		{405, `Method Not Allowed`, KindEndpoint},
		{400, `{"error":{"message":"This model's maximum context length is 4097 tokens"}}`, KindContextOverflow},
		{413, `too large`, KindContextOverflow},
		{400, `{"error":{"message":"Unrecognized request argument supplied: foo"}}`, KindInvalidRequest},
		{502, `bad gateway`, KindServer},
		{529, `overloaded`, KindServer},
		{418, `teapot`, KindProvider},
	}
	for _, tt := range tests {
		if got := Classify(tt.status, http.Header{}, []byte(tt.body)).Kind; got != tt.want {
			t.Errorf("%d %s: %s, want %s", tt.status, tt.body, got, tt.want)
		}
	}
}

func TestInStream(t *testing.T) {
	tests := []struct {
		message, code string
		want          Kind
	}{
		{"Internal server error", "", KindStream},
		{"Internal server error", "500", KindStream},
		{"Provider disconnected", "server_error", KindStream},
		{"This model's maximum context length is 8192 tokens", "context_length_exceeded", KindContextOverflow},
		{"Rate limit reached. Please try again in 2s.", "rate_limit_exceeded", KindRateLimited},
		{"too many", "429", KindRateLimited},
		{"You exceeded your current quota", "insufficient_quota", KindQuota},
		{"bad key", "401", KindAuth},
		{"Invalid tool schema", "invalid_request_error", KindInvalidRequest},
		{"unknown field", "400", KindInvalidRequest},
	}
	for _, tt := range tests {
		e := InStream(tt.message, tt.code)
		if e.Kind != tt.want {
			t.Errorf("%q %q: %s, want %s", tt.message, tt.code, e.Kind, tt.want)
		}
		// No HTTP status is claimed for an answer that came with 200.
		if e.Status != 0 || strings.Contains(e.Error(), "HTTP") {
			t.Errorf("%q %q: %q claims an HTTP status", tt.message, tt.code, e.Error())
		}
		if !strings.Contains(e.Error(), tt.message) {
			t.Errorf("%q %q: message lost: %q", tt.message, tt.code, e.Error())
		}
	}
	if e := InStream("Rate limit reached. Please try again in 2s.", ""); e.RetryAfter != 3*time.Second {
		t.Errorf("in-stream rate limit hint: %v", e.RetryAfter)
	}
}

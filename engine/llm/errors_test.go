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
	if got := e.Error(); !strings.Contains(got, "HTTP 401") || !strings.Contains(got, "OPENAI_API_KEY") || !strings.Contains(got, "Incorrect API key") {
		t.Errorf("401 message: %q", got)
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

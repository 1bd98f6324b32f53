package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Kind classifies a failed call by what can be done about it.
type Kind string

const (
	KindAuth            Kind = "authentication"   // 401, 403: the key is wrong; never retried
	KindQuota           Kind = "quota"            // out of credit; never retried
	KindRateLimited     Kind = "rate_limited"     // 429: retried after the hinted wait
	KindContextOverflow Kind = "context_overflow" // the prompt is larger than the window
	KindInvalidRequest  Kind = "invalid_request"  // 400: a bug or an unsupported parameter
	KindModelNotFound   Kind = "model_not_found"  // 404
	KindServer          Kind = "server_error"     // 5xx: retried
	KindNetwork         Kind = "network"          // connection refused, reset: retried
	KindTimeout         Kind = "timeout"          // a client-side deadline: retried
	KindStream          Kind = "stream"           // a broken or malformed stream: retried
	KindEndpoint        Kind = "endpoint"         // the URL does not serve this protocol (404 without an API error, HTML); never retried
	KindProvider        Kind = "provider"         // any other answer
	KindCancelled       Kind = "cancelled"        // the caller cancelled
)

// Error is a failed model call.
type Error struct {
	Kind   Kind
	Status int    // HTTP status, 0 when there was none
	Detail string // the server's message or ours, at most 200 characters
	// RetryAfter is the server's requested wait (Retry-After header or a
	// "try again in Xs" hint), 0 when it gave none.
	RetryAfter time.Duration
	// Attempts is how many requests the call made.
	Attempts int
	// Hint is what the user can do about it, in the words of the
	// configured provider ("check DEEPSEEK_API_KEY"); the transport fills
	// it from TransportConfig.Hints.
	Hint string
	Err  error
	// malformed is the start of an event that could not be read, so a
	// retry that meets the same event again can tell the failure is the
	// server's answer and not the network.
	malformed string
}

func (e *Error) Error() string {
	var b strings.Builder
	switch e.Kind {
	case KindAuth:
		b.WriteString("the API refused the credentials")
	case KindQuota:
		b.WriteString("the API account is out of quota")
	case KindRateLimited:
		b.WriteString("the API is rate limiting requests")
	case KindContextOverflow:
		b.WriteString("the conversation is larger than the model's context window")
	case KindInvalidRequest:
		b.WriteString("the API rejected the request")
	case KindModelNotFound:
		b.WriteString("the API does not know this model")
	case KindServer:
		b.WriteString("the API failed")
	case KindNetwork:
		b.WriteString("could not reach the API")
	case KindTimeout:
		b.WriteString("the API did not answer in time")
	case KindStream:
		b.WriteString("the response stream broke")
	case KindEndpoint:
		b.WriteString("the server at this URL does not speak the protocol")
	case KindCancelled:
		b.WriteString("cancelled")
	default:
		b.WriteString("the API call failed")
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	} else if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Hint != "" {
		b.WriteString(" (")
		b.WriteString(e.Hint)
		b.WriteString(")")
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether the same request may succeed if sent again.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case KindRateLimited, KindServer, KindNetwork, KindTimeout, KindStream:
		return true
	}
	return false
}

// KindOf returns the Kind of err, or "" when err is not an *Error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

// IsContextOverflow reports whether err says the prompt did not fit.
func IsContextOverflow(err error) bool { return KindOf(err) == KindContextOverflow }

var quotaMarkers = []string{"insufficient_quota", "quota_exceeded", "resource_exhausted"}

// Backend error codes are not reliable, so overflow is recognised by text.
var overflowMarkers = []string{
	"context_length", "context length", "maximum context", "context window",
	"too many tokens", "prompt is too long", "input is too long", "reduce the length",
}

// Classify turns a non-200 answer of an OpenAI-style API (an
// {"error":{"message":…}} body) into an *Error.
func Classify(status int, header http.Header, body []byte) *Error {
	msg := errorMessage(body)
	lower := strings.ToLower(string(body))
	e := &Error{Status: status, Detail: Clip(msg, 200)}
	hasAny := func(markers []string) bool {
		for _, m := range markers {
			if strings.Contains(lower, m) {
				return true
			}
		}
		return false
	}
	switch {
	case status == http.StatusUnauthorized:
		e.Kind = KindAuth
	case status == http.StatusPaymentRequired:
		e.Kind = KindQuota
	case status == http.StatusForbidden:
		e.Kind = KindAuth
		if hasAny(quotaMarkers) {
			e.Kind = KindQuota
		}
	case status == http.StatusTooManyRequests:
		e.Kind = KindRateLimited
		if hasAny(quotaMarkers) {
			e.Kind = KindQuota
		}
	case status == http.StatusNotFound:
		// A server that knows the route answers an unknown model with an
		// error naming it; a 404 that names no model is a route the
		// server does not have: another protocol, or a wrong base URL.
		e.Kind = KindEndpoint
		if strings.Contains(lower, "model") {
			e.Kind = KindModelNotFound
		}
	case status == http.StatusMethodNotAllowed:
		e.Kind = KindEndpoint
	case status == http.StatusBadRequest || status == http.StatusRequestEntityTooLarge:
		e.Kind = KindInvalidRequest
		if hasAny(overflowMarkers) || status == http.StatusRequestEntityTooLarge {
			e.Kind = KindContextOverflow
		}
	case status >= 500:
		e.Kind = KindServer
	default:
		e.Kind = KindProvider
	}
	if e.Kind == KindRateLimited || e.Kind == KindServer {
		e.RetryAfter = retryAfter(header, msg)
	}
	return e
}

// errorMessage extracts {"error":{"message":...}} when the body has it.
func errorMessage(body []byte) string {
	var v struct {
		Error any `json:"error"`
	}
	if err := json.Unmarshal(body, &v); err == nil {
		switch x := v.Error.(type) {
		case map[string]any:
			if m, ok := x["message"].(string); ok && m != "" {
				return m
			}
		case string:
			if x != "" {
				return x
			}
		}
	}
	return strings.TrimSpace(string(body))
}

var tryAgainIn = regexp.MustCompile(`(?i)try again in\s+([0-9]+(?:\.[0-9]+)?)\s*(ms|s)`)

// retryAfter reads the server's hint: the Retry-After header (seconds or
// an HTTP date) first, then "try again in X[.XXX]s" in the message. One
// second is added to a parsed hint, because servers round down.
func retryAfter(h http.Header, msg string) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
			return time.Duration(secs*float64(time.Second)) + time.Second
		}
		if t, err := http.ParseTime(v); err == nil {
			if d := time.Until(t); d > 0 {
				return d + time.Second
			}
			return time.Second
		}
	}
	if m := tryAgainIn.FindStringSubmatch(msg); m != nil {
		x, err := strconv.ParseFloat(m[1], 64)
		if err == nil {
			unit := time.Second
			if strings.EqualFold(m[2], "ms") {
				unit = time.Millisecond
			}
			return time.Duration(x*float64(unit)) + time.Second
		}
	}
	return 0
}

// Clip shortens s to at most n bytes without splitting a character, for
// error details.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Malformed is the error for an event a decoder could not read: a
// KindStream that Transport retries once, in case the event was cut in
// transit, but not again when the retry meets the same event, since a
// server that sends the same malformed event twice will send it every
// time.
func Malformed(what string, data []byte, err error) *Error {
	start := Clip(string(data), 80)
	return &Error{Kind: KindStream, Detail: what + ": " + start, Err: err, malformed: start}
}

// InStream classifies an error a server reported inside a stream it had
// already answered with 200. There is no HTTP status to go by, and none is
// claimed: the kind comes from the error's code and words. A context
// overflow, a quota, a rate limit and a refused key keep their kinds; a
// code that blames the request (400, 404, 422, "invalid_request…") is
// KindInvalidRequest and not retried; anything else is a KindStream,
// retried while nothing has been shown.
func InStream(message, code string) *Error {
	lower := strings.ToLower(message + " " + code)
	has := func(markers ...string) bool {
		for _, m := range markers {
			if strings.Contains(lower, m) {
				return true
			}
		}
		return false
	}
	detail := "the server reported an error during the answer"
	if message != "" {
		detail += ": " + message
	}
	if code != "" {
		detail += " [code " + code + "]"
	}
	e := &Error{Kind: KindStream, Detail: Clip(detail, 200)}
	n, _ := strconv.Atoi(code)
	switch {
	case has(overflowMarkers...):
		e.Kind = KindContextOverflow
	case has(quotaMarkers...):
		e.Kind = KindQuota
	case n == http.StatusTooManyRequests || has("rate_limit", "rate limit", "too many requests"):
		e.Kind = KindRateLimited
		e.RetryAfter = retryAfter(nil, message)
	case n == http.StatusUnauthorized || n == http.StatusForbidden || has("invalid_api_key", "authentication", "unauthorized"):
		e.Kind = KindAuth
	case n == http.StatusBadRequest || n == http.StatusNotFound || n == http.StatusUnprocessableEntity || has("invalid_request"):
		e.Kind = KindInvalidRequest
	}
	return e
}

package llm

import (
	"context"
	"math"
	"time"
)

// RetryPolicy says how often and how long to wait before sending a
// failed request again. The zero value means DefaultRetryPolicy.
type RetryPolicy struct {
	// MaxRetries is how many times a request is sent again after the
	// first attempt. In a policy that sets other fields, 0 or -1 means
	// never; only the zero RetryPolicy as a whole means the defaults.
	MaxRetries int
	// Initial is the first exponential wait; each next one is Multiplier
	// times longer.
	Initial    time.Duration
	Multiplier float64
	// Max caps every wait, including a server's Retry-After.
	Max time.Duration
	// Jitter adds up to this fraction of an exponential wait at random, so
	// many clients do not retry in lockstep. Server hints get no jitter.
	Jitter float64
	// RateLimitWait is the wait after a 429 that carried no hint.
	RateLimitWait time.Duration
}

// DefaultRetryPolicy: at most 4 requests, waiting 1 s, 2 s, 4 s (plus up
// to 20 % jitter); a rate limit without a hint waits 30 s; no wait
// exceeds 60 s.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: 3, Initial: time.Second, Multiplier: 2, Max: 60 * time.Second, Jitter: 0.2, RateLimitWait: 30 * time.Second}
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	d := DefaultRetryPolicy()
	if p == (RetryPolicy{}) {
		return d
	}
	if p.MaxRetries < 0 {
		p.MaxRetries = 0
	}
	if p.Multiplier <= 0 {
		p.Multiplier = d.Multiplier
	}
	if p.Max <= 0 {
		p.Max = d.Max
	}
	if p.RateLimitWait <= 0 {
		p.RateLimitWait = d.RateLimitWait
	}
	return p
}

// wait is how long to sleep before retry number attempt+1 (attempt is
// 0-based) after err; rnd returns a number in [0, 1).
func (p RetryPolicy) wait(attempt int, err *Error, rnd func() float64) time.Duration {
	var d time.Duration
	switch {
	case err.RetryAfter > 0:
		d = err.RetryAfter
	case err.Kind == KindRateLimited:
		d = p.RateLimitWait
	default:
		exp := float64(p.Initial) * math.Pow(p.Multiplier, float64(attempt))
		if exp > float64(p.Max) {
			exp = float64(p.Max)
		}
		if p.Jitter > 0 && rnd != nil {
			exp += exp * p.Jitter * rnd()
		}
		d = time.Duration(exp)
	}
	return min(d, p.Max)
}

// SleepContext waits for d or until ctx is done.
func SleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

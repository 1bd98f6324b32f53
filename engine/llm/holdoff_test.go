package llm

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Both ways of holding off wait at least the interval, again and again on
// the same holdOff, and a context that ends wakes a wait in progress.
func TestHoldOffWaitsAndIsCancelled(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(context.Context) holdOff
	}{
		{"platform", newHoldOff},
		{"timer", func(context.Context) holdOff { return &timerHoldOff{} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h := tc.make(ctx)
			defer h.release()
			for _, d := range []time.Duration{5 * time.Millisecond, 20 * time.Millisecond, time.Millisecond} {
				start := time.Now()
				if err := h.wait(ctx, d); err != nil {
					t.Fatalf("wait(%v): %v", d, err)
				}
				if got := time.Since(start); got < d {
					t.Fatalf("wait(%v) returned after %v", d, got)
				}
			}
			done := make(chan error, 1)
			go func() { done <- h.wait(ctx, time.Hour) }()
			time.Sleep(10 * time.Millisecond)
			cancel()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("a cancelled wait returned %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("a cancelled wait did not return")
			}
			if err := h.wait(ctx, time.Millisecond); !errors.Is(err, context.Canceled) {
				t.Fatalf("a wait after the context ended returned %v", err)
			}
		})
	}
}

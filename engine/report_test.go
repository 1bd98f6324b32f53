package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quire-sh/quire/engine/event"
	"github.com/quire-sh/quire/engine/llm"
	"github.com/quire-sh/quire/engine/testserver"
)

// samplerFunc is a Sampler made of a function.
type samplerFunc func(ctx context.Context, req llm.Request, h llm.Handler) (llm.Response, error)

func (f samplerFunc) Stream(ctx context.Context, req llm.Request, h llm.Handler) (llm.Response, error) {
	return f(ctx, req, h)
}

// A stream's deltas are handled in the stream's goroutine when nothing
// waits before them, and through the actor otherwise; either way every
// report of a sample reaches the events in the order it was made: the
// retry's notice before the text, the text in order, the turn's end last.
func TestStreamReportsKeepTheirOrder(t *testing.T) {
	const deltas = 200
	var want strings.Builder
	for i := range deltas {
		fmt.Fprintf(&want, "%d ", i)
	}
	for round := range 20 {
		sampler := samplerFunc(func(ctx context.Context, req llm.Request, h llm.Handler) (llm.Response, error) {
			h.Retry(0, time.Millisecond, &llm.Error{Kind: llm.KindNetwork, Detail: "reset"})
			for i := range deltas {
				if i%50 == 0 {
					h.Reasoning("thinking ")
				}
				h.Text(fmt.Sprintf("%d ", i))
			}
			return llm.Response{Text: want.String(), FinishReason: llm.FinishStop}, nil
		})
		h := newHarness(t, testserver.Script{}, func(c *Config) { c.Sampler = sampler })
		h.s.Submit("go")
		h.waitFor("the turn's end", func(e event.Event) bool { return e.Kind == event.TurnEnded })
		var text strings.Builder
		sawNotice, sawText := false, false
		for _, e := range h.all() {
			switch e.Kind {
			case event.Notice:
				if strings.Contains(e.Text, "retrying") {
					if sawText {
						t.Fatalf("round %d: the retry's notice came after text:\n%s", round, dump(h.all()))
					}
					sawNotice = true
				}
			case event.AssistantDelta:
				sawText = true
				text.WriteString(e.Text)
			}
		}
		if !sawNotice || text.String() != want.String() {
			t.Fatalf("round %d: notice %v, text %q\nwant %q", round, sawNotice, text.String(), want.String())
		}
		var last event.Kind
		for _, e := range h.all() {
			if e.Kind == event.AssistantDelta || e.Kind == event.ReasoningDelta || e.Kind == event.TurnEnded {
				last = e.Kind
			}
		}
		if last != event.TurnEnded {
			t.Fatalf("round %d: a delta came after the turn's end:\n%s", round, dump(h.all()))
		}
		h.close()
	}
}

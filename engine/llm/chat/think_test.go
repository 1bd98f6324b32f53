package chat

import (
	"context"
	"github.com/quire-sh/quire/engine/llm"
	"strings"
	"testing"

	"github.com/quire-sh/quire/engine/testserver"
)

func splitAll(parts []string) (text, reasoning string) {
	var t thinkSplitter
	var tb, rb strings.Builder
	for _, p := range parts {
		a, b := t.feed(p)
		tb.WriteString(a)
		rb.WriteString(b)
	}
	a, b := t.finish()
	return tb.String() + a, rb.String() + b
}

func TestThinkSplitter(t *testing.T) {
	tests := []struct {
		parts           []string
		text, reasoning string
	}{
		{[]string{"Hello <th", "ink>hidden ", "chain</thi", "nk> world"}, "Hello  world", "hidden chain"},
		{[]string{"a < b and <th"}, "a < b and <th", ""},
		{[]string{"<think>never closed"}, "", "never closed"},
		{[]string{"<think>x</think>", "y<think>z</think>"}, "y", "xz"},
		{[]string{"plain ", "text"}, "plain text", ""},
		{[]string{"<", "/", "think>"}, "</think>", ""},
	}
	for _, tt := range tests {
		text, reasoning := splitAll(tt.parts)
		if text != tt.text || reasoning != tt.reasoning {
			t.Errorf("%q: text %q reasoning %q, want %q %q", tt.parts, text, reasoning, tt.text, tt.reasoning)
		}
	}
}

func TestInlineThinkingBecomesReasoning(t *testing.T) {
	srv := start(t, testserver.Script{Responses: []testserver.Response{{Text: []string{"<thi", "nk>plan it</think>", "The answer.", " <th"}}}})
	var shown strings.Builder
	resp, err := client(srv, nil, nil).Stream(context.Background(), simpleRequest(), llm.Handler{Text: func(s string) { shown.WriteString(s) }})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "The answer. <th" || shown.String() != resp.Text || resp.Reasoning != "plan it" {
		t.Fatalf("text %q shown %q reasoning %q", resp.Text, shown.String(), resp.Reasoning)
	}
}

// Fragments split anywhere give the same split as the whole text.
func FuzzThinkSplitter(f *testing.F) {
	f.Add("Hello <think>hidden</think> world", 7)
	f.Add("<think><think></think></think>", 3)
	f.Fuzz(func(t *testing.T, s string, cut int) {
		if cut < 0 {
			cut = -cut
		}
		cut %= len(s) + 1
		wt, wr := splitAll([]string{s})
		st, sr := splitAll([]string{s[:cut], s[cut:]})
		if wt != st || wr != sr {
			t.Fatalf("%q cut at %d: %q/%q vs %q/%q", s, cut, wt, wr, st, sr)
		}
		if len(wt)+len(wr) > len(s) {
			t.Fatalf("output longer than input")
		}
	})
}

package llm

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// kindDecoder reads events "r:TEXT" as reasoning and "t:TEXT" as text.
type kindDecoder struct{ textDecoder }

func (d *kindDecoder) Event(data []byte) (Delta, bool, error) {
	s := string(data)
	switch {
	case strings.HasPrefix(s, "r:"):
		return Delta{Reasoning: s[2:]}, false, nil
	case strings.HasPrefix(s, "t:"):
		d.text.WriteString(s[2:])
		return Delta{Text: s[2:]}, false, nil
	}
	return d.textDecoder.Event(data)
}

// The events one read brings are handed over in one delivery each of
// reasoning and text, in the order they came: reasoning that follows
// text is delivered after it, never merged ahead of it.
func TestEventsOfOneReadAreDeliveredTogetherInOrder(t *testing.T) {
	tests := []struct {
		name, sent string
		want       []string
	}{
		{"text", "data: t:a\n\ndata: t:b\n\ndata: t:c\n\n", []string{"text:abc"}},
		{"reasoning then text", "data: r:x\n\ndata: r:y\n\ndata: t:a\n\ndata: t:b\n\n", []string{"reasoning:xy", "text:ab"}},
		{"text then reasoning", "data: t:a\n\ndata: r:x\n\ndata: t:b\n\n", []string{"text:a", "reasoning:x", "text:b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(200)
				w.Write([]byte(tt.sent + "data: [DONE]\n\n")) // one write, read in one go
			})
			var got []string
			tr, _ := testTransport(Timeouts{}, 0)
			ex := Exchange{URL: srv.URL, NewDecoder: func() Decoder { return &kindDecoder{} }}
			_, err := tr.Stream(context.Background(), ex, Handler{
				Text:      func(s string) { got = append(got, "text:"+s) },
				Reasoning: func(s string) { got = append(got, "reasoning:"+s) },
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("delivered %q, want %q", got, tt.want)
			}
		})
	}
}

package llm

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// nullDecoder accepts any event and reads nothing.
type nullDecoder struct{}

func (nullDecoder) Event([]byte) (Delta, bool, error) { return Delta{}, true, nil }
func (nullDecoder) End() (Delta, error)               { return Delta{}, nil }
func (nullDecoder) Whole([]byte) (Delta, error)       { return Delta{}, nil }
func (nullDecoder) Response() Response                { return Response{} }

// A server that answers with a web page is not retried and says so.
func TestWebPageIsAnEndpointError(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><body><h1>Welcome to the gateway</h1></body></html>")
	}))
	defer srv.Close()
	tr := NewTransport(TransportConfig{Sleep: func(context.Context, time.Duration) error { return nil }})
	_, err := tr.Stream(context.Background(), Exchange{URL: srv.URL, NewDecoder: func() Decoder { return nullDecoder{} }}, Handler{})
	if KindOf(err) != KindEndpoint || hits != 1 {
		t.Fatalf("err %v (kind %s) after %d requests", err, KindOf(err), hits)
	}
	if !strings.Contains(err.Error(), "web page") {
		t.Errorf("message: %q", err)
	}
}

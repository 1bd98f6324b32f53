package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/quire-sh/quire/engine/llm"
)

// Config configures a Client.
type Config struct {
	// BaseURL is the API root including its version path, e.g.
	// "https://api.openai.com/v1"; "/chat/completions" is appended.
	BaseURL string
	// APIKey is sent as a bearer token when not empty.
	APIKey string
	// Header holds extra request headers (a gateway's routing header, an
	// organisation id).
	Header http.Header
	llm.TransportConfig
}

// Client sends chat completion requests. It is safe for concurrent use.
type Client struct {
	url       string
	header    http.Header
	transport *llm.Transport
}

// New returns a client for cfg.
func New(cfg Config) *Client {
	h := cfg.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if cfg.APIKey != "" {
		h.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	return &Client{
		url:       strings.TrimRight(cfg.BaseURL, "/") + "/chat/completions",
		header:    h,
		transport: llm.NewTransport(cfg.TransportConfig),
	}
}

// Body returns the JSON request body for req, as sent.
func Body(req llm.Request) ([]byte, error) {
	r := openai.ChatCompletionRequest{
		Model:         req.Model,
		Messages:      wireMessages(req.System, req.Messages),
		Tools:         wireTools(req.Tools),
		MaxTokens:     req.MaxTokens,
		Temperature:   req.Temperature,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	return json.Marshal(r)
}

// Stream makes one logical call, retrying as the transport's policy
// allows while nothing has been handed to h yet.
func (c *Client) Stream(ctx context.Context, req llm.Request, h llm.Handler) (llm.Response, error) {
	body, err := Body(req)
	if err != nil {
		return llm.Response{}, fmt.Errorf("encode the request: %w", err)
	}
	return c.transport.Stream(ctx, llm.Exchange{
		URL:        c.url,
		Header:     c.header,
		Body:       body,
		NewDecoder: func() llm.Decoder { return &assembler{} },
	}, h)
}

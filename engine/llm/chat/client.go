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
	// ReplayReasoning says, for a request's model, which assistant
	// messages carry their reasoning back (see Replay). A named provider
	// sets it; nil uses DefaultReplay for BaseURL and the model.
	ReplayReasoning func(model string) Replay
	llm.TransportConfig
}

// Client sends chat completion requests. It is safe for concurrent use.
type Client struct {
	url       string
	header    http.Header
	replay    func(model string) Replay
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
	replay := cfg.ReplayReasoning
	if replay == nil {
		base := cfg.BaseURL
		replay = func(model string) Replay { return DefaultReplay(base, model) }
	}
	return &Client{
		url:       strings.TrimRight(cfg.BaseURL, "/") + "/chat/completions",
		header:    h,
		replay:    replay,
		transport: llm.NewTransport(cfg.TransportConfig),
	}
}

// Body returns the JSON request body for req as sent to a server that
// gets no reasoning back.
func Body(req llm.Request) ([]byte, error) { return body(req, ReplayNever) }

func body(req llm.Request, replay Replay) ([]byte, error) {
	r := openai.ChatCompletionRequest{
		Model:         req.Model,
		Messages:      wireMessages(req.System, req.Messages, replay),
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
	payload, err := body(req, c.replay(req.Model))
	if err != nil {
		return llm.Response{}, fmt.Errorf("encode the request: %w", err)
	}
	return c.transport.Stream(ctx, llm.Exchange{
		URL:        c.url,
		Header:     c.header,
		Body:       payload,
		NewDecoder: func() llm.Decoder { return &assembler{} },
	}, h)
}

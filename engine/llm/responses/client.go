package responses

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/quire-sh/quire/engine/llm"
)

// Config configures a Client.
type Config struct {
	// BaseURL is the API root including its version path, e.g.
	// "https://api.openai.com/v1"; "/responses" is appended.
	BaseURL string
	// APIKey is sent as a bearer token when not empty.
	APIKey string
	// Header holds extra request headers.
	Header http.Header
	// Reasoning marks a reasoning model: the request asks for reasoning
	// summaries and the reasoning items' encrypted content, at
	// ReasoningEffort ("low", "medium", "high"; empty: the model's
	// default). Other models reject both ("Encrypted content is not
	// supported with this model").
	Reasoning       bool
	ReasoningEffort string
	llm.TransportConfig
}

// Client sends Responses API requests. It is safe for concurrent use.
type Client struct {
	cfg       Config
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
		cfg:       cfg,
		url:       strings.TrimRight(cfg.BaseURL, "/") + "/responses",
		header:    h,
		transport: llm.NewTransport(cfg.TransportConfig),
	}
}

// Body returns the JSON request body for req, as sent.
func (c *Client) Body(req llm.Request) ([]byte, error) {
	parallel := true
	r := request{
		Model:        req.Model,
		Instructions: req.System,
		Input:        wireInput(req.Model, req.Messages),
		Tools:        wireTools(req.Tools),
		Stream:       true,
		Store:        false,
		MaxOutput:    req.MaxTokens,
	}
	if len(r.Tools) > 0 {
		r.ToolChoice, r.Parallel = "auto", &parallel
	}
	if c.cfg.Reasoning {
		r.Reasoning = &reasoning{Effort: c.cfg.ReasoningEffort, Summary: "auto"}
		r.Include = []string{"reasoning.encrypted_content"}
	} else if req.Temperature != 0 {
		// Reasoning models reject a temperature.
		t := req.Temperature
		r.Temperature = &t
	}
	return json.Marshal(r)
}

// Stream makes one logical call, retrying as the transport's policy
// allows while nothing has been handed to h yet.
func (c *Client) Stream(ctx context.Context, req llm.Request, h llm.Handler) (llm.Response, error) {
	body, err := c.Body(req)
	if err != nil {
		return llm.Response{}, fmt.Errorf("encode the request: %w", err)
	}
	return c.transport.Stream(ctx, llm.Exchange{
		URL:        c.url,
		Header:     c.header,
		Body:       body,
		NewDecoder: func() llm.Decoder { return newDecoder(req.Model) },
	}, h)
}

package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/quire-sh/quire/engine/llm"
)

// APIVersion is the anthropic-version header every request carries.
const APIVersion = "2023-06-01"

// DefaultMaxTokens caps an answer when neither the request nor Config
// says: the API requires a cap.
const DefaultMaxTokens = 8192

// minThinkingBudget is the smallest thinking budget the API accepts.
const minThinkingBudget = 1024

// Config configures a Client.
type Config struct {
	// BaseURL is the API root, e.g. "https://api.anthropic.com";
	// "/v1/messages" is appended ("/messages" to a root ending in /v1).
	BaseURL string
	// APIKey is sent as x-api-key when not empty.
	APIKey string
	// Header holds extra request headers (anthropic-beta, a gateway's).
	Header http.Header
	// MaxTokens caps answers of requests that do not set their own
	// (default DefaultMaxTokens).
	MaxTokens int
	// ThinkingBudget, when at least 1024, turns extended thinking on with
	// this many tokens, kept below the answer's cap. A temperature is
	// then not sent: the API refuses one with thinking.
	ThinkingBudget int
	llm.TransportConfig
}

// Client sends Messages API requests. It is safe for concurrent use.
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
		h.Set("x-api-key", cfg.APIKey)
	}
	if h.Get("anthropic-version") == "" {
		h.Set("anthropic-version", APIVersion)
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	root := strings.TrimRight(cfg.BaseURL, "/")
	url := root + "/v1/messages"
	if strings.HasSuffix(root, "/v1") {
		url = root + "/messages"
	}
	return &Client{cfg: cfg, url: url, header: h, transport: llm.NewTransport(cfg.TransportConfig)}
}

// Body returns the JSON request body for req, as sent.
func (c *Client) Body(req llm.Request) ([]byte, error) {
	r := request{
		Model:     req.Model,
		MaxTokens: req.MaxTokens,
		Messages:  wireMessages(req.Model, req.Messages),
		Tools:     wireTools(req.Tools),
		Stream:    true,
	}
	if r.MaxTokens <= 0 {
		r.MaxTokens = c.cfg.MaxTokens
	}
	if req.System != "" {
		r.System = []block{{Type: "text", Text: req.System}}
	}
	if budget := min(c.cfg.ThinkingBudget, r.MaxTokens-minThinkingBudget); budget >= minThinkingBudget {
		r.Thinking = &thinking{Type: "enabled", BudgetTokens: budget}
	} else if req.Temperature != 0 {
		t := req.Temperature
		r.Temperature = &t
	}
	if r.Messages == nil {
		r.Messages = []message{}
	}
	markCache(&r)
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
		Classify:   classify,
	}, h)
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
